// The player's finished matches (#/history, GET /api/players/me/matches, newest first, a page
// at a time as the server pages them): game, date, result and chips; each opens its replay
// (#/replay/<id>, replay.js).

import { h, slot } from "./dom.js";
import { t, fmt, getLang } from "./i18n.js";
import { api } from "./api.js";
import { descriptor, loadCatalog } from "./catalog.js";
import { pageCount } from "./stats.js";

export const PER_PAGE = 10;
let lastPage = 1; // the page a replay's "back" returns to

/** A signed number of chips (Gaple's score is the round's chip delta, G-10). */
export function chipsText(n) {
  return t("board.chips_n", { n: `${n > 0 ? "+" : n < 0 ? "−" : ""}${fmt(Math.abs(n))}` });
}

export function mountHistory(root, { errorText }) {
  const el = h("div", { class: "history-page" });
  const content = slot();
  el.append(content.node);
  root.append(el);
  let data = null, failed = null, destroyed = false;

  function row(m) {
    const chips = descriptor(m.game)?.chips;
    const when = m.finished_at ? new Intl.DateTimeFormat(getLang(), { dateStyle: "medium", timeStyle: "short" })
      .format(new Date(m.finished_at)) : "—";
    const result = t(m.winner ? "history.won" : "history.lost");
    return h("tr", { "data-match": m.id, class: m.winner ? "won" : "lost" },
      h("td", {}, t(`game.${m.game}`),
        h("div", { class: "muted small history-table" }, t("table.title_only", { name: m.table_name }))),
      h("td", { class: "history-date" }, when),
      h("td", { class: "history-result" }, !chips && m.score !== null
        ? `${result} · ${t("history.score", { n: m.score })}` : result),
      h("td", { class: "num history-chips" }, chips && m.score !== null ? chipsText(m.score) : "—"),
      h("td", {}, h("a", { class: "btn", href: `#/replay/${m.id}`, "data-action": "replay" }, t("history.replay"))));
  }

  function draw() {
    const back = h("a", { class: "btn btn-ghost", href: "#/" }, t("profile.back"));
    const head = h("div", { class: "profile-head" }, h("h2", {}, t("history.title")), back);
    if (failed) { content.set(h("div", { class: "profile-page" }, head, h("p", { class: "error" }, failed))); return; }
    if (!data) { content.set(h("div", { class: "profile-page" }, head, h("p", { class: "muted" }, "…"))); return; }
    const pages = pageCount(data.total, data.per_page);
    content.set(h("div", { class: "profile-page" }, head, h("section", { class: "card" },
      data.items.length ? h("div", { class: "history-scroll" }, h("table", { class: "stat-table history-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("history.game")), h("th", {}, t("history.date")),
          h("th", {}, t("history.result")), h("th", { class: "num" }, t("history.chips")), h("th", {}, ""))),
        h("tbody", {}, data.items.map(row))))
        : h("p", { class: "muted" }, t("history.empty")),
      h("div", { class: "row pager" },
        h("button", { class: "btn btn-ghost", type: "button", "data-page": "prev", disabled: data.page <= 1,
          onclick: () => load(data.page - 1) }, t("board.prev")),
        h("span", { class: "muted", "data-pages": "" }, t("board.page", { page: data.page, pages })),
        h("button", { class: "btn btn-ghost", type: "button", "data-page": "next", disabled: data.page >= pages,
          onclick: () => load(data.page + 1) }, t("board.next"))))));
  }

  async function load(page) {
    try {
      const [res] = await Promise.all([api.myMatches(page, PER_PAGE), loadCatalog().catch(() => null)]);
      if (destroyed) return;
      data = res;
      failed = null;
      lastPage = page;
    } catch (err) { failed = errorText(err); }
    if (!destroyed) draw();
  }

  draw();
  load(lastPage);
  return { rerender: draw, destroy() { destroyed = true; el.remove(); } };
}
