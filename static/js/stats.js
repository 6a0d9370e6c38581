// The words and numbers of the profile and the leaderboards, without the DOM (node --test).

import { t, fmt } from "./i18n.js";

/** A board's number as its metric reads: net chips, matches won, or an average score. */
export function boardValue(metric, value) {
  if (metric === "net_chips") return t("board.chips_n", { n: value });
  if (metric === "average_score") return t("board.avg_n", { n: value });
  return t("board.wins_n", { n: value });
}

/** How many pages a board of `total` players has (at least one, empty or not). */
export function pageCount(total, perPage) {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The share of matches won, as a whole percentage ("—" before the first match). */
export function winRate(played, won) {
  return played ? `${fmt(Math.round((100 * won) / played))}%` : "—";
}
