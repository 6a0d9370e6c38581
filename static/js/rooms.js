// The stake rooms of a chips game (docs/players.md "Stake rooms", GET /api/rooms/{game}): a
// tile per room with its stake, the wallet it needs, its players online and a quick join into
// it; a room the wallet does not open is drawn locked, and its button says why.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";

/** Pure: whether the wallet opens `room` (a wallet not known opens none). */
export function opens(room, wallet) { return wallet !== null && wallet !== undefined && wallet >= room.min_wallet; }

/** The text of a room the wallet does not open. */
export function lockedText(room, wallet) {
  return t("rooms.locked.why", { stake: room.stake, min: room.min_wallet, wallet: wallet ?? 0 });
}

/** A padlock, drawn here (no emoji font is assumed). */
function lockIcon() {
  return s("svg", { class: "lock-icon", viewBox: "0 0 16 16", "aria-hidden": "true" },
    s("rect", { x: 3, y: 7, width: 10, height: 8, rx: 1.5, fill: "currentColor" }),
    s("path", { d: "M5 7V5a3 3 0 0 1 6 0v2", fill: "none", stroke: "currentColor", "stroke-width": 1.8 }));
}

/** The section of `data` (the rooms' answer) for `game`; `join(room)` quick-joins one. */
export function roomsSection(game, data, join) {
  return h("section", { class: "rooms card", "data-game": game },
    h("div", { class: "rooms-head" },
      h("h3", {}, t("rooms.title", { game: t(`game.${game}`) })),
      h("p", { class: "muted" }, t("rooms.help"))),
    h("ul", { class: "room-list" }, data.rooms.map((room) => {
      const open = opens(room, data.wallet);
      return h("li", { class: `room ${open ? "" : "locked"} ${room.stake === data.suggested ? "suggested" : ""}`,
        "data-stake": room.stake },
      h("strong", { class: "room-stake" }, t("rooms.stake", { n: room.stake })),
      h("span", { class: "room-min" }, t("rooms.min", { n: room.min_wallet })),
      h("span", { class: "room-online", "data-online": room.online }, t("rooms.online", { n: room.online })),
      h("button", { class: `btn ${open ? "btn-primary" : "btn-ghost"}`, type: "button", "data-action": "room",
        "aria-label": open ? t("rooms.join.label", { n: room.stake }) : lockedText(room, data.wallet),
        onclick: () => join(room) }, open ? t("rooms.join") : [lockIcon(), t("rooms.locked")]));
    })));
}
