// The table page shared by all games: seats around the board, the player's hand at the bottom,
// legal moves, turn clock, connection banner, history, chat and the result panel. Each game's
// renderer draws its own board and names its own choices (static/js/games/index.js).
//
// The page keeps one store (store.js); every change marks the regions that show it, and each
// dirty region is drawn once on the next animation frame, in the order of `draw` below (the
// board last, so it measures its box after the plates and hand have taken their room).

import { h, s, clear, sameTile, slot } from "./dom.js";
import { t, fmt, count } from "./i18n.js";
import { tileSvg, backsSvg } from "./tiles.js";
import { TableSocket, tableSocketUrl } from "./socket.js";
import { describeEvent } from "./events.js";
import { api, refreshSession } from "./api.js";
import { codeText, errorText } from "./errors.js";
import { avatar } from "./avatars.js";
import { confirmLeave, leavesMidRound } from "./leave.js";
import { descriptor, loadCatalog } from "./catalog.js";
import { clockEl, countdownEl, sideEl, tickClocks } from "./panels.js";
import { createStore, regionScheduler } from "./store.js";
import { renderer } from "./games/index.js";
import { platePosition, relativeSeat } from "./seating.js";
import { cuesFor, isPlacement } from "./cues.js";
import { play } from "./sound.js";
import { placedTile, slideFrom } from "./motion.js";
import { BUBBLE_MS, QUICK_EMOTES } from "./quick.js";
import { copyInvite } from "./invite.js";
import { askBuyIn } from "./buy_in.js";
import { handFit, handRoom } from "./hand_fit.js";
import { explainRefusal } from "./short_chips.js";
import { playerCard, inviteDialog } from "./friends.js";

const MAX_LOG = 200; // = HISTORY in app/services/table/views.py: a reload shows the same lines
const MAX_CHAT = 100;
const FLASH_MS = 2600;
const PHONE = globalThis.matchMedia?.("(max-width: 700px)"); // as the stylesheet's phone layout

/** Which regions draw each key of the state (a key not named here: every region). */
const SHOWS = {
  msg: ["top"],
  view: ["layout", "top", "plates", "hand", "board", "result"],
  log: ["side", "board"],
  chat: ["side"],
  chatOpen: ["side", "top"],
  unread: ["side", "top"],
  chatError: ["side"],
  tab: ["side"],
  status: ["banner", "hand", "side"],
  online: ["plates"],
  bubbles: ["plates"],
  selected: ["hand", "board"],
  error: ["hand", "board", "banner", "result"],
  roundEvent: ["result"],
  resultHidden: ["result"],
  lastResult: ["side"],
  turnSeat: ["plates"],
  turnStart: ["plates"],
  flashes: ["plates"],
};

/**
 * `replay` (replay.js): {feed(handlers), controls, back} plays a finished match through the
 * same page: `feed` stands for the socket, `controls` is drawn where the banner goes.
 */
export function mountTable(root, { tableId, onLeave, onLeft, onChips, onStack, onAuthFail, toast, replay = null }) {
  const store = createStore({
    msg: null, view: null, table: null, log: [], chat: [], status: "connecting",
    selected: null, error: null, roundEvent: null, resultHidden: false, turnStart: 0,
    turnSeat: null, flashes: [], tab: "history", chatError: null, online: null, bubbles: [],
    gone: null, removed: null, removedIdle: false, lastResult: null, chatOpen: false, unread: 0,
  }, SHOWS);
  const st = store.state;
  let wasDown = false;
  let destroyed = false;
  let leaving = false; // we asked to leave: losing the seat then is no news
  const known = {}; // table seat -> the last name seen there, for the history of a freed seat

  const el = h("div", { class: "table-page", "data-table": tableId });
  const slots = { top: slot(), banner: slot(), felt: slot(), side: slot(), result: slot() };
  el.append(...Object.values(slots).map((x) => x.node));
  if (replay) el.append(replay.controls);
  root.append(el);
  let felt = { key: null }; // the felt drawn now: its mode and, in play, its parts

  let chatSent = false; // our last chat line is neither heard back nor refused yet
  let slides = []; // tiles placed since the board was last drawn: they slide in (motion.js)
  const sock = (replay ? replay.feed : (on) => new TableSocket(tableSocketUrl(tableId), on))({
    refresh: refreshSession,
    onStatus(status) {
      if (status === "reconnecting") wasDown = true;
      if (status === "open" && wasDown) {
        wasDown = false;
        store.set({ status: "back" });
        setTimeout(() => { if (st.status === "back") store.set({ status: "open" }); }, 2500);
      } else store.set({ status });
    },
    onState(msg) { receive(msg); },
    onError(msg) {
      if (msg.code === "stale") { sock.resync(); return; } // the table moved on: catch up
      // Refused on connect (no command): the table does not exist (or has gone). Retrying
      // cannot bring it back, so the page says so and offers the lobby.
      if (msg.cmd == null && (msg.code === "not_found" || msg.code === "table_closed")) {
        gone();
        return;
      }
      const text = codeText(msg.code, msg.retry_after);
      // A refusal with no command, while our chat line is unanswered, is the chat's (its rate
      // limit): shown under the chat, where the player looks, not as a refused move.
      if (msg.cmd == null && chatSent) { chatSent = false; store.set({ chatError: text }); return; }
      store.set({ error: text });
    },
    onAck() {},
    onAuthFail() { onAuthFail?.(); },
    onChat(msg) {
      if (msg.seat === st.table?.you) chatSent = false;
      if (msg.id && st.chat.some((m) => m.id === msg.id)) return; // also in the kept lines
      const mine = isSeat(msg.seat) && msg.seat === st.table?.you;
      const unread = chatShown() ? 0 : mine ? st.unread : st.unread + 1;
      store.set({ chat: [...st.chat, msg].slice(-MAX_CHAT), unread });
      if (msg.quick) bubble(msg);
    },
    /** The table's kept lines (on every connect): what was said before, or while away. */
    onChatLog(msg) {
      const kept = new Set(msg.lines.map((m) => m.id));
      const newer = st.chat.filter((m) => !kept.has(m.id) && m.ts > (msg.lines.at(-1)?.ts ?? 0));
      store.set({ chat: [...msg.lines, ...newer].slice(-MAX_CHAT) });
    },
    onPresence(msg) { store.set({ online: msg.online }); },
  });

  /** A quick line over its sender's plate, for a few seconds. */
  function bubble(msg) {
    const b = { seat: msg.seat, text: t(`quick.${msg.quick}`), emote: QUICK_EMOTES.includes(msg.quick) };
    store.set({ bubbles: [...st.bubbles.filter((x) => x.seat !== msg.seat), b] });
    setTimeout(() => store.set({ bubbles: st.bubbles.filter((x) => x !== b) }), BUBBLE_MS);
  }

  /** The chat is on the screen: its tab, and on a phone its sheet opened over the table. */
  function chatShown() { return st.tab === "chat" && (!PHONE?.matches || st.chatOpen); }

  /** A phone's chat: a sheet over the hand, the board above it still in view. */
  function toggleChat() {
    store.set(st.chatOpen ? { chatOpen: false } : { chatOpen: true, tab: "chat", unread: 0 });
  }

  /** The connection is down: moves and chat would be lost, so the page takes none. */
  function offline() { return st.status !== "open" && st.status !== "back"; }

  function isPlayer() { return st.table?.you !== null && st.table?.you !== undefined; }

  function gone() {
    sock.close();
    store.set({ gone: true, status: "closed" });
  }

  function isSeat(n) { return n !== null && n !== undefined; }
  /** Between two rounds (O-6): the table's pause, with its end and who asked to go on. */
  function pause() { return st.table?.pause || null; }
  function isMyTurn() { return !!st.view && st.view.to_act === st.view.seat && !isOver() && !pause(); }

  function gameName() { return st.view?.game || st.table?.game || null; }
  function game() { return renderer(st.view?.game); }
  function mySeat() { return st.view ? st.view.seat : null; }
  function isOver() { return !!st.view?.over; }
  /** Played for chips (the descriptor says): one state per round, the table goes on. */
  function chips() { return !!descriptor(gameName())?.chips; }

  /** The table seat of a game seat (a chips round may deal to fewer seats than the table has). */
  function tseat(gs) {
    const players = st.table?.players;
    return players && players.length && st.view ? players[gs] : gs;
  }
  function seatInfo(gs) { return st.table?.seats?.[tseat(gs)] || {}; }

  function tableSeatName(n) {
    if (n === st.table?.you && n !== null && n !== undefined) return t("table.you");
    const info = st.table?.seats?.[n];
    if (info?.name) return info.name;
    if (info?.bot) return t("table.bot");
    if (n === st.removed) return t("table.you"); // our own moves, from before the seat was freed
    if (known[n]) return known[n];
    return t("table.seat", { n: n + 1 });
  }

  function seatName(seat) {
    if (seat === null || seat === undefined) return "";
    if (st.view && seat === mySeat()) return t("table.you");
    return tableSeatName(tseat(seat));
  }

  /**
   * A state message. The page's own log holds the events: the recent ones the server sends with
   * the first state (or, from a server that still sends them, the view's `last_events`), then
   * every message's. History is only logged; live events also flash and open the result panel.
   * A `gap` message (the missed events are gone) that brings recent events starts the log anew.
   * A state no newer than the one shown (a `sync` answer that crossed the live state of the same
   * version on the way) adds no events: the log has them already.
   */
  function receive(msg) {
    const first = st.msg === null;
    const view = msg.view || st.view;
    const known = !first && !msg.gap && msg.v <= st.msg.v;
    const events = known ? [] : msg.events || [];
    const live = !first && !msg.gap;
    let log = msg.gap && events.length ? [] : st.log;
    if (first && !events.length && view?.last_events) log = view.last_events;
    const patch = { msg, view, log: [...log, ...events].slice(-MAX_LOG), selected: null, error: null };
    if (msg.table) {
      patch.table = msg.table;
      onStack?.(msg.table.seats?.[msg.table.you]?.stack ?? null); // the header shows it live
      if (msg.table.status === "closed") { patch.gone = true; sock.close(); }
      noteSeat(msg.table, events, patch);
    }
    if (live) {
      for (const cue of cuesFor({ events, before: st.view, after: view, replay: !!replay })) play(cue);
      slides = [...slides, ...events.filter(isPlacement)];
    }
    let { flashes, roundEvent, resultHidden, lastResult } = st;
    if (msg.gap) roundEvent = null; // the log starts anew: an earlier round's panel is gone
    for (const ev of live ? events : []) flashes = [...flashes, ...flashesFor(ev)];
    const latest = patch.log.findLast((e) => e.type === "round_over");
    if (latest) roundEvent = latest;
    // A round's end (a pause begins, or the match or chips round is over): its result opens,
    // and stays readable in the side panel after the next round is dealt.
    const table = patch.table || st.table;
    const ended = !!view && (!!table?.pause || view.over);
    if (ended && (lastResult?.ev !== roundEvent || lastResult?.over !== view.over)) {
      lastResult = { view, ev: roundEvent, over: view.over };
      resultHidden = false;
    }
    // Without a server deadline (bots), a turn's clock counts from when the turn reached us.
    if (view && (st.turnSeat !== view.to_act || events.length)) {
      patch.turnSeat = view.to_act;
      patch.turnStart = Date.now();
    }
    store.set({ ...patch, flashes, roundEvent, resultHidden, lastResult });
    if (live && events.some((e) => e.type === "lewat" || e.type === "round_over")) onChips?.();
  }

  /**
   * Names seen at each seat, and whether the table freed ours without us leaving: away at the
   * end of a match (O-3, turns timed out), or idle while no match of ours was played.
   */
  function noteSeat(table, events, patch) {
    for (const x of table.seats || []) if (x.name) known[x.seat] = x.name;
    const was = st.table?.you;
    if (isSeat(table.you)) {
      patch.removed = null;
    } else if (isSeat(was) && !leaving) {
      patch.removed = was;
      patch.removedIdle = events.some((e) => e.type === "removed" && e.table_seat === was);
    }
  }

  /** Sit again after the seat was freed: the same seat when it is still free, else any, with
   * the buy-in asked as every sit does (buy_in.js). */
  function sitAgain() {
    const seats = st.table?.seats || [];
    const free = (n) => seats[n] && !seats[n].name && !seats[n].bot;
    const n = free(st.removed) ? st.removed : seats.findIndex((x, i) => free(i));
    if (n < 0) return store.set({ error: t("table.removed.full") });
    return rest(() => sitAt(n));
  }

  /** The chip movements of an event, as short-lived numbers over the seats they touch. */
  function flashesFor(ev) {
    const out = [];
    const add = (seat, text, cls) => out.push({ seat, text, cls });
    if (ev.type === "lewat") {
      add(ev.payer, `${t("table.pass")} −${fmt(ev.amount)}`, "flash-lose");
      add(ev.payee, `+${fmt(ev.amount)}`, "flash-win");
    } else if (ev.type === "round_over" && Array.isArray(ev.payments)) {
      for (const p of ev.payments) if (p.kind === "settlement") add(p.payer, `−${fmt(p.amount)}`, "flash-lose");
    }
    for (const f of out) {
      setTimeout(() => store.set({ flashes: st.flashes.filter((x) => x !== f) }), FLASH_MS + 100);
    }
    return out;
  }

  // ---- moves ------------------------------------------------------------------------------
  function legal() { return st.view?.legal || []; }
  /** The plays of a tile, one per different board they lead to (the game may merge alike ones). */
  function tileActions(tile) {
    const acts = legal().filter((a) => a.tile && sameTile(a.tile, tile));
    return acts.length > 1 && game().choices ? game().choices(acts, st.view) : acts;
  }

  function send(action) {
    if (!sock.isOpen) return;
    store.set({ selected: null });
    sock.act(action);
  }

  function clickTile(tile) {
    const acts = tileActions(tile);
    if (!acts.length) return;
    if (acts.length === 1) return send(acts[0]);
    store.set({ selected: tile });
  }

  const ctx = {
    t, fmt, seatName, tableSeatName, send, mySeat, tileActions, chips,
    game: gameName,
    myTableSeat() { return st.table?.you ?? null; },
    /** Whether a game seat is the viewer's (a round's end may show it the spectator's view). */
    isMe(gs) { return isSeat(gs) && isSeat(st.table?.you) && tseat(gs) === st.table.you; },
    get selected() { return st.selected; },
    /** The page's event log, oldest first (the newest tile played is marked from it). */
    get log() { return st.log; },
    choose(action) { send(action); },
  };

  async function rest(fn) {
    try {
      await fn();
      store.set({ error: null });
    } catch (err) {
      if (!(await explainRefusal(err, errorText))) store.set({ error: errorText(err) });
    }
  }

  /** "Keluar meja": asked first mid-round (leave.js); then the lobby, where the app shows the
   * chips of a chips table coming back to the wallet (`onLeft`). */
  async function leave() {
    const table = st.table;
    const you = table.you;
    const midRound = leavesMidRound(table);
    const stack = table.seats?.[you]?.stack ?? null;
    if (midRound && !(await confirmLeave({ chips: stack !== null, stack }))) return;
    leaving = true;
    await api.leave(tableId, you);
    if (stack !== null) onLeft?.({ name: table.name, midRound });
    onLeave?.();
  }

  // ---- regions ----------------------------------------------------------------------------
  function topBar() {
    const you = st.table?.you;
    const name = gameName();
    return h("div", { class: "table-top" },
      h("button", { class: "btn btn-ghost", type: "button", onclick: () => onLeave?.() },
        `← ${t(replay ? replay.back : "nav.lobby")}`),
      you !== null && you !== undefined && !replay
        ? h("button", { class: "btn btn-ghost", type: "button", "data-action": "leave",
          onclick: () => rest(leave), "aria-label": t("nav.leave") },
        // a phone says "Keluar" alone: the table's name beside it stays whole
        h("span", { class: "chips-long" }, t("nav.leave")), h("span", { class: "chips-short" }, t("nav.leave.short")))
        : null,
      // a phone shows the table's name whole, without the game's (the board shows which)
      h("h2", { "data-table-name": st.table?.name || "" },
        name ? h("span", { class: "chips-long" }, t("table.title", { game: t(`game.${name}`), name: st.table?.name || "…" })) : null,
        h("span", { class: name ? "chips-short" : "" }, t("table.title_only", { name: st.table?.name || "…" }))),
      replay ? null : h("button", { // a phone's way to the chat (the side panel is below the felt)
        class: "btn btn-ghost chat-toggle", type: "button", "data-action": "chat",
        "aria-expanded": st.chatOpen ? "true" : "false", "aria-label": t("table.chat"), onclick: toggleChat,
      }, chatIcon(),
      st.unread ? h("span", { class: "unread", "data-testid": "unread" }, unreadText()) : null),
      h("div", { class: "table-info" },
        st.view ? h("span", { class: "table-sub" }, game().subtitle?.(st.view, ctx) || "") : null,
        name ? h("a", { class: "table-link", href: `#/rules/${name}`, "data-action": "rules",
          "aria-label": t("rules.link"), title: t("rules.link") }, // a phone shows "?" alone
        h("span", { class: "chips-long" }, t("rules.link")),
        h("span", { class: "chips-short", "aria-hidden": "true" }, "?")) : null,
        you !== null && you !== undefined && !replay ? h("button", { class: "table-link", type: "button",
          "data-action": "invite-friends", onclick: () => inviteDialog(tableId, toast) },
        t("friends.invite_title")) : null,
        st.table?.code ? h("button", { class: "table-link", type: "button", "data-action": "invite",
          onclick: () => copyInvite(st.table.code, toast) }, t("table.invite", { code: st.table.code })) : null));
  }

  function banner() {
    if (replay) return null; // its controls stand there
    const map = {
      connecting: ["conn.connecting", "info"], reconnecting: ["conn.reconnecting", "warn"],
      back: ["conn.back", "ok"],
    };
    const entry = map[st.status];
    if (entry) {
      return h("div", { class: `banner banner-${entry[1]}`, role: "status", "data-status": st.status },
        t(entry[0], { n: sock.attempt || 1 }));
    }
    if (st.gone) return null;
    if (isSeat(st.removed) && st.table && !isSeat(st.table.you)) {
      return h("div", { class: "banner banner-warn removed", role: "alert", "data-status": "removed" },
        h("p", {}, t(st.removedIdle ? "table.removed.idle" : "table.removed")),
        h("div", { class: "removed-actions" },
          h("button", { class: "btn btn-primary", type: "button", "data-action": "sit-again",
            onclick: sitAgain }, t("table.removed.sit")),
          h("button", { class: "btn", type: "button", onclick: () => onLeave?.() }, t("nav.lobby"))),
        st.error ? h("p", { class: "refused" }, st.error) : null);
    }
    if (st.table && (st.table.you === null || st.table.you === undefined)) {
      return h("div", { class: "banner banner-info", "data-status": "spectating" }, t("table.spectating"));
    }
    return null;
  }

  /** The felt's mode: nothing yet, a table waiting for players, or a game and its seats. */
  function layout() {
    const v = st.view;
    const n = v?.hand_counts?.length || 0;
    const key = st.gone ? "gone" : v ? `play:${v.game}:${n}` : st.table ? "waiting" : "none";
    if (key === felt.key) return;
    if (key === "gone") {
      felt = { key, el: h("div", { class: "felt waiting" }, h("div", { class: "waiting-box gone", role: "alert" },
        h("h3", {}, t("table.gone.title")), h("p", {}, t("table.gone")),
        h("button", { class: "btn btn-primary", type: "button", "data-action": "lobby",
          onclick: () => onLeave?.() }, t("table.gone.lobby")))) };
      slots.felt.set(felt.el);
    } else if (key === "none") {
      felt = { key };
      slots.felt.set(null);
    } else if (key === "waiting") {
      felt = { key, el: h("div", { class: "felt waiting" }) };
      slots.felt.set(felt.el);
    } else {
      const seats = {};
      for (const at of ["top", "left", "right", "bottom"]) seats[at] = h("div", { class: `seats seats-${at}` });
      const hand = slot();
      const board = h("div", { class: "board" });
      felt = { key, seats, hand, board };
      felt.el = h("div", { class: `felt game-${v.game} seats-${n}` },
        seats.top, seats.left, board, seats.right, seats.bottom, hand.node);
      slots.felt.set(felt.el);
    }
    draw.mark(["plates", "hand", "board"]);
  }

  function clockFor(seat) {
    if (!st.view || st.view.to_act !== seat || isOver() || pause() || replay) return null;
    const limit = st.table?.turn_seconds || 20;
    return clockEl(st.table?.deadline || st.turnStart + limit * 1000, limit);
  }

  function plate(seat, at) {
    const v = boardView(); // in a pause: as the round ended
    const info = seatInfo(seat);
    const extra = game().seatInfo(v, seat, ctx);
    const flags = [];
    if (info.bot) flags.push(h("span", { class: "tag" }, t("table.bot")));
    if (info.away) flags.push(h("span", { class: "tag tag-warn" }, t("table.away")));
    const tiles = v.hand_counts ? v.hand_counts[seat] : null;
    if (st.online && info.player_id != null && !info.bot && !st.online.includes(info.player_id)) {
      flags.push(h("span", { class: "tag tag-warn tag-off", "data-flag": "disconnected" }, t("table.disconnected")));
    }
    const said = st.bubbles.find((b) => b.seat === tseat(seat));
    return h("div", {
      class: `plate pos-${at} ${v.to_act === seat && !isOver() && !pause() ? "active" : ""} ${extra.cls || ""}`,
      "data-seat": seat,
    },
      h("div", { class: "plate-head" },
        avatar(info.avatar, 22), plateName(seat, info), ...flags, clockFor(seat)),
      // every hand but the viewer's own shows its backs (a spectator sees all of them)
      seat !== mySeat() && tiles !== null ? h("div", { class: "plate-backs" }, backsSvg(tiles),
        h("span", { class: "plate-count" }, count("table.tiles", tiles))) : null,
      h("div", { class: "plate-lines" }, (extra.lines || []).map((x) => h("div", {}, x))),
      st.flashes.filter((f) => f.seat === seat).map((f, i) => h("div", {
        class: `flash ${f.cls}`, style: `--i: ${i}`,
      }, f.text)),
      said ? h("div", { class: `bubble ${said.emote ? "bubble-emote" : ""}`, "data-bubble": seat }, said.text) : null);
  }

  /** Another human's name is a button: their card, to add them as a friend (friends.js). */
  function nameOf(label, info, mine, cls = "") {
    if (replay || mine || info.bot || info.player_id == null) return h("span", { class: cls }, label);
    return h("button", { class: `${cls} name-btn`, type: "button", "data-action": "player",
      onclick: () => playerCard({ id: info.player_id, name: label }, toast) }, label);
  }

  function plateName(seat, info) { return nameOf(seatName(seat), info, seat === mySeat(), "plate-name"); }

  function plates() {
    if (!felt.seats) return;
    const n = st.view.hand_counts?.length || 0;
    for (const box of Object.values(felt.seats)) clear(box);
    for (let seat = 0; seat < n; seat++) {
      const rel = relativeSeat(seat, mySeat(), n);
      const at = platePosition(rel, n, !PHONE?.matches);
      felt.seats[at].append(plate(seat, at));
    }
  }

  function handArea() {
    const v = boardView();
    if (!v.hand) return null;
    const off = offline();
    const myTurn = isMyTurn();
    const highlight = game().highlightOf?.(v, ctx) || null;
    const someTile = legal().some((a) => a.tile);
    const tiles = v.hand.map((tile) => {
      const acts = tileActions(tile);
      const cls = ["hand-tile", acts.length ? "legal" : myTurn && someTile ? "dim" : "",
        st.selected && sameTile(st.selected, tile) ? "selected" : "",
        highlight && highlight.some((x) => sameTile(x, tile)) ? "fresh" : ""].join(" ");
      return h("button", {
        class: cls, type: "button", "data-tile": `${tile[0]}-${tile[1]}`,
        disabled: acts.length && !off ? null : true, "aria-label": `${tile[0]}|${tile[1]}`,
        onclick: () => clickTile(tile),
      }, tileSvg(tile[0], tile[1]));
    });
    const buttons = legal().filter((a) => !a.tile).map((a) => h("button", {
      class: `btn act act-${a.kind}`, type: "button", "data-kind": a.kind,
      "data-value": a.value ?? a.suit ?? "", disabled: off || null, onclick: () => send(a),
    }, game().actionLabel(a, ctx)));
    let choice = null;
    if (st.selected) {
      const acts = tileActions(st.selected);
      choice = h("div", { class: "choice", role: "group" },
        h("span", { class: "choice-q" }, game().choiceQuestion(acts, ctx)),
        acts.map((a) => h("button", {
          class: "btn choice-btn", type: "button", "data-choice": game().choiceKey(a),
          disabled: off || null, onclick: () => send(a),
        }, game().choiceLabel(a, ctx))),
        h("button", { class: "btn btn-ghost", type: "button", onclick: () => store.set({ selected: null }) },
          t("table.cancel")));
    }
    const status = pause() ? t("result.between")
      : myTurn ? t("table.your_turn")
        : v.to_act === null || v.to_act === undefined ? "" : t("table.turn_of", { name: seatName(v.to_act) });
    return h("div", { class: `hand-area ${myTurn ? "my-turn" : ""} ${off ? "offline" : ""}` },
      h("div", { class: "hand-bar" },
        h("span", { class: "turn-status", "data-my-turn": myTurn ? "1" : "0" }, status),
        game().handNote?.(v, ctx),
        off && myTurn ? h("span", { class: "offline-note", role: "status" }, t("table.offline_hint")) : null,
        buttons),
      choice,
      st.error ? h("div", { class: "refused", role: "alert" }, t("table.refused", { msg: st.error })) : null,
      h("div", { class: "hand", "aria-label": t("table.your_hand") }, tiles));
  }

  /** The hand's tiles as big as its room lets them be (hand_fit.js): never below the fold. */
  function fitHand() {
    const hand = felt.el?.querySelector(".hand");
    if (!hand) return;
    const cs = getComputedStyle(hand);
    const max = parseFloat(cs.getPropertyValue("--tile-max")) || 46;
    const gap = parseFloat(cs.columnGap) || 6;
    const fit = handFit(hand.children.length, hand.clientWidth, handRoom(felt.el.clientHeight, max), { max, gap });
    hand.style.setProperty("--tile-w", `${fit.tile}px`);
  }

  /** Take seat n; at a chips table with the chips the player chooses to bring. */
  async function sitAt(n) {
    const catalog = await loadCatalog();
    const buyIn = chips() ? await askBuyIn(st.table.stake, catalog.buy_in) : null;
    if (chips() && buyIn === null) return;
    await api.sit(tableId, n, buyIn);
    onChips?.();
  }

  function waiting() {
    const tb = st.table, you = tb.you;
    const free = tb.seats.some((x) => !x.name && !x.bot);
    const start = tb.clock?.kind === "start" ? tb.clock.at : null; // O-5: the start countdown
    return h("div", { class: "waiting-box" },
      h("h3", {}, t("table.waiting")),
      start ? h("p", { class: "start-countdown", "data-testid": "countdown" },
        countdownEl(start, "table.starts_in")) : null,
      h("ul", { class: "seat-list" }, tb.seats.map((x, n) => h("li", { "data-seat": n },
        nameOf(tableSeatName(n), x, n === you), x.bot ? h("span", { class: "tag" }, t("table.bot")) : null,
        !x.name && !x.bot ? h("span", { class: "tag" }, t("lobby.empty_seat")) : null,
        !x.name && !x.bot && (you === null || you === undefined)
          ? h("button", { class: "btn", type: "button", "data-action": "sit",
            onclick: () => rest(() => sitAt(n)) }, t("lobby.sit")) : null))),
      you !== null && you !== undefined && free
        ? h("button", { class: "btn btn-primary", type: "button", "data-action": "bots",
          onclick: () => rest(() => api.addBots(tableId)) }, t("table.add_bots")) : null,
      st.error ? h("p", { class: "refused" }, st.error) : null);
  }

  /**
   * The board to draw: in the pause before the next round (O-6) the finished round's, kept in
   * its round_over event (Moon, Cross and Mexican Train deal the next round at once), so it
   * can be studied until the next round starts.
   */
  function boardView() {
    const ev = st.roundEvent;
    if (!pause() || !ev?.board || isOver()) return st.view;
    // the hands as they ended too: Cross and Mexican Train show them (O-2), Moon's are played out
    const hands = ev.hands || [];
    return {
      ...st.view, ...ev.board, must_cover: null, drawn: null,
      hand: st.view.hand ? hands[mySeat()] || [] : null,
      hand_counts: st.view.hand_counts?.map((_, i) => hands[i]?.length ?? 0),
    };
  }

  function board() {
    if (felt.key === "waiting") {
      clear(felt.el).append(waiting());
    } else if (felt.board) {
      clear(felt.board).append(game().board(boardView(), ctx, felt.board));
      for (const ev of slides) {
        slideFrom(placedTile(felt.board, ev.tile), felt.el.querySelector(`.plate[data-seat="${ev.seat}"]`));
      }
      slides = [];
    }
  }

  /** A speech bubble (drawn, not an emoji: a phone may lack the emoji font). */
  function chatIcon() {
    return s("svg", { class: "chat-icon", viewBox: "0 0 24 24", "aria-hidden": "true" },
      s("path", { d: "M4 5h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H10l-5 4v-4H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1z" }));
  }

  function unreadText() { return st.unread > 99 ? "99+" : String(st.unread); }

  function chatName(m) {
    const you = st.table?.you;
    if (typeof m.seat === "number" && m.seat === you) return `${t("table.you")}:`;
    return `${m.name || tableSeatName(m.seat)}:`;
  }

  /** History and chat; a chat line being typed survives the panel being drawn again. */
  function side() {
    const input = el.querySelector(".chat-form input");
    const focused = !!input && document.activeElement === input;
    const draft = input?.value || "";
    slots.side.set(st.view || st.table ? sideEl({
      tab: st.tab, log: st.log, chat: st.chat, describe: (ev) => describeEvent(ev, ctx),
      chatName, chatError: st.chatError,
      onTab: (k) => store.set(k === "chat" ? { tab: k, unread: 0 } : { tab: k }),
      unread: st.unread ? unreadText() : null,
      onClose: st.chatOpen ? () => store.set({ chatOpen: false }) : null,
      onChat: replay ? null : (text) => { chatSent = true; store.set({ chatError: null }); sock.chat(text); },
      onQuick: isPlayer() && !replay ? (id) => { chatSent = true; store.set({ chatError: null }); sock.quick(id); } : null,
      offline: offline(),
      result: st.lastResult && (() => game().result(st.lastResult.view, ctx, st.lastResult.ev)),
    }) : null);
    el.classList.toggle("chat-open", st.chatOpen);
    const next = el.querySelector(".chat-form input");
    if (next) { next.value = draft; if (focused) next.focus(); }
  }

  /**
   * The result of the round (or match) that just ended. It shows only while nobody can move: in
   * the pause before the next round (O-6), with its countdown and "next round now", or once the
   * match (a chips round with no next one) is over. It never stays over a round being played,
   * nor over the news that our seat was freed: the side panel's result tab keeps it readable.
   */
  function resultPanel() {
    const v = st.view, p = pause(), you = st.table?.you;
    if (!v || st.gone || st.resultHidden || isSeat(st.removed) || !(p || isOver())) return null;
    let foot;
    if (replay) foot = []; // a replay asks for no next round and no rematch
    else if (p) {
      const ready = isSeat(you) && p.ready.includes(you);
      foot = [countdownEl(p.until, "result.next_in"),
        isSeat(you) ? h("button", {
          class: "btn btn-primary", type: "button", "data-action": "ready", disabled: ready || null,
          onclick: () => send({ kind: "ready" }),
        }, t(ready ? "result.waiting_others" : "result.next_now")) : null];
    } else if (!chips()) {
      foot = [isSeat(you) ? h("button", { class: "btn btn-primary", type: "button", "data-action": "rematch",
        onclick: () => rest(() => api.rematch(tableId)) }, t("table.rematch")) : null];
    } else foot = [h("p", { class: "muted", "data-testid": "no-next" }, t("result.no_next"))];
    // in a pause it stands beside the board (docked), not over it: the board is the round's end
    return h("div", { class: `result-wrap ${p ? "docked" : ""}` },
      h("section", {
        class: "result", "data-testid": "result", role: "dialog",
        "data-kind": v.over ? "over" : "round",
      },
      game().result(v, ctx, st.roundEvent),
      st.error ? h("p", { class: "refused", role: "alert" }, st.error) : null,
      h("div", { class: "result-foot" }, ...foot,
        h("button", { class: "btn", type: "button", "data-action": "close-result",
          onclick: () => store.set({ resultHidden: true }) }, t("result.close")))));
  }

  const draw = regionScheduler({
    layout,
    top() {
      slots.top.set(topBar());
      const v = st.view;
      if (!v) return;
      el.dataset.myTurn = isMyTurn() ? "1" : "0";
      el.dataset.over = isOver() ? "1" : "0";
      el.dataset.v = st.msg?.v ?? "";
    },
    banner() { slots.banner.set(banner()); },
    plates,
    hand() { felt.hand?.set(handArea()); fitHand(); },
    side,
    result() { slots.result.set(resultPanel()); },
    board,
  });
  store.subscribe(draw.mark);

  const ticker = setInterval(() => tickClocks(el), 250);
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(() => store.touch("plates", "hand", "board"), 120); };
  window.addEventListener("resize", onResize);

  function destroy() {
    destroyed = true;
    draw.stop();
    clearInterval(ticker);
    window.removeEventListener("resize", onResize);
    sock.close();
    el.remove();
  }

  draw.mark(null);
  // The descriptors say which games are played for chips; without them the page still plays.
  loadCatalog().catch(() => null).finally(() => { if (!destroyed) sock.connect(); });
  // A handle for tests and debugging: the page's socket, latest view, table and event log.
  window.meja = window.meja || {};
  window.meja.socket = sock;
  Object.defineProperty(window.meja, "view", { get: () => st.view, configurable: true });
  Object.defineProperty(window.meja, "table", { get: () => st.table, configurable: true });
  Object.defineProperty(window.meja, "log", { get: () => st.log, configurable: true });
  return { destroy, rerender: () => draw.mark(null) };
}
