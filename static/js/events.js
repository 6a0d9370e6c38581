// Public events (Step.events) as sentences for the history panel, in the chosen language.

import { t } from "./i18n.js";

export function tileText(tile) { return tile ? `[${tile[0]}|${tile[1]}]` : ""; }

export function trainName(train, ctx) {
  if (train === "mexican") return t("table.train.mexican");
  if (train === ctx.mySeat()) return t("table.train.own");
  return t("table.train.of", { name: ctx.seatName(train) });
}

export function suitName(suit) {
  if (suit === "none" || suit === null || suit === undefined) return t("moon.trump.none");
  if (suit === "doubles") return t("moon.trump.doubles");
  return t("moon.trump.n", { n: suit });
}

function table(ev, ctx) { return ctx.tableSeatName(ev.table_seat); }

export function describeEvent(ev, ctx) {
  const name = ctx.seatName(ev.seat);
  const tile = tileText(ev.tile);
  switch (ev.type) {
    case "played":
      if (ev.end) return t("ev.played_end", { name, tile, end: t(`ev.end.${ev.end}`) });
      if (ev.arm) return t("ev.played_arm", { name, tile, arm: t(`table.arm.${ev.arm}`) });
      if (ev.train !== undefined && ev.train !== null) {
        return t("ev.played_train", { name, tile, train: trainName(ev.train, ctx) });
      }
      return t("ev.played", { name, tile });
    case "passed":
      if (ev.marker) return `${t("ev.passed", { name })} · ${t("ev.marker", { name })}`;
      return t("ev.passed", { name });
    case "lewat":
      if (ev.payer === ctx.mySeat()) {
        return t("ev.lewat_you", { payee: ctx.seatName(ev.payee), amount: ev.amount });
      }
      return t("ev.lewat", {
        payer: ctx.seatName(ev.payer), payee: ctx.seatName(ev.payee), amount: ev.amount,
      });
    case "drew": return t("ev.drew", { name });
    case "bid": return t("ev.bid", { name, value: ev.value });
    case "trump": return t("ev.trump", { name, suit: suitName(ev.suit) });
    case "contract": return t("ev.contract", { name, value: ev.value });
    case "widow_taken": return t("ev.widow", { name });
    case "discarded": return t("ev.discard", { name });
    case "trick_won": return t("ev.trick", { name });
    case "all_passed": return t("ev.redeal");
    case "dealt": case "round_started": return t("ev.round_start", { n: ev.round ?? 1 });
    case "engine_placed": return t("ev.engine", { name, tile });
    case "ended_turn": return t("ev.end_turn", { name });
    case "round_over": return t("ev.round_over");
    case "match_over": return t("ev.match_over");
    case "timeout": return t("ev.timeout", { name: table(ev, ctx) });
    case "seated": return t("ev.seated", { name: ev.name || table(ev, ctx) });
    case "leaving": return t("ev.leaving", { name: table(ev, ctx) });
    case "left": return t("ev.left", { n: ev.table_seat + 1 });
    case "match_started": return t("ev.match_started", { n: ev.match_no });
    case "table_over": return t("ev.table_over");
    case "away": return t("ev.away", { name: table(ev, ctx) });
    case "back": return t("ev.back", { name: table(ev, ctx) });
    case "rematch": return t("ev.rematch", { name: table(ev, ctx) });
    case "created": return t("ev.created");
    default: return t("ev.other", { name: name || "·", what: ev.type });
  }
}
