// The lobby's leaderboards: one tab per game, this week or all time, paginated on the server
// (GET /api/leaderboards/{game}); a name opens that player's profile (#/p/<id>).

import { h } from "./dom.js";
import { t, fmt } from "./i18n.js";
import { boardValue, pageCount } from "./stats.js";
import { avatar } from "./avatars.js";

export const PER_PAGE = 10;

/**
 * board: the last answer (or null while loading); pick: {game, period, page};
 * on: {pick(patch)} changes game, period or page.
 */
export function leaderboardSection(games, board, pick, on) {
  const tabs = h("div", { class: "filters", role: "tablist" }, games.map((g) => h("button", {
    class: `tab ${pick.game === g ? "on" : ""}`, type: "button", "data-board-game": g,
    role: "tab", "aria-selected": String(pick.game === g),
    onclick: () => on.pick({ game: g, page: 1 }),
  }, t(`game.${g}`))));
  const periods = h("div", { class: "filters periods" }, ["week", "all"].map((p) => h("button", {
    class: `tab ${pick.period === p ? "on" : ""}`, type: "button", "data-period": p,
    onclick: () => on.pick({ period: p, page: 1 }),
  }, t(`board.${p}`))));
  return h("section", { class: "board-card card", "data-board": pick.game },
    h("h3", {}, t("board.title")), tabs, periods, board ? body(board, on) : h("p", { class: "muted" }, "…"));
}

function body(board, on) {
  const note = [board.since ? t("board.since") : null,
    board.min_matches ? t("board.min", { n: board.min_matches }) : null].filter(Boolean).join(" · ");
  if (!board.items.length) {
    return h("div", {}, note ? h("p", { class: "muted small" }, note) : null,
      h("p", { class: "muted" }, t("board.empty")));
  }
  const pages = pageCount(board.total, board.per_page);
  return h("div", {},
    note ? h("p", { class: "muted small" }, note) : null,
    h("table", { class: "stat-table" },
      h("thead", {}, h("tr", {}, h("th", { class: "num" }, "#"), h("th", {}, t("board.player")),
        h("th", { class: "num" }, t(`board.metric.${board.metric}`)),
        h("th", { class: "num" }, t("board.played")))),
      h("tbody", {}, board.items.map((r) => h("tr", { "data-player": r.player_id },
        h("td", { class: "num" }, fmt(r.rank)),
        h("td", {}, h("a", { href: `#/p/${r.player_id}`, class: "board-name" }, avatar(r.avatar, 22), r.name)),
        h("td", { class: "num board-value" }, boardValue(board.metric, r.value)),
        h("td", { class: "num" }, fmt(r.played)))))),
    h("div", { class: "row pager" },
      h("button", { class: "btn btn-ghost", type: "button", "data-page": "prev", disabled: board.page <= 1,
        onclick: () => on.pick({ page: board.page - 1 }) }, t("board.prev")),
      h("span", { class: "muted", "data-pages": "" }, t("board.page", { page: board.page, pages })),
      h("button", { class: "btn btn-ghost", type: "button", "data-page": "next", disabled: board.page >= pages,
        onclick: () => on.pick({ page: board.page + 1 }) }, t("board.next"))));
}
