// Public events (Step.events) as sentences for the history panel, in the chosen language. A
// sentence whose subject is the viewer takes its "you" form ("You win the contract", not
// "You wins"); the viewer as an object is the dictionary's `table.you_object` ("to you").

import { about, t } from "./i18n.js";

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

/** A game seat as the object of a sentence: "to you" rather than "to You". */
export function objectName(seat, ctx) {
  return seat === ctx.mySeat() ? t("table.you_object") : ctx.seatName(seat);
}

/**
 * The history line of an event, or "" for one that says nothing new: the table's end of a
 * match (`table_over`) follows the game's own last event, which already says it (a points
 * game's `match_over`; Gaple's `round_over`, as a table played for chips plays one round a
 * match, G-12). That is also why a chips table's match starts as a round.
 */
export function describeEvent(ev, ctx) {
  const name = ctx.seatName(ev.seat);
  const me = ev.seat !== undefined && ev.seat !== null && ev.seat === ctx.mySeat();
  const meAtTable = ev.table_seat !== undefined && ev.table_seat === ctx.myTableSeat?.();
  const tile = tileText(ev.tile);
  switch (ev.type) {
    case "played":
      if (ev.end) return t("ev.played_end", { name, tile, end: t(`ev.end.${ev.end}`) });
      if (ev.arm) return t("ev.played_arm", { name, tile, arm: t(`table.arm.${ev.arm}`) });
      if (ev.train !== undefined && ev.train !== null) {
        return t("ev.played_train", { name, tile, train: trainName(ev.train, ctx) });
      }
      return t("ev.played", { name, tile });
    case "passed": {
      // Moon's bidding pass is "Pas", as its button says (M-4); Gaple's is "lewat" (G-6)
      const key = ctx.game?.() === "moon" ? "ev.bid_pass" : "ev.passed";
      if (ev.marker) return `${t(key, { name })} · ${t("ev.marker", { name })}`;
      return t(key, { name });
    }
    case "lewat":
      return about("ev.lewat", ev.payer === ctx.mySeat(), {
        payer: ctx.seatName(ev.payer), payee: objectName(ev.payee, ctx), amount: ev.amount,
      });
    case "drew": return t("ev.drew", { name });
    case "bid": return t("ev.bid", { name, value: ev.value });
    case "trump": return t("ev.trump", { name, suit: suitName(ev.suit) });
    case "contract": return about("ev.contract", me, { name, value: ev.value });
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
    case "left": return t("ev.left", { n: ev.table_seat + 1 });
    case "match_started": return t(ctx.chips?.() ? "ev.round_start" : "ev.match_started", { n: ev.match_no });
    case "table_over": return "";
    case "away": return about("ev.away", meAtTable, { name: table(ev, ctx) });
    case "back": return about("ev.back", meAtTable, { name: table(ev, ctx) });
    case "rematch": return about("ev.rematch", meAtTable, { name: table(ev, ctx) });
    case "leaving": return about("ev.leaving", meAtTable, { name: table(ev, ctx) });
    case "created": return t("ev.created");
    default: return t("ev.other", { name: name || "·", what: ev.type });
  }
}
