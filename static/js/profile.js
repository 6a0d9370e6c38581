// A player's profile (#/p/<id>): the avatar (one's own chosen here, PUT
// /api/players/me/avatar), games played and won, chips won and lost, the best Gaple round, Moon
// contracts and the daily streak, from GET /api/players/{id}/profile; another player's has
// "Tambah teman" (friends.js).

import { h, slot } from "./dom.js";
import { t, fmt } from "./i18n.js";
import { api } from "./api.js";
import { winRate } from "./stats.js";
import { avatar } from "./avatars.js";
import { addFriend, removeFriend } from "./friends.js";

/** `mine`: the profile is the signed-in player's own (the avatars to choose from show);
 * `onAvatar()` runs after a new one is saved. */
export function mountProfile(root, { playerId, errorText, mine = false, onAvatar, me = null, toast = () => {} }) {
  const el = h("div", { class: "profile" });
  const content = slot();
  el.append(content.node);
  root.append(el);
  let data = null;
  let failed = null;
  let choices = null; // the avatars one may choose (GET /api/players/avatars), own profile only
  let chooseError = null;

  async function choose(id) {
    try {
      await api.chooseAvatar(id);
      data = { ...data, avatar: id };
      chooseError = null;
      onAvatar?.();
    } catch (err) { chooseError = errorText(err); }
    draw();
  }

  function chooser() {
    if (!mine || !choices) return null;
    return h("section", { class: "card avatar-chooser" }, h("h3", {}, t("avatar.choose")),
      h("div", { class: "avatar-grid", role: "radiogroup", "aria-label": t("avatar.choose") },
        choices.map((id) => h("button", {
          class: `avatar-choice ${data.avatar === id ? "on" : ""}`, type: "button", role: "radio",
          "aria-checked": String(data.avatar === id), "data-choose": id, title: t(`avatar.${id}`),
          "aria-label": t(`avatar.${id}`), onclick: () => choose(id),
        }, avatar(id, 48)))),
      chooseError ? h("p", { class: "error", role: "alert" }, chooseError) : null);
  }
  let friend = null; // whether this player is on the signed-in player's list (null: not known)

  function fact(key, value, name) {
    return h("div", { class: "fact", "data-stat": name },
      h("span", { class: "fact-label" }, t(key)), h("strong", { class: "fact-value" }, value));
  }

  /** Another player's profile: add them as a friend, or remove them. */
  function friendButton() {
    if (!me || String(me.id) === String(data.id) || friend === null) return null;
    const change = async () => {
      const done = friend ? await removeFriend(data.id, data.name, toast) : await addFriend(data.id, data.name, toast);
      if (done) { friend = !friend; draw(); }
    };
    return h("button", { class: `btn ${friend ? "" : "btn-primary"}`, type: "button",
      "data-action": friend ? "remove-friend" : "add-friend", onclick: change },
    t(friend ? "friends.remove" : "friends.add"));
  }

  function draw() {
    const back = h("a", { class: "btn btn-ghost", href: "#/" }, t("profile.back"));
    if (failed) { content.set(h("div", { class: "card" }, h("p", { class: "error" }, failed), back)); return; }
    if (!data) { content.set(h("p", { class: "muted" }, "…")); return; }
    const none = t("profile.none");
    const c = data.moon_contracts;
    content.set(h("div", { class: "profile-page" },
      h("div", { class: "profile-head" }, avatar(data.avatar, 56, "avatar-big"),
        h("h2", { "data-name": "" }, data.name), friendButton(), back),
      chooser(),
      h("section", { class: "facts" },
        fact("profile.streak", t("profile.streak_n", { n: data.daily_streak }), "streak"),
        fact("profile.chips_won", fmt(data.chips.won), "chips_won"),
        fact("profile.chips_lost", fmt(data.chips.lost), "chips_lost"),
        fact("profile.best_multiplier", data.best_multiplier ? `×${fmt(data.best_multiplier)}` : none,
          "best_multiplier"),
        fact("profile.biggest_pot", data.biggest_pot ? fmt(data.biggest_pot) : none, "biggest_pot"),
        fact("profile.contracts", t("profile.contracts_n", { made: c.made, bid: c.bid }), "contracts")),
      h("section", { class: "card" }, h("h3", {}, t("profile.games")),
        h("table", { class: "stat-table" },
          h("thead", {}, h("tr", {}, h("th", {}, t("profile.game")), h("th", { class: "num" }, t("profile.played")),
            h("th", { class: "num" }, t("profile.won")), h("th", { class: "num" }, t("profile.win_rate")))),
          h("tbody", {}, data.games.map((g) => h("tr", { "data-game": g.game },
            h("td", {}, t(`game.${g.game}`)), h("td", { class: "num" }, fmt(g.played)),
            h("td", { class: "num" }, fmt(g.won)), h("td", { class: "num" }, winRate(g.played, g.won)))))))));
  }

  if (me) api.friends().then((list) => { friend = list.some((f) => String(f.id) === String(playerId)); draw(); }, () => {});
  api.profile(playerId).then((res) => { data = res; draw(); },
    (err) => { failed = errorText(err); draw(); });
  if (mine) api.avatars().then((res) => { choices = res.avatars; draw(); }, () => {});
  draw();
  return { rerender: draw, destroy() { el.remove(); } };
}
