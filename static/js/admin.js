// The operators' console (#/admin/...; /admin redirects here), for accounts with the admin
// role (docs/operations/console.md): players (search, wallet and ledger, ban, chips),
// live tables (public state, close), the outbox's dead letters, the operators' log, and the
// summary (money audit, metrics). Every action asks for a reason; the server logs it.

import { h, slot } from "./dom.js";
import { t, fmt, getLang } from "./i18n.js";
import { adminApi } from "./api.js";

const SECTIONS = ["summary", "players", "tables", "outbox", "log"];
const PER_PAGE = 20;

const when = (iso) => (iso ? new Date(iso).toLocaleString(getLang()) : "—");

function pager(data, go) {
  const pages = Math.max(1, Math.ceil(data.total / data.per_page));
  return h("div", { class: "admin-pager" },
    h("button", { class: "btn", type: "button", disabled: data.page <= 1, onclick: () => go(data.page - 1) }, t("admin.prev")),
    h("span", { class: "muted" }, t("admin.page", { page: data.page, pages })),
    h("button", { class: "btn", type: "button", disabled: data.page >= pages, onclick: () => go(data.page + 1) }, t("admin.next")));
}

function grid(head, rows, empty) {
  if (!rows.length) return h("p", { class: "muted" }, t(empty));
  return h("div", { class: "admin-scroll" }, h("table", { class: "stat-table admin-table" },
    h("thead", {}, h("tr", {}, head.map(([key, num]) => h("th", { class: num ? "num" : null }, t(key))))),
    h("tbody", {}, rows)));
}

/** A form asking for the reason (and more fields) before an action; `run(values)`. */
function actionForm(name, fields, run) {
  const inputs = [...fields, ["reason", "text"]].map(([key, type]) => h("label", { class: "admin-field" },
    h("span", {}, t(`admin.field.${key}`)),
    h("input", { name: key, type, required: true, ...(type === "number" ? { step: 1 } : { minlength: 3, maxlength: 200 }) })));
  const form = h("form", { class: "admin-action", "data-action": name }, inputs,
    h("button", { class: "btn btn-primary", type: "submit" }, t(`admin.do.${name}`)));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    run(Object.fromEntries(new FormData(form)), form);
  });
  return form;
}

export function mountAdmin(root, { section, id, toast, errorText }) {
  const el = h("div", { class: "admin" });
  const content = slot();
  el.append(content.node);
  root.append(el);
  let draw = () => content.set(h("p", { class: "muted" }, "…"));
  let dead = false;

  const nav = () => h("nav", { class: "admin-nav" }, SECTIONS.map((s) => h("a", {
    class: s === section ? "btn btn-primary" : "btn", href: `#/admin/${s}`, "data-section": s,
  }, t(`admin.${s}`))));

  function show(...body) { if (!dead) content.set(h("div", { class: "admin-page" }, h("h2", {}, t("admin.title")), nav(), ...body)); }

  async function load(fetcher, render) {
    draw = () => show(h("p", { class: "muted" }, "…"));
    draw();
    try {
      const data = await fetcher();
      draw = () => show(...render(data));
    } catch (err) {
      const text = errorText(err);
      draw = () => show(h("p", { class: "error", "data-error": err.code || "" }, text));
    }
    draw();
  }

  const act = (promise, done) => promise.then((res) => { toast(t("admin.done")); done(res); },
    (err) => toast(errorText(err), "error"));

  function summary() {
    load(() => adminApi.summary(), ({ audit, metrics }) => {
      const m = (name) => Object.values(metrics[name] || {}).reduce((a, b) => a + b, 0);
      const fact = (key, value, bad) => h("div", { class: bad ? "fact fact-bad" : "fact", "data-stat": key },
        h("span", { class: "fact-label" }, t(`admin.m.${key}`)), h("strong", { class: "fact-value" }, value));
      return [
        h("section", { class: "card" }, h("h3", {}, t("admin.audit")),
          h("p", { "data-audit": audit.ok ? "ok" : "broken", class: audit.ok ? "admin-ok" : "error" },
            t(audit.ok ? "admin.audit.ok" : "admin.audit.broken")),
          h("div", { class: "facts" },
            fact("granted", fmt(audit.granted)), fact("wallets", fmt(audit.wallets)),
            fact("stacks", fmt(audit.stacks_in_play)), fact("backlog", fmt(audit.outbox_backlog)),
            fact("unbalanced", fmt(audit.unbalanced_txns.length), audit.unbalanced_txns.length))),
        h("section", { class: "card" }, h("h3", {}, t("admin.metrics")),
          h("div", { class: "facts" },
            fact("tables", fmt(m("meja_live_tables"))), fact("sockets", fmt(m("meja_open_sockets"))),
            fact("actions", fmt(m("meja_actions_total"))), fact("refusals", fmt(m("meja_action_refusals_total"))),
            fact("lag", `${fmt(Math.round(m("meja_outbox_lag_seconds")))} s`),
            fact("dead", fmt(metrics.dead_letters), metrics.dead_letters),
            fact("database", t(metrics.meja_dependency_up?.["dependency=database"] ? "admin.up" : "admin.down"),
              !metrics.meja_dependency_up?.["dependency=database"])))];
    });
  }

  function players(q = "", page = 1) {
    const search = h("form", { class: "admin-search", role: "search" },
      h("input", { name: "q", type: "search", value: q, placeholder: t("admin.search"), "aria-label": t("admin.search") }),
      h("button", { class: "btn btn-primary", type: "submit" }, t("admin.find")));
    search.addEventListener("submit", (e) => { e.preventDefault(); players(search.q.value.trim(), 1); });
    load(() => adminApi.players(q, page, PER_PAGE), (data) => [search,
      grid([["admin.col.name"], ["admin.col.username"], ["admin.col.status"], ["admin.col.balance", true]],
        data.items.map((p) => h("tr", { "data-player": p.id },
          h("td", {}, h("a", { href: `#/admin/players/${p.id}` }, p.name)), h("td", {}, p.username || t("account.guest")),
          h("td", {}, status(p)), h("td", { class: "num" }, p.balance === null ? "—" : fmt(p.balance)))),
        "admin.none"),
      pager(data, (n) => players(q, n))]);
  }

  const status = (p) => [p.role === "admin" ? t("admin.role.admin") : null, p.banned ? t("admin.banned") : null]
    .filter(Boolean).join(" · ") || t("admin.active");

  function player(pid, page = 1) {
    load(async () => ({ p: await adminApi.player(pid), ledger: await adminApi.ledger(pid, page, PER_PAGE) }), ({ p, ledger }) => {
      const again = () => player(pid, page);
      const ban = p.banned
        ? actionForm("unban", [], ({ reason }) => act(adminApi.unban(pid, reason), again))
        : actionForm("ban", [], ({ reason }) => act(adminApi.ban(pid, reason), again));
      const requestId = crypto.randomUUID(); // one per form: a retried click moves chips once
      const chips = actionForm("chips", [["amount", "number"]], ({ amount, reason }, form) => {
        form.querySelector("button").disabled = true;
        act(adminApi.adjust(pid, Number(amount), reason, requestId), again);
      });
      return [
        h("section", { class: "card admin-player" },
          h("h3", { "data-name": "" }, p.name),
          h("p", {}, `${p.username || t("account.guest")} · #${p.id} · `, h("span", { "data-status": "" }, status(p))),
          p.ban_reason ? h("p", { class: "error" }, t("admin.ban_reason", { reason: p.ban_reason })) : null,
          h("div", { class: "facts" },
            h("div", { class: "fact", "data-stat": "balance" }, h("span", { class: "fact-label" }, t("admin.col.balance")),
              h("strong", { class: "fact-value" }, fmt(p.wallet?.balance ?? 0))),
            h("div", { class: "fact" }, h("span", { class: "fact-label" }, t("admin.at_tables")),
              h("strong", { class: "fact-value" }, fmt(p.wallet?.chips_at_tables ?? 0)))),
          h("div", { class: "admin-actions" }, ban, chips)),
        h("section", { class: "card" }, h("h3", {}, t("admin.ledger")),
          grid([["admin.col.when"], ["admin.col.kind"], ["admin.col.account"], ["admin.col.amount", true]],
            ledger.items.map((e) => h("tr", { "data-kind": e.kind },
              h("td", {}, when(e.at)), h("td", {}, t(`admin.kind.${e.kind}`)), h("td", {}, e.account),
              h("td", { class: "num" }, fmt(e.amount)))), "admin.none"),
          pager(ledger, (n) => player(pid, n)))];
    });
  }

  function tables(page = 1) {
    load(() => adminApi.tables(page, PER_PAGE), (data) => [
      grid([["admin.col.table"], ["admin.col.game"], ["admin.col.status"], ["admin.col.players", true]],
        data.items.map((tb) => h("tr", { "data-table": tb.id },
          h("td", {}, h("a", { href: `#/admin/tables/${encodeURIComponent(tb.id)}` }, tb.id)),
          h("td", {}, t(`game.${tb.game}`)), h("td", {}, t(`admin.status.${tb.status}`)),
          h("td", { class: "num" }, `${tb.n_seats - tb.open_seats}/${tb.n_seats}`))), "admin.none"),
      pager(data, tables)]);
  }

  function table(tid) {
    load(() => adminApi.table(tid), ({ table: tb, view }) => [
      h("section", { class: "card" },
        h("h3", {}, `${t(`game.${tb.game}`)} · ${tb.id}`),
        h("p", { "data-status": tb.status }, t(`admin.status.${tb.status}`)),
        grid([["admin.col.seat", true], ["admin.col.name"], ["admin.col.stack", true]],
          tb.seats.map((s) => h("tr", {}, h("td", { class: "num" }, s.seat + 1),
            h("td", {}, s.name ? `${s.name}${s.bot ? " 🤖" : ""}` : "—"),
            h("td", { class: "num" }, s.stack === null ? "—" : fmt(s.stack)))), "admin.none"),
        tb.status === "closed" ? null
          : actionForm("close", [], ({ reason }) => act(adminApi.close(tid, reason), () => table(tid)))),
      h("section", { class: "card" }, h("h3", {}, t("admin.public_view")),
        h("pre", { class: "admin-json", "data-view": "" }, JSON.stringify(view, null, 1)))]);
  }

  function outbox(page = 1) {
    load(() => adminApi.dead(page, PER_PAGE), (data) => [
      data.items.length ? data.items.map((d) => h("section", { class: "card admin-dead", "data-dead": d.id },
        h("p", {}, h("strong", {}, d.id), ` · ${d.stream}`),
        h("p", { class: "error" }, d.error),
        h("pre", { class: "admin-json" }, d.raw),
        actionForm("retry", [], ({ reason }) => act(adminApi.retry(d.id, reason), () => outbox(page)))))
        : h("p", { class: "muted", "data-empty": "" }, t("admin.no_dead")),
      pager(data, outbox)]);
  }

  function log(page = 1) {
    load(() => adminApi.actions(page, PER_PAGE), (data) => [
      grid([["admin.col.when"], ["admin.col.who"], ["admin.col.what"], ["admin.col.target"], ["admin.col.why"]],
        data.items.map((a) => h("tr", { "data-action": a.action },
          h("td", {}, when(a.at)), h("td", {}, a.admin || t("admin.cli")), h("td", {}, t(`admin.a.${a.action}`)),
          h("td", {}, a.target), h("td", {}, a.reason || ""))), "admin.none"),
      pager(data, log)]);
  }

  if (section === "players" && id) player(id);
  else if (section === "tables" && id) table(id);
  else ({ players, tables, outbox, log }[section] || summary)();
  return { rerender: () => draw(), destroy() { dead = true; el.remove(); } };
}


