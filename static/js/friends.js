// Friends (docs/players.md "Friends"): the lobby's invites to a table (at its top) and its
// panel of friends, online first, each with the table they sit at and "Gabung"; the card a
// player's name opens at a table (add them as a friend, see the profile), the profile's button
// and the table's "Undang teman" dialog. Joining goes through the lobby's own sitting path, which
// asks the buy-in (`sit`).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { errorText } from "./errors.js";

/** Add a player as a friend; the toast says it, or why not (by its code). */
export async function addFriend(id, name, toast) {
  try {
    await api.addFriend(id);
    toast(t("friends.added", { name }), "ok");
    return true;
  } catch (err) {
    toast(errorText(err), "error");
    return false;
  }
}

/** Remove a player from the friend list; the toast says it, or why not. */
export async function removeFriend(id, name, toast) {
  try {
    await api.removeFriend(id);
    toast(t("friends.removed", { name }), "ok");
    return true;
  } catch (err) {
    toast(errorText(err), "error");
    return false;
  }
}

/** A modal card over the page, closed by its button, Escape or a tap outside. */
function modal(testid, ...children) {
  const box = h("dialog", { class: "account-dialog friend-dialog card", "data-testid": testid });
  const close = h("button", { class: "btn btn-ghost", type: "button", "data-action": "close",
    onclick: () => box.close() }, t("friends.close"));
  box.append(...children, h("div", { class: "row" }, close));
  box.addEventListener("close", () => box.remove());
  box.addEventListener("click", (e) => { if (e.target === box) box.close(); });
  document.body.append(box);
  box.showModal();
  return box;
}

/** What a seat plate's name opens: add this player as a friend, or see their profile. */
export function playerCard(player, toast) {
  const box = modal("player-card",
    h("h3", {}, player.name),
    h("div", { class: "row" },
      h("button", { class: "btn btn-primary", type: "button", "data-action": "add-friend",
        onclick: async () => { if (await addFriend(player.id, player.name, toast)) box.close(); } },
      t("friends.add")),
      h("a", { class: "btn", href: `#/p/${player.id}`, onclick: () => box.close() }, t("friends.profile"))));
}

/** The table's "Undang teman": the friends, each with a button that invites them here. */
export async function inviteDialog(tableId, toast) {
  let friends;
  try { friends = await api.friends(); } catch (err) { toast(errorText(err), "error"); return; }
  const list = friends.length
    ? h("ul", { class: "friend-list" }, friends.map((f) => h("li", { class: "friend", "data-friend": f.id },
      h("span", { class: `dot ${f.online ? "dot-on" : ""}`, "aria-hidden": "true" }),
      h("span", { class: "friend-name" }, f.name),
      h("button", { class: "btn btn-primary btn-small", type: "button", "data-action": "invite",
        onclick: async (e) => {
          try {
            await api.inviteFriend(f.id, tableId);
            e.target.disabled = true;
            e.target.textContent = t("friends.invited");
          } catch (err) { toast(errorText(err), "error"); }
        } }, t("friends.invite")))))
    : h("p", { class: "muted" }, t("friends.none"));
  modal("invite-friends", h("h3", {}, t("friends.invite_title")), list);
}

/** Where a friend is, in words: a table's game and stake, a private table, or nowhere. */
function whereText(f) {
  if (!f.table) return t(f.online ? "friends.online" : "friends.offline");
  if (f.table.private) return t("friends.at_private");
  const game = t(`game.${f.table.game}`);
  return f.table.stake ? t("friends.at_table_stake", { game, n: f.table.stake }) : t("friends.at_table", { game });
}

/**
 * The lobby's panel: `refresh()` reads the invites and the friends (the lobby calls it with its
 * lists); `sit(table)`: the lobby's sitting path (the buy-in dialog), `open(id)`: to a table.
 */
export function friendsPanel({ sit, open, toast }) {
  const node = h("section", { class: "card friends-card", "data-testid": "friends" });
  // the invites stand apart, at the top of the lobby, where a phone sees them without scrolling
  const invitesNode = h("ul", { class: "invites", role: "status", "data-testid": "invites" });
  let invites = [];
  let friends = null;

  async function join(table) {
    if (!table.open_seats) { open(table.id); return; } // full: watch it
    await sit(table);
  }

  async function accept(inv) {
    try { await join(await api.acceptInvite(inv.id)); } catch (err) { toast(errorText(err), "error"); }
    refresh();
  }

  async function dismiss(inv) {
    try { await api.declineInvite(inv.id); } catch { /* gone already */ }
    refresh();
  }

  function draw() {
    const inviteRows = invites.map((inv) => h("li", { class: "invite", "data-invite": inv.id },
      h("span", {}, t("friends.invite_from", { name: inv.name, game: t(`game.${inv.game}`) })),
      h("span", { class: "row" },
        h("button", { class: "btn btn-primary btn-small", type: "button", "data-action": "accept",
          onclick: () => accept(inv) }, t("friends.join")),
        h("button", { class: "btn btn-ghost btn-small", type: "button", "data-action": "dismiss",
          onclick: () => dismiss(inv) }, t("friends.dismiss")))));
    const rows = (friends || []).map((f) => h("li", { class: `friend ${f.online ? "is-online" : ""}`, "data-friend": f.id },
      h("span", { class: `dot ${f.online ? "dot-on" : ""}`, "aria-hidden": "true" }),
      h("a", { class: "friend-name", href: `#/p/${f.id}` }, f.name),
      h("span", { class: "friend-where muted" }, whereText(f)),
      f.table && !f.table.private ? h("button", { class: "btn btn-small", type: "button", "data-action": "join-friend",
        onclick: () => join(f.table) }, t(f.table.open_seats ? "friends.join" : "lobby.watch")) : null));
    invitesNode.replaceChildren(...inviteRows);
    invitesNode.hidden = !invites.length;
    node.replaceChildren(
      h("h3", {}, t("friends.title")),
      friends === null ? h("p", { class: "muted" }, "…")
        : rows.length ? h("ul", { class: "friend-list" }, rows) : h("p", { class: "muted" }, t("friends.none")));
  }

  async function refresh() {
    try {
      [invites, friends] = await Promise.all([api.invites(), api.friends()]);
    } catch { return; } // signed out or offline: the lobby says so
    draw();
  }

  draw();
  return { node, invites: invitesNode, refresh, rerender: draw };
}
