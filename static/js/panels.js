// Parts of the table page that need no table state of their own: the turn clock ring and the
// side panel with the event history and the chat.

import { h, s } from "./dom.js";
import { t } from "./i18n.js";

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

/**
 * History (newest first), chat and, once a round has ended, its result (`result`: a function
 * drawing it), as tabs: the result panel closes when the next round is dealt, this one stays.
 */
export function sideEl({ tab, log, chat, describe, chatName, chatError, onTab, onChat, result }) {
  const tabs = [["history", "table.history"], ["chat", "table.chat"]];
  if (result) tabs.push(["result", "table.last_result"]);
  const body = tab === "result" && result ? h("div", { class: "side-result" }, result())
    : tab === "history"
    ? h("ol", { class: "log" }, log.length
      ? log.slice().reverse().map((ev) => h("li", { class: `ev ev-${ev.type}` }, describe(ev)))
      : h("li", { class: "muted" }, t("table.history.empty")))
    : h("div", { class: "chat" },
      h("ol", { class: "chat-log" }, chat.length
        ? chat.map((m) => h("li", {}, h("b", {}, chatName(m)), " ", m.text))
        : h("li", { class: "muted" }, t("table.chat.empty"))),
      h("form", {
        class: "chat-form", onsubmit: (e) => {
          e.preventDefault();
          const input = e.target.elements.text;
          const text = input.value.trim();
          if (text) onChat(text.slice(0, 200));
          input.value = "";
        },
      }, h("input", { name: "text", maxlength: 200, placeholder: t("table.chat.placeholder"), autocomplete: "off" }),
      h("button", { class: "btn", type: "submit" }, t("table.chat.send"))),
      chatError ? h("p", { class: "refused", role: "alert" }, chatError) : null);
  return h("aside", { class: "side" },
    h("div", { class: "tabs", role: "tablist" }, tabs.map(([k, label]) => h("button", {
      class: `tab ${tab === k ? "on" : ""}`, type: "button", "data-tab": k, onclick: () => onTab(k),
    }, t(label)))), body);
}
