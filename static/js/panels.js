// Parts of the table page that need no table state of their own: the turn clock ring and the
// side panel with the event history and the chat.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";
import { QUICK_EMOTES, QUICK_PHRASES } from "./quick.js";

const R = 15;
const CIRC = 2 * Math.PI * R;

function left(deadline) { return Math.max(0, (deadline - Date.now()) / 1000); }

/** A ring that empties as the turn's time runs out (deadline: epoch ms; limit: seconds). */
export function clockEl(deadline, limit) {
  const frac = Math.max(0, Math.min(1, left(deadline) / limit));
  return h("span", { class: "clock", "data-deadline": deadline, "data-limit": limit },
    s("svg", { viewBox: "0 0 36 36", class: "clock-ring" },
      s("circle", { cx: 18, cy: 18, r: R, class: "clock-bg" }),
      s("circle", {
        cx: 18, cy: 18, r: R, class: `clock-fg ${frac < 0.25 ? "low" : ""}`,
        "stroke-dasharray": CIRC, "stroke-dashoffset": CIRC * (1 - frac),
        transform: "rotate(-90 18 18)",
      })),
    h("span", { class: "clock-text" }, t("table.seconds", { n: Math.ceil(left(deadline)) })));
}

/** "… in N s" counting down to `until` (epoch ms); `key` is its dictionary text, with {n}. */
export function countdownEl(until, key) {
  return h("span", { class: "countdown", "data-until": until, "data-key": key },
    t(key, { n: Math.ceil(left(until)) }));
}

/** Move every clock and countdown under root on to now, without drawing the page again. */
export function tickClocks(root) {
  for (const c of root.querySelectorAll(".countdown")) {
    c.textContent = t(c.dataset.key, { n: Math.ceil(left(+c.dataset.until)) });
  }
  for (const c of root.querySelectorAll(".clock")) {
    const deadline = +c.dataset.deadline, limit = +c.dataset.limit;
    const frac = Math.max(0, Math.min(1, left(deadline) / limit));
    const fg = c.querySelector(".clock-fg");
    fg.setAttribute("stroke-dashoffset", CIRC * (1 - frac));
    fg.classList.toggle("low", frac < 0.25);
    c.querySelector(".clock-text").textContent = t("table.seconds", { n: Math.ceil(left(deadline)) });
  }
}

/** The quick chat row: phrases, then emotes (static/js/quick.js); disabled while offline. */
function quickRow(onQuick, offline) {
  const btn = (id, cls) => h("button", {
    class: `btn quick ${cls}`, type: "button", "data-quick": id, disabled: offline || null,
    onclick: () => onQuick(id),
  }, t(`quick.${id}`));
  return h("div", { class: "quick-row", role: "group", "aria-label": t("table.quick") },
    QUICK_PHRASES.map((id) => btn(id, "quick-phrase")), QUICK_EMOTES.map((id) => btn(id, "quick-emote")));
}

/** A chat line's words: its text, or its quick phrase in the reader's language. */
export function chatText(m) { return m.quick ? t(`quick.${m.quick}`) : m.text; }

/**
 * History (newest first), chat (none without `onChat`: a replay) and, once a round has ended,
 * its result (`result`: a function drawing it), as tabs: the result panel closes when the next
 * round is dealt, this one stays. `onQuick` (players only) adds the quick chat row; `offline`
 * disables sending while the connection is down (it would be lost). `unread`: the chat lines
 * not seen yet, a badge on the chat tab; `onClose`: a phone's chat sheet closes.
 */
export function sideEl({ tab, log, chat, describe, chatName, chatError, onTab, onChat, onQuick, offline, result,
  unread = null, onClose = null }) {
  const tabs = [["history", "table.history"], ...(onChat ? [["chat", "table.chat"]] : [])];
  if (result) tabs.push(["result", "table.last_result"]);
  const body = tab === "result" && result ? h("div", { class: "side-result" }, result())
    : tab === "history"
    ? h("ol", { class: "log" }, log.length
      ? log.slice().reverse().map((ev) => [ev, describe(ev)]).filter(([, text]) => text)
        .map(([ev, text]) => h("li", { class: `ev ev-${ev.type}` }, text))
      : h("li", { class: "muted" }, t("table.history.empty")))
    : h("div", { class: "chat" },
      h("ol", { class: "chat-log" }, chat.length
        ? chat.map((m) => h("li", { class: m.quick ? "chat-quick" : null }, h("b", {}, chatName(m)), " ", chatText(m)))
        : h("li", { class: "muted" }, t("table.chat.empty"))),
      onQuick ? quickRow(onQuick, offline) : null,
      h("form", {
        class: "chat-form", onsubmit: (e) => {
          e.preventDefault();
          const input = e.target.elements.text;
          const text = input.value.trim();
          if (text) onChat(text.slice(0, 200));
          input.value = "";
        },
      }, h("input", { name: "text", maxlength: 200, placeholder: t("table.chat.placeholder"), autocomplete: "off" }),
      h("button", { class: "btn", type: "submit", disabled: offline || null }, t("table.chat.send"))),
      chatError ? h("p", { class: "refused", role: "alert" }, chatError) : null);
  return h("aside", { class: "side" },
    h("div", { class: "tabs", role: "tablist" }, tabs.map(([k, label]) => h("button", {
      class: `tab ${tab === k ? "on" : ""}`, type: "button", "data-tab": k,
      // on press, not on click: the panel is drawn again with every move, and a click whose
      // press and release land on two drawings of the button is lost (keys still click)
      onpointerdown: () => onTab(k), onclick: () => onTab(k),
    }, t(label), k === "chat" && unread ? h("span", { class: "unread", "data-testid": "unread-tab" }, unread) : null)),
    onClose ? h("button", { class: "btn btn-ghost side-close", type: "button", "data-action": "close-chat",
      "aria-label": t("table.chat.close"), onclick: onClose }, "✕") : null), body);
}
