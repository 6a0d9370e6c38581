// A finished match replayed on the table page (#/replay/<id>): GET /api/matches/{id}/replay
// gives every step as the player's own seat saw it (the server's rules decide what shows, O-2),
// and a feed hands the steps to table.js as the socket's state messages would come. One step
// on is a live message (its sounds and the tile sliding in); any other jump starts the log
// anew with every event up to that step.

import { h, slot } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { mountTable } from "./table.js";

export const PLAY_MS = 900;

/** The table summary a state message carries, for the match's seats (game seat = seat). */
function tableOf(data) {
  const seats = data.players.map((p) => ({ seat: p.seat, name: p.name, bot: p.bot, player_id: null, away: false,
    avatar: p.bot ? "bot" : null }));
  return {
    id: data.table, name: data.table_name, game: data.game, n_seats: seats.length, status: "over", seats,
    players: seats.map((s) => s.seat), you: data.seat, deadline: null, turn_seconds: null,
  };
}

/** The state message showing step `k`: after step `from` only its events, else all up to k. */
export function stepMessage(data, table, k, from) {
  const step = data.steps[k];
  if (k === from + 1) return { type: "state", v: k, table, view: step.view, events: step.events };
  const events = data.steps.slice(0, k + 1).flatMap((s) => s.events);
  return { type: "state", v: k, table, view: step.view, events, gap: true };
}

export function mountReplay(root, { matchId, onBack, errorText }) {
  const box = h("div", { class: "replay-page" });
  const content = slot();
  box.append(content.node);
  root.append(box);
  let table = null, destroyed = false, timer = null, at = -1, data = null, on = null;

  const buttons = {};
  const counter = h("span", { class: "replay-step", "data-step": "" });
  const controls = h("div", { class: "replay-controls", role: "group" });
  for (const [key, run] of [["start", () => show(0)], ["back", () => show(at - 1)],
    ["play", () => (timer ? pause() : playOn())], ["forward", () => show(at + 1)]]) {
    buttons[key] = h("button", { class: "btn", type: "button", "data-replay": key, onclick: run });
    controls.append(buttons[key]);
  }
  controls.append(counter);

  function label() {
    const last = data ? data.steps.length - 1 : 0;
    counter.textContent = t("replay.step", { k: Math.max(at, 0), n: last });
    counter.dataset.step = at;
    controls.setAttribute("aria-label", t("history.replay"));
    const text = { start: "|◀", back: "◀", play: timer ? "||" : "▶", forward: "▶|" };
    const words = { start: "replay.start", back: "replay.back", play: timer ? "replay.pause" : "replay.play",
      forward: "replay.forward" };
    for (const [key, b] of Object.entries(buttons)) {
      b.replaceChildren(h("span", { "aria-hidden": "true" }, text[key]), h("span", { class: "replay-word" }, t(words[key])));
      b.title = t(words[key]);
      b.setAttribute("aria-label", t(words[key])); // a phone shows the sign alone
    }
    buttons.start.disabled = buttons.back.disabled = at <= 0;
    buttons.forward.disabled = at >= last;
    buttons.play.disabled = at >= last && !timer;
  }

  function show(k) {
    if (!data || k < 0 || k >= data.steps.length || k === at) return;
    const msg = stepMessage(data, tableOf(data), k, at);
    at = k;
    on.onState(msg);
    if (at >= data.steps.length - 1) pause();
    label();
  }

  function playOn() {
    if (at >= data.steps.length - 1) return;
    timer = setInterval(() => show(at + 1), PLAY_MS);
    label();
  }

  function pause() { clearInterval(timer); timer = null; }

  /** What table.js calls its socket: it gets the steps; nothing can be sent from a replay. */
  function feed(handlers) {
    on = handlers;
    return {
      isOpen: false, attempt: 0,
      connect() { on.onStatus("open"); show(0); },
      close() { pause(); }, act() {}, chat() {}, resync() {},
    };
  }

  api.replay(matchId).then((res) => {
    if (destroyed) return;
    data = res;
    content.set(null);
    table = mountTable(box, { tableId: res.table, onLeave: onBack, replay: { feed, controls, back: "history.back" } });
  }, (err) => {
    if (destroyed) return;
    content.set(h("div", { class: "card" }, h("p", { class: "error" }, errorText(err)),
      h("a", { class: "btn btn-ghost", href: "#/history" }, `← ${t("history.back")}`)));
  });
  content.set(h("p", { class: "muted" }, "…"));
  return {
    rerender() { label(); table?.rerender(); },
    destroy() { destroyed = true; pause(); table?.destroy(); box.remove(); },
  };
}
