// The page a visitor without a session lands on: what Meja is (the four games, each with its
// rules a tap away) and one tap to play as a guest under a name made up for them; below it the
// welcome card (account.js) for choosing a name, logging in or signing up.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { welcome } from "./account.js";
import { errorText } from "./errors.js";
import { RENDERERS } from "./games/index.js";
import { tileSvg } from "./tiles.js";

/** A guest's made-up name ("Tamu 4821"): any name the server takes would do; this one reads
 * as a guest's in the page's language and rarely meets another. */
export function guestName(random = Math.random) {
  return t("landing.guest_name", { n: String(1000 + Math.floor(random() * 9000)) });
}

export function mountLanding(main, done) {
  const el = h("div", { class: "landing" });
  let failed = null;
  let busy = false;

  async function play() {
    busy = true;
    failed = null;
    draw();
    try {
      await api.register(guestName());
      done();
      return;
    } catch (err) { failed = errorText(err); }
    busy = false;
    draw();
  }

  const top = h("div", { class: "landing-top" });
  const rest = h("div", { class: "landing-more" });

  /** The hero and the games; the welcome card below keeps what was typed (its own rerender). */
  function draw() {
    const games = Object.entries(RENDERERS).map(([name, r]) => h("article",
      { class: `game-card landing-game game-${name}`, "data-game": name },
      h("span", { class: "card-tile", "aria-hidden": "true" }, tileSvg(...r.cardTile, { vertical: false })),
      h("h3", {}, t(`game.${name}`)),
      h("p", {}, t(`game.${name}.about`)),
      h("a", { class: "card-rules", href: `#/rules/${name}`, "data-action": "rules" }, t("rules.link"))));
    top.replaceChildren(
      h("section", { class: "landing-hero" },
        h("h1", {}, t("welcome.title")),
        h("p", { class: "landing-lead" }, t("landing.lead")),
        h("button", { class: "btn btn-primary landing-play", type: "button", "data-action": "guest",
          disabled: busy, onclick: play }, t("landing.play")),
        failed ? h("p", { class: "error", role: "alert" }, failed) : null,
        h("p", { class: "landing-hint" }, t("landing.play_hint"))),
      h("h2", { class: "landing-title" }, t("landing.games")),
      h("div", { class: "landing-games" }, games),
      h("h2", { class: "landing-title" }, t("landing.more")));
  }

  draw();
  el.append(top, rest);
  main.append(el);
  const more = welcome(rest, done, "guest", { heading: false });
  return {
    destroy() { more.destroy(); el.remove(); },
    rerender() { draw(); more.rerender(); },
  };
}
