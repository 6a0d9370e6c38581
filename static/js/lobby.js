// The lobby: games with one-click play against bots and quick join, the open tables by game
// (stake, seats taken, options that differ from the defaults), a create form built from the
// server's descriptors (GET /api/games) that explains each option, spectating, and the
// leaderboards (leaderboard.js).
//
// One store for the page (store.js): the table list refreshes on its own without touching a
// create form being filled in.

import { h, slot } from "./dom.js";
import { t, has } from "./i18n.js";
import { api } from "./api.js";
import { loadCatalog } from "./catalog.js";
import { optionTags, readOptions, seatCounts } from "./options.js";
import { createStore, regionScheduler } from "./store.js";
import { renderer } from "./games/index.js";
import { tileSvg } from "./tiles.js";
import { leaderboardSection, PER_PAGE } from "./leaderboard.js";
import { askBuyIn } from "./buy_in.js";

const REFRESH_MS = 5000;

const SHOWS = { filter: ["tables"], tables: ["tables"], loaded: ["tables"], creating: ["form"],
  board: ["board"], pick: ["board"] };

export function mountLobby(root, { open, toast, errorText, refreshMe }) {
  const store = createStore({ catalog: null, filter: "all", tables: [], loaded: false, creating: null,
    board: null, pick: { game: "gaple", period: "week", page: 1 } }, SHOWS);
  const st = store.state;
  let busyNow = false;
  const el = h("div", { class: "lobby" });
  const slots = { title: slot(), cards: slot(), form: slot(), tables: slot(), board: slot() };
  el.append(...Object.values(slots).map((x) => x.node));
  root.append(el);

  /** The games of the catalog this client can draw, in the server's order. */
  function games() { return (st.catalog?.games || []).filter((g) => renderer(g.name)); }
  function gameOf(name) { return games().find((g) => g.name === name) || null; }
  /** The table's own options a game's tables have (the start countdown: chips tables only). */
  function tableOptions(game) { return (st.catalog?.table_options || []).filter((o) => !o.chips || game.chips); }

  async function loadGames() {
    try {
      store.set({ catalog: await loadCatalog() });
    } catch (err) { toast(errorText(err), "error"); }
  }

  async function load() {
    if (!st.catalog) loadGames();
    try {
      const res = await api.tables();
      store.set({ tables: res || [], loaded: true });
    } catch (err) { if (!st.loaded) toast(errorText(err), "error"); }
  }

  async function busy(fn) {
    if (busyNow) return;
    busyNow = true;
    el.classList.add("busy");
    try { await fn(); } catch (err) { toast(errorText(err), "error"); } finally {
      busyNow = false;
      el.classList.remove("busy");
    }
  }

  /** The board of the picked game and period; an answer for an older pick is dropped. */
  async function loadBoard(patch = {}) {
    const pick = { ...st.pick, ...patch };
    store.set({ pick, board: null });
    try {
      const board = await api.leaderboard(pick, PER_PAGE);
      if (st.pick === pick) store.set({ board });
    } catch (err) { toast(errorText(err), "error"); }
  }

  function tableId(x) { return x.id ?? x.table_id; }

  /** The table is made with its creator seated (buyIn null: the default), or not at all. */
  async function createAndSit(spec, bots, buyIn = null) {
    const table = await api.createTable({ ...spec, sit: buyIn === null ? {} : { buy_in: buyIn } });
    const id = tableId(table);
    if (bots > 0) await api.addBots(id);
    refreshMe();
    open(id);
  }

  /** The game's default table, the other seats bots. */
  function vsBots(game) {
    const n = game.seats.default;
    return busy(() => createAndSit({ game: game.name, seats: n, options: {} }, n - 1));
  }

  function quick(game) {
    return busy(async () => {
      const res = await api.quickJoin(game.name);
      refreshMe();
      open(tableId(res.table));
    });
  }

  function sit(table) {
    const seat = (table.seats || []).findIndex((p) => !p || (!p.name && !p.bot));
    const chips = !!gameOf(table.game)?.chips;
    return busy(async () => {
      const buyIn = chips ? await askBuyIn(table.stake, st.catalog.buy_in) : null;
      if (chips && buyIn === null) return;
      await api.sit(tableId(table), seat, buyIn);
      refreshMe();
      open(tableId(table));
    });
  }

  function gameCard(game) {
    const [a, b] = renderer(game.name).cardTile;
    return h("article", { class: `game-card game-${game.name}`, "data-game": game.name },
      h("span", { class: "card-tile", "aria-hidden": "true" }, tileSvg(a, b, { vertical: false })),
      h("h3", {}, t(`game.${game.name}`)),
      h("p", {}, t(`game.${game.name}.about`)),
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "button", "data-action": "bots", onclick: () => vsBots(game) },
          t("lobby.bots")),
        h("button", { class: "btn", type: "button", "data-action": "quick", onclick: () => quick(game) },
          t("lobby.quick")),
        h("button", { class: "btn btn-ghost", type: "button", "data-action": "create",
          onclick: () => store.set({ creating: game.name }) }, t("lobby.create"))));
  }

  function tableRow(x) {
    const game = gameOf(x.game);
    const seats = x.seats || [];
    const n = x.n_seats ?? seats.length;
    const taken = seats.filter((p) => p && (p.name || p.player_id || p.bot)).length;
    const free = taken < n;
    const tags = [...optionTags(game.options, x.options, t, has, { chips: game.chips }),
      ...optionTags(tableOptions(game), x, t, has)];
    return h("li", { class: "table-row", "data-table": tableId(x), "data-game": x.game },
      h("div", { class: "table-main" },
        h("strong", {}, t(`game.${x.game}`)),
        h("span", { class: "pill" }, game.chips ? t("lobby.stake", { n: x.stake ?? x.options?.stake })
          : t("lobby.no_stake")),
        h("span", { class: "pill" }, t("lobby.seats", { taken, n })),
        h("span", { class: `pill ${x.status === "playing" ? "pill-live" : ""}` },
          t(x.status === "playing" ? "lobby.playing" : "lobby.waiting")),
        tags.map((tag) => h("span", { class: "pill pill-soft" }, tag))),
      h("div", { class: "table-seats" }, seats.map((p) => h("span", { class: `seat-chip ${p?.bot ? "bot" : ""}` },
        p && (p.name || p.bot) ? (p.name || t("lobby.bot")) : t("lobby.empty_seat")))),
      h("div", { class: "row" },
        free ? h("button", { class: "btn btn-primary", type: "button", "data-action": "sit", onclick: () => sit(x) },
          t("lobby.sit")) : null,
        h("button", { class: "btn", type: "button", "data-action": "watch", onclick: () => open(tableId(x)) },
          t("lobby.watch"))));
  }

  function field(label, input, help) {
    return h("label", { class: "field" }, h("span", { class: "field-label" }, label), input,
      help ? h("small", {}, help) : null);
  }

  /** The form control of one declared option; its words are the dictionary's (label, help). */
  function control(o) {
    const label = t(o.label), help = o.help ? t(o.help) : null;
    if (o.type === "choice") {
      return h("fieldset", { class: "field", "data-option": o.key }, h("legend", {}, label),
        o.choices.map((c) => h("label", { class: "radio" },
          h("input", { type: "radio", name: o.key, value: c, checked: c === o.default }),
          " ", t(`${o.label}.${c}`))),
        help ? h("small", {}, help) : null);
    }
    if (o.type === "bool") {
      return h("label", { class: "field check", "data-option": o.key },
        h("input", { type: "checkbox", name: o.key, checked: o.default }),
        h("span", { class: "field-label" }, label), help ? h("small", {}, help) : null);
    }
    return field(label, h("input", {
      name: o.key, type: "number", min: o.min, max: o.max, step: 1, value: o.default, required: true,
    }), help);
  }

  function createForm(game) {
    const seatLabel = renderer(game.name).seatLabel || String;
    const form = h("form", {
      class: "create card", "data-game": game.name, onsubmit: (e) => {
        e.preventDefault();
        const f = new FormData(form);
        const get = (key) => f.get(key);
        const n = Number(f.get("seats"));
        const spec = { game: game.name, seats: n, options: readOptions(game.options, get),
          ...readOptions(tableOptions(game), get) };
        const bots = f.get("bots") === "on" ? n - 1 : 0;
        busy(async () => {
          if (!game.chips) return createAndSit(spec, bots);
          const buyIn = await askBuyIn(spec.options.stake, st.catalog.buy_in);
          if (buyIn !== null) await createAndSit(spec, bots, buyIn);
        });
      },
    });
    const seats = field(t("create.players"), h("select", { name: "seats" }, seatCounts(game).map((n) =>
      h("option", { value: n, selected: n === game.seats.default }, seatLabel(n)))));
    form.append(h("h3", {}, `${t("create.title")}: ${t(`game.${game.name}`)}`), seats,
      ...game.options.map(control), ...tableOptions(game).map(control),
      h("label", { class: "field check" }, h("input", { type: "checkbox", name: "bots", checked: true }),
        h("span", { class: "field-label" }, t("create.bots"))),
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "submit" }, t("create.submit")),
        h("button", { class: "btn btn-ghost", type: "button", onclick: () => store.set({ creating: null }) },
          t("create.cancel"))));
    return form;
  }

  function tablesSection() {
    const filters = ["all", ...games().map((g) => g.name)];
    const rows = st.tables.filter((x) => gameOf(x.game) && (st.filter === "all" || x.game === st.filter));
    return h("section", { class: "tables card" },
      h("div", { class: "tables-head" },
        h("h3", {}, t("lobby.tables")),
        h("button", { class: "btn btn-ghost", type: "button", onclick: load }, t("lobby.refresh"))),
      h("div", { class: "filters", role: "tablist" }, filters.map((f) => h("button", {
        class: `tab ${st.filter === f ? "on" : ""}`, type: "button", "data-filter": f,
        onclick: () => store.set({ filter: f }),
      }, f === "all" ? t("lobby.all") : t(`game.${f}`)))),
      rows.length ? h("ul", { class: "table-list" }, rows.map(tableRow))
        : h("p", { class: "muted" }, t("lobby.none")));
  }

  const draw = regionScheduler({
    title() { slots.title.set(h("h2", { class: "lobby-title" }, t("lobby.title"))); },
    cards() { slots.cards.set(st.catalog ? h("section", { class: "games" }, games().map(gameCard)) : null); },
    form() {
      const game = gameOf(st.creating);
      slots.form.set(game ? createForm(game) : null);
      if (game) el.querySelector("form.create")?.scrollIntoView({ block: "nearest" });
    },
    tables() { slots.tables.set(st.catalog ? tablesSection() : null); },
    board() {
      slots.board.set(st.catalog ? leaderboardSection(games().map((g) => g.name), st.board, st.pick,
        { pick: loadBoard }) : null);
    },
  });
  store.subscribe(draw.mark);
  draw.mark(null);
  load();
  loadBoard();
  const timer = setInterval(load, REFRESH_MS);
  return {
    rerender: () => draw.mark(null),
    destroy() { draw.stop(); clearInterval(timer); el.remove(); },
  };
}
