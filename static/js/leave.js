// Leaving a table mid-round says first what happens (docs/rules.md O-3: the bot plays the seat
// to the end of the round, at Gaple, or of the match, and the seat is freed then; what it wins
// or loses is the player's), and asks to be sure. Outside a round a seat is freed at once, and
// nothing is asked.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Pure: whether leaving now hands the seat to the bot (the player is in the round being
 * played), as the server decides it (app/services/table/doc.py ``game_seat``). */
export function leavesMidRound(table) {
  const you = table?.you;
  if (you === null || you === undefined) return false;
  return table.status === "playing" && (table.players || []).includes(you);
}

/** Ask before leaving mid-round: true to leave. `chips`: a chips table; `stack`: its chips now. */
export function confirmLeave({ chips, stack }) {
  return new Promise((resolve) => {
    const box = h("dialog", { class: "account-dialog leave-dialog card", "data-testid": "leave" });
    let answer = false;
    const done = (value) => { answer = value; box.close(); };
    box.addEventListener("close", () => { box.remove(); resolve(answer); });
    box.append(...[
      h("h2", {}, t("leave.title")),
      h("p", {}, t(chips ? "leave.round" : "leave.match")),
      chips ? h("p", { class: "leave-stack" }, t("leave.stack", { n: stack ?? 0 })) : null,
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "button", "data-action": "stay", onclick: () => done(false) },
          t("leave.stay")),
        h("button", { class: "btn btn-ghost", type: "button", "data-action": "confirm-leave", onclick: () => done(true) },
          t("leave.go")))].filter(Boolean));
    document.body.append(box);
    box.showModal();
    box.querySelector("[data-action=stay]").focus();
  });
}
