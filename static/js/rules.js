// A game's rules page (#/rules/<game>), in the page's language: the player's version of
// docs/rules.md (rules/id.js and rules/en.js, the same shape), reachable from every game card
// and from the table. A section's body is paragraphs (strings), lists (arrays of strings) and
// tables ({table: [header, ...rows]}).

import { h, clear } from "./dom.js";
import { t, getLang } from "./i18n.js";
import id from "./rules/id.js";
import en from "./rules/en.js";

export const RULES = { id, en };

/** `back`: the route the page was opened from (a table, or the lobby). */
export function mountRules(root, { game, back = "#/" }) {
  const el = h("div", { class: "rules-page" });
  root.append(el);

  function body(part) {
    if (typeof part === "string") return h("p", {}, part);
    if (Array.isArray(part)) return h("ul", {}, part.map((x) => h("li", {}, x)));
    const [head, ...rows] = part.table;
    return h("div", { class: "rules-table" }, h("table", {},
      h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, rows.map((row) => h("tr", {}, row.map((x) => h("td", {}, x)))))));
  }

  function draw() {
    clear(el);
    const book = RULES[getLang()] || RULES.id;
    const rules = book.games[game];
    el.append(h("div", { class: "rules-top" },
      h("a", { class: "btn btn-ghost", href: back, "data-action": "back" },
        `← ${t(back.startsWith("#/t/") ? "lobby.back" : "nav.lobby")}`),
      h("nav", { class: "filters", "aria-label": t("rules.games") }, Object.keys(book.games).map((g) =>
        h("a", { class: `tab ${g === game ? "on" : ""}`, href: `#/rules/${g}` }, t(`game.${g}`))))));
    if (!rules) { el.append(h("p", { class: "card" }, t("rules.none"))); return; }
    el.append(h("article", { class: "rules card", "data-game": game },
      h("h2", {}, t("rules.title", { game: t(`game.${game}`) })),
      h("p", { class: "rules-about" }, rules.about),
      [...rules.sections, ...book.common].map((s) =>
        h("section", {}, h("h3", {}, s.title), s.body.map(body)))));
  }

  draw();
  return { rerender: draw, destroy() { el.remove(); } };
}
