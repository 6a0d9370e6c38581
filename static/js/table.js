// The table page shared by all four games: seats around the board, the player's hand at the
// bottom, legal moves, turn clock, connection banner, history, chat and the result panel.
// Each game module draws its own board and names its own choices (static/js/games/*.js).

import { h, clear, sameTile } from "./dom.js";
import { t, fmt } from "./i18n.js";
import { tileSvg, backsSvg } from "./tiles.js";
import { TableSocket, tableSocketUrl } from "./socket.js";
import { describeEvent } from "./events.js";
import { api } from "./api.js";
import { clockEl, sideEl, tickClocks } from "./panels.js";
import gaple from "./games/gaple.js";
import cross from "./games/cross.js";
import mexicanTrain from "./games/mexican_train.js";
import moon from "./games/moon.js";

const GAMES = { gaple, cross, mexican_train: mexicanTrain, moon };
const MAX_LOG = 200;
const MAX_CHAT = 100;
const ROUND_PANEL_MS = 15000;

/** Where seat plates sit around the board, by seats counted clockwise from the viewer. */
function position(rel, n) {
  if (rel === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return rel === 1 ? "left" : "right";
  if (n === 4) return ["bottom", "left", "top", "right"][rel];
  return "top";
}

export function mountTable(root, { tableId, token, onLeave, onChips, onAuthFail }) {
  const st = {
    msg: null, view: null, table: null, log: [], chat: [], status: "connecting",
    selected: null, error: null, resultHidden: false, turnStart: 0, turnSeat: null,
    flashes: [], tab: "history", wasDown: false,
  };
  const el = h("div", { class: "table-page", "data-table": tableId });
  root.append(el);

  const sock = new TableSocket(tableSocketUrl(tableId, token), {
    onStatus(status) {
      if (status === "reconnecting") st.wasDown = true;
      if (status === "open" && st.wasDown) {
        st.wasDown = false;
        st.status = "back";
        setTimeout(() => { if (st.status === "back") { st.status = "open"; render(); } }, 2500);
      } else st.status = status;
      render();
    },
    onState(msg) { receive(msg); },
    onError(msg) {
      if (msg.code === "stale") { sock.resync(); return; } // the table moved on: catch up
      st.error = msg.message || msg.code;
      render();
    },
    onAck() {},
    onAuthFail() { onAuthFail?.(); },
    onChat(msg) { st.chat.push(msg); st.chat = st.chat.slice(-MAX_CHAT); render(); },
  });

  function game() { return GAMES[st.view?.game] || gaple; }
  function mySeat() { return st.view ? st.view.seat : null; }

  /** The table seat of a game seat (a Gaple round may deal to fewer seats than the table has). */
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
    return t("table.seat", { n: n + 1 });
  }

  function seatName(seat) {
    if (seat === null || seat === undefined) return "";
    if (st.view && seat === mySeat()) return t("table.you");
    return tableSeatName(tseat(seat));
  }

  function receive(msg) {
    const first = !st.view;
    st.msg = msg;
    st.view = msg.view || st.view;
    if (msg.table) st.table = msg.table;
    const events = msg.events || [];
    if (first && !events.length && st.view?.last_events) st.log.push(...st.view.last_events);
    st.log.push(...events);
    st.log = st.log.slice(-MAX_LOG);
    for (const ev of events) {
      if (!first) flashFor(ev);
      if (ev.type === "round_over") {
        st.roundEvent = ev;
        st.resultHidden = false;
        if (st.view?.game !== "gaple") { // the next round is already on: let the panel go
          clearTimeout(st.roundTimer);
          st.roundTimer = setTimeout(() => {
            if (st.roundEvent === ev && !isOver()) { st.resultHidden = true; render(); }
          }, ROUND_PANEL_MS);
        }
      }
    }
    // Without a server deadline (bots), a turn's clock counts from when the turn reached us.
    if (st.view && (st.turnSeat !== st.view.to_act || events.length)) {
      st.turnSeat = st.view.to_act;
      st.turnStart = Date.now();
    }
    if (st.view?.game === "gaple" && !st.view.over && st.roundEvent) {
      st.roundEvent = null;
      st.resultHidden = false;
    }
    st.selected = null;
    st.error = null;
    if (events.some((e) => e.type === "lewat" || e.type === "round_over")) onChips?.();
    render();
  }

  function isOver() { return !!st.view?.over; }

  function flashFor(ev) {
    const add = (seat, text, cls) => {
      const f = { seat, text, cls, until: Date.now() + 2600 };
      st.flashes.push(f);
      setTimeout(() => { st.flashes = st.flashes.filter((x) => x !== f); render(); }, 2700);
    };
    if (ev.type === "lewat") {
      add(ev.payer, `${t("table.pass")} −${fmt(ev.amount)}`, "flash-lose");
      add(ev.payee, `+${fmt(ev.amount)}`, "flash-win");
    } else if (ev.type === "round_over" && Array.isArray(ev.payments)) {
      for (const p of ev.payments) if (p.kind === "settlement") add(p.payer, `−${fmt(p.amount)}`, "flash-lose");
    }
  }

  // ---- moves ------------------------------------------------------------------------------
  function legal() { return st.view?.legal || []; }
  function tileActions(tile) { return legal().filter((a) => a.tile && sameTile(a.tile, tile)); }

  function send(action) {
    if (!sock.isOpen) return;
    st.selected = null;
    sock.act(action);
    render();
  }

  function clickTile(tile) {
    const acts = tileActions(tile);
    if (!acts.length) return;
    if (acts.length === 1) return send(acts[0]);
    st.selected = tile;
    render();
  }

  const ctx = {
    t, fmt, seatName, tableSeatName, send, mySeat,
    get selected() { return st.selected; },
    choose(action) { send(action); },
    tileActions,
  };

  // ---- rendering ---------------------------------------------------------------------------
  function banner() {
    const map = {
      connecting: ["conn.connecting", "info"], reconnecting: ["conn.reconnecting", "warn"],
      back: ["conn.back", "ok"],
    };
    const entry = map[st.status];
    if (entry) {
      return h("div", { class: `banner banner-${entry[1]}`, role: "status", "data-status": st.status },
        t(entry[0], { n: sock.attempt || 1 }));
    }
    if (st.table && (st.table.you === null || st.table.you === undefined)) {
      return h("div", { class: "banner banner-info", "data-status": "spectating" }, t("table.spectating"));
    }
    return null;
  }

  function clockFor(seat) {
    if (!st.view || st.view.to_act !== seat || isOver()) return null;
    const limit = st.table?.turn_seconds || 20;
    return clockEl(st.table?.deadline || st.turnStart + limit * 1000, limit);
  }

  function plate(seat) {
    const v = st.view, n = v.hand_counts?.length || st.table?.seats?.length || 0;
    const me = mySeat();
    const rel = (seat - (me ?? 0) + n) % n;
    const info = seatInfo(seat);
    const extra = game().seatInfo(v, seat, ctx);
    const flags = [];
    if (info.bot) flags.push(h("span", { class: "tag" }, t("table.bot")));
    if (info.away) flags.push(h("span", { class: "tag tag-warn" }, t("table.away")));
    if (info.connected === false && !info.bot) flags.push(h("span", { class: "tag tag-warn" }, t("table.offline")));
    const count = v.hand_counts ? v.hand_counts[seat] : null;
    return h("div", {
      class: `plate pos-${position(rel, n)} ${v.to_act === seat && !isOver() ? "active" : ""} ${extra.cls || ""}`,
      "data-seat": seat,
    },
      h("div", { class: "plate-head" },
        h("span", { class: "plate-name" }, seatName(seat)), ...flags, clockFor(seat)),
      rel !== 0 && count !== null ? h("div", { class: "plate-backs" }, backsSvg(count),
        h("span", { class: "plate-count" }, t("table.tiles", { n: count }))) : null,
      h("div", { class: "plate-lines" }, (extra.lines || []).map((x) => h("div", {}, x))),
      st.flashes.filter((f) => f.seat === seat).map((f, i) => h("div", {
        class: `flash ${f.cls}`, style: `top: ${-0.4 - 1.7 * i}rem`,
      }, f.text)));
  }

  function handArea() {
    const v = st.view;
    if (!v.hand) return null;
    const myTurn = v.to_act === v.seat && !isOver();
    const highlight = game().highlightOf?.(v, ctx) || null;
    const someTile = legal().some((a) => a.tile);
    const tiles = v.hand.map((tile) => {
      const acts = tileActions(tile);
      const cls = ["hand-tile", acts.length ? "legal" : myTurn && someTile ? "dim" : "",
        st.selected && sameTile(st.selected, tile) ? "selected" : "",
        highlight && highlight.some((x) => sameTile(x, tile)) ? "fresh" : ""].join(" ");
      return h("button", {
        class: cls, type: "button", "data-tile": `${tile[0]}-${tile[1]}`,
        disabled: acts.length ? null : true, "aria-label": `${tile[0]}|${tile[1]}`,
        onclick: () => clickTile(tile),
      }, tileSvg(tile[0], tile[1]));
    });
    const buttons = legal().filter((a) => !a.tile).map((a) => h("button", {
      class: `btn act act-${a.kind}`, type: "button", "data-kind": a.kind,
      "data-value": a.value ?? a.suit ?? "", onclick: () => send(a),
    }, game().actionLabel(a, ctx)));
    let choice = null;
    if (st.selected) {
      const acts = tileActions(st.selected);
      choice = h("div", { class: "choice", role: "group" },
        h("span", { class: "choice-q" }, game().choiceQuestion(acts, ctx)),
        acts.map((a) => h("button", {
          class: "btn choice-btn", type: "button", "data-choice": game().choiceKey(a),
          onclick: () => send(a),
        }, game().choiceLabel(a, ctx))),
        h("button", { class: "btn btn-ghost", type: "button", onclick: () => { st.selected = null; render(); } },
          t("table.cancel")));
    }
    const status = myTurn ? t("table.your_turn")
      : v.to_act === null || v.to_act === undefined ? "" : t("table.turn_of", { name: seatName(v.to_act) });
    return h("div", { class: `hand-area ${myTurn ? "my-turn" : ""}` },
      h("div", { class: "hand-bar" },
        h("span", { class: "turn-status", "data-my-turn": myTurn ? "1" : "0" }, status),
        game().handNote?.(v, ctx), buttons),
      choice,
      st.error ? h("div", { class: "refused", role: "alert" }, t("table.refused", { msg: st.error })) : null,
      h("div", { class: "hand", "aria-label": t("table.your_hand") }, tiles));
  }

  function sidePanel() {
    return sideEl({
      tab: st.tab, log: st.log, chat: st.chat, describe: (ev) => describeEvent(ev, ctx),
      chatName, onTab: (k) => { st.tab = k; render(); }, onChat: (text) => sock.chat(text),
    });
  }

  function chatName(m) {
    const you = st.table?.you;
    if (typeof m.seat === "number" && m.seat === you) return `${t("table.you")}:`;
    return `${m.name || tableSeatName(m.seat)}:`;
  }

  function resultPanel() {
    if (st.resultHidden || !(isOver() || st.roundEvent)) return null;
    const matchGoesOn = st.view.game === "gaple" || !st.view.over;
    return h("div", { class: `result-wrap ${matchGoesOn && st.view.game !== "gaple" ? "non-modal" : ""}` },
      h("section", {
        class: "result", "data-testid": "result", role: "dialog",
        "data-kind": st.view.over ? "over" : "round",
      },
        game().result(st.view, ctx, st.roundEvent),
        h("div", { class: "result-foot" },
          matchGoesOn ? h("p", { class: "muted" }, t("table.next_round")) : null,
          !matchGoesOn && st.table?.you !== null && st.table?.you !== undefined
            ? h("button", { class: "btn btn-primary", type: "button", "data-action": "rematch",
              onclick: () => rest(() => api.rematch(tableId)) }, t("table.rematch")) : null,
          h("button", { class: "btn", type: "button", onclick: () => { st.resultHidden = true; render(); } },
            t("result.close")))));
  }

  async function rest(fn) {
    try { await fn(); st.error = null; } catch (err) { st.error = err.message; render(); }
  }

  function waiting() {
    const tb = st.table, you = tb.you;
    const free = tb.seats.some((x) => !x.name && !x.bot);
    return h("div", { class: "felt waiting" }, h("div", { class: "waiting-box" },
      h("h3", {}, t("table.waiting")),
      h("ul", { class: "seat-list" }, tb.seats.map((x, n) => h("li", { "data-seat": n },
        h("span", {}, tableSeatName(n)), x.bot ? h("span", { class: "tag" }, t("table.bot")) : null,
        !x.name && !x.bot ? h("span", { class: "tag" }, t("lobby.empty_seat")) : null,
        !x.name && !x.bot && (you === null || you === undefined)
          ? h("button", { class: "btn", type: "button", "data-action": "sit",
            onclick: () => rest(() => api.sit(tableId, n)) }, t("lobby.sit")) : null))),
      you !== null && you !== undefined && free
        ? h("button", { class: "btn btn-primary", type: "button", "data-action": "bots",
          onclick: () => rest(() => api.addBots(tableId)) }, t("table.add_bots")) : null,
      st.error ? h("p", { class: "refused" }, st.error) : null));
  }

  let focusChat = false;
  function render() {
    focusChat = document.activeElement?.name === "text" && el.contains(document.activeElement);
    const draft = el.querySelector(".chat-form input")?.value || "";
    clear(el);
    el.append(h("div", { class: "table-top" },
      h("button", { class: "btn btn-ghost", type: "button", onclick: () => leave() }, `← ${t("nav.lobby")}`),
      st.table && st.table.you !== null && st.table.you !== undefined
        ? h("button", { class: "btn btn-ghost", type: "button", "data-action": "leave",
          onclick: () => rest(async () => { await api.leave(tableId, st.table.you); leave(); }) },
        t("nav.leave")) : null,
      h("h2", {}, t("table.title", { game: t(`game.${st.view?.game || st.table?.game || "gaple"}`), id: tableId })),
      st.view ? h("span", { class: "table-sub" }, game().subtitle?.(st.view, ctx) || "") : null));
    const b = banner();
    if (b) el.append(b);
    if (!st.view) {
      if (st.table) el.append(waiting(), sidePanel());
      return;
    }
    const v = st.view;
    const n = v.hand_counts?.length || 0;
    const spots = { top: [], left: [], right: [], bottom: [] };
    for (let i = 0; i < n; i++) {
      const rel = (i - (mySeat() ?? 0) + n) % n;
      spots[position(rel, n)].push(plate(i));
    }
    const boardEl = h("div", { class: "board" });
    el.append(h("div", { class: `felt game-${v.game} seats-${n}` },
      h("div", { class: "seats seats-top" }, spots.top),
      h("div", { class: "seats seats-left" }, spots.left),
      boardEl,
      h("div", { class: "seats seats-right" }, spots.right),
      h("div", { class: "seats seats-bottom" }, spots.bottom),
      handArea()), sidePanel(), resultPanel() || "");
    el.dataset.myTurn = v.to_act === v.seat && !isOver() ? "1" : "0";
    el.dataset.over = isOver() ? "1" : "0";
    el.dataset.v = st.msg?.v ?? "";
    requestAnimationFrame(() => {
      boardEl.append(game().board(v, ctx, boardEl));
    });
    const input = el.querySelector(".chat-form input");
    if (input) { input.value = draft; if (focusChat) input.focus(); }
  }

  const ticker = setInterval(() => tickClocks(el), 250);
  let resizeTimer = null;
  const onResize = () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(render, 120); };
  window.addEventListener("resize", onResize);

  function destroy() {
    clearInterval(ticker);
    window.removeEventListener("resize", onResize);
    sock.close();
    el.remove();
  }

  function leave() { onLeave?.(); }

  sock.connect();
  render();
  // A handle for tests and debugging: the page's socket and latest view.
  window.meja = window.meja || {};
  window.meja.socket = sock;
  Object.defineProperty(window.meja, "view", { get: () => st.view, configurable: true });
  Object.defineProperty(window.meja, "table", { get: () => st.table, configurable: true });
  return { destroy, rerender: render };
}
