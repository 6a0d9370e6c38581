// The lobby: games with one-click play against bots and quick join, the player's own tables
// first ("Kembali ke meja"), the public tables filtered by game, stake and an open seat and
// sorted by the server (GET /api/tables), joining a private table by its code, a create form
// built from the server's descriptors (GET /api/games) that explains each option, spectating,
// a rules page per game (#/rules/<game>, rules.js) and the leaderboards (leaderboard.js).
//
// One store for the page (store.js). The lists refresh every 5 s and redraw only their own
// region. What the player types is never drawn from a refresh: the filters and the join field
// live in regions of their own, and the create form keeps its draft (every field's value), so
// a redraw (the language switch) puts back what was typed.

import { avatar } from "./avatars.js";
import { h, slot } from "./dom.js";
import { t, has } from "./i18n.js";
import { api } from "./api.js";
import { loadCatalog } from "./catalog.js";
import { optionTags, readOptions, seatCounts } from "./options.js";
import { createStore, regionScheduler } from "./store.js";
import { renderer } from "./games/index.js";
import { tileSvg } from "./tiles.js";
import { leaderboardSection, PER_PAGE } from "./leaderboard.js";
import { copyInvite } from "./invite.js";
import { askBuyIn } from "./buy_in.js";
import { SHORT_CODES, explainRefusal, shortOfChips } from "./short_chips.js";
import { lockedText, opens, roomsSection } from "./rooms.js";
import { friendsPanel } from "./friends.js";
import { missionsPanel } from "./missions.js";

const REFRESH_MS = 5000;

const SHOWS = { query: ["tables"], tables: ["tables"], mine: ["mine", "tables"], loaded: ["tables"],
  creating: ["form"], board: ["board"], pick: ["board"], rooms: ["rooms"] };
const SORTS = ["newest", "stake_low", "stake_high", "open_seats"];
// The open tables' two lists (GET /api/tables `seats`): a seat to take, or full, only to watch.
const SEAT_TABS = ["open", "full"];

/** Every named field of a form as [name, value] (a checkbox or radio: whether it is checked). */
function fieldsOf(form) {
  return [...form.elements].filter((e) => e.name).map((e) =>
    [e.name, e.type === "checkbox" || e.type === "radio" ? e.checked : e.value, e.value]);
}

/** Put back what fieldsOf read (a radio by its value). */
function restore(form, fields) {
  for (const [name, got, value] of fields) {
    for (const e of form.elements) {
      if (e.name !== name) continue;
      if (e.type === "radio") { if (e.value === value) e.checked = got; }
      else if (e.type === "checkbox") e.checked = got;
      else e.value = got;
    }
  }
}

export function mountLobby(root, { open, toast, errorText, refreshMe }) {
  const store = createStore({ catalog: null, query: { game: "", stake: "", seats: "open", sort: "newest" },
    tables: [], mine: [], loaded: false, creating: null, board: null, rooms: null,
    pick: { game: "gaple", period: "week", page: 1 } }, SHOWS);
  const st = store.state;
  let draft = null; // the create form's fields as typed: {game, fields: [[name, value | checked]]}
  let busyNow = false;
  const el = h("div", { class: "lobby" });
  const slots = { title: slot(), cards: slot(), rooms: slot(), form: slot(), mine: slot(), join: slot(),
    controls: slot(), tables: slot(), board: slot() };
  // the public tables' card holds two regions: its controls and the list they ask for
  const tablesCard = h("section", { class: "tables card" }, slots.controls.node, slots.tables.node);
  // friends (with the invites to a table) and the daily missions: their own regions, read with
  // the lists (friends.js, missions.js)
  const friends = friendsPanel({ sit: (table) => sit(table), open, toast });
  const missions = missionsPanel({ paid: (text) => { toast(text, "ok"); refreshMe(); } });
  const social = h("div", { class: "social" }, friends.node, missions.node);
  el.append(slots.title.node, friends.invites, slots.mine.node, slots.cards.node, slots.rooms.node, social,
    slots.form.node, slots.join.node, tablesCard, slots.board.node);
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

  /** The game played in stake rooms (the first played for chips), once the catalog is in. */
  function roomsGame() { return games().find((g) => g.chips) || null; }

  /** The public tables for the current filters, the player's own and the stake rooms; an answer
   * for an older query is dropped. */
  async function load() {
    if (!st.catalog) await loadGames();
    const query = st.query;
    const game = roomsGame();
    friends.refresh();
    missions.refresh();
    try {
      const [tables, mine, rooms] = await Promise.all([api.tables(query), api.myTables(),
        game ? api.rooms(game.name).catch(() => st.rooms) : null]); // the rooms: never the list's failure
      if (st.query === query) store.set({ tables, mine, rooms, loaded: true });
    } catch (err) { if (!st.loaded) toast(errorText(err), "error"); }
  }

  function filter(patch) {
    store.set({ query: { ...st.query, ...patch } });
    load();
  }

  async function busy(fn) {
    if (busyNow) return;
    busyNow = true;
    el.classList.add("busy");
    try { await fn(); } catch (err) {
      if (SHORT_CODES.includes(err?.code)) load(); // the rooms as the wallet opens them now
      if (!(await explainRefusal(err, errorText))) toast(errorText(err), "error");
    } finally {
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

  /** The game's default table, the other seats bots; a chips game asks the buy-in first. */
  function vsBots(game) {
    const n = game.seats.default;
    const spec = { game: game.name, seats: n, options: {} };
    return busy(async () => {
      if (!game.chips) return createAndSit(spec, n - 1);
      const stake = game.options.find((o) => o.key === "stake").default;
      const buyIn = await askBuyIn(stake, st.catalog.buy_in);
      if (buyIn !== null) await createAndSit(spec, n - 1, buyIn);
    });
  }

  /** An open seat of the game; a chips game's in a stake room (`room`, else the one the wallet
   * opens: the rooms are read afresh), with the buy-in asked. A room the wallet does not open
   * says so, and where more chips are. */
  function quick(game, room = null) {
    return busy(async () => {
      let res;
      if (!game.chips) {
        res = await api.quickJoin(game.name);
      } else {
        const rooms = await api.rooms(game.name);
        store.set({ rooms });
        const pick = rooms.rooms.find((r) => r.stake === (room?.stake ?? rooms.suggested)) || rooms.rooms[0];
        if (!opens(pick, rooms.wallet)) return shortOfChips(null, lockedText(pick, rooms.wallet));
        const buyIn = await askBuyIn(pick.stake, st.catalog.buy_in, { room: true });
        if (buyIn === null) return;
        res = await api.quickJoin(game.name, pick.stake, buyIn);
      }
      refreshMe();
      open(tableId(res.table));
    });
  }

  function openSeat(table) { return (table.seats || []).findIndex((p) => !p || (!p.name && !p.bot)); }

  function sit(table) {
    const seat = openSeat(table);
    const chips = !!gameOf(table.game)?.chips;
    return busy(async () => {
      const buyIn = chips ? await askBuyIn(table.stake, st.catalog.buy_in) : null;
      if (chips && buyIn === null) return;
      await api.sit(tableId(table), seat, buyIn);
      refreshMe();
      open(tableId(table));
    });
  }

  /** A private table by its code: a wrong one is said under the field (what was typed stays);
   * a right one goes to its invite link (#/join/<code>, app.js), which seats the player. */
  function joinByCode(code, shown) {
    return busy(async () => {
      try {
        const table = await api.byCode(code);
        location.hash = `#/join/${encodeURIComponent(table.code)}`;
      } catch (err) { shown.textContent = errorText(err); }
    });
  }

  function gameCard(game) {
    const [a, b] = renderer(game.name).cardTile;
    return h("article", { class: `game-card game-${game.name}`, "data-game": game.name },
      h("span", { class: "card-tile", "aria-hidden": "true" }, tileSvg(a, b, { vertical: false })),
      h("h3", {}, t(`game.${game.name}`)),
      h("p", {}, t(`game.${game.name}.about`)),
      h("a", { class: "card-rules", href: `#/rules/${game.name}`, "data-action": "rules" }, t("rules.link")),
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "button", "data-action": "bots", onclick: () => vsBots(game) },
          t("lobby.bots")),
        h("button", { class: "btn", type: "button", "data-action": "quick", onclick: () => quick(game) },
          t("lobby.quick")),
        h("button", { class: "btn btn-ghost", type: "button", "data-action": "create",
          onclick: () => store.set({ creating: game.name }) }, t("lobby.create"))));
  }

  /** One table of a list; `mine`: the player sits there, so the row takes them back. */
  function tableRow(x, mine = false) {
    const game = gameOf(x.game);
    const seats = x.seats || [];
    const n = x.n_seats ?? seats.length;
    const taken = seats.filter((p) => p && (p.name || p.player_id || p.bot)).length;
    const free = taken < n;
    const tags = [...optionTags(game.options, x.options, t, has, { chips: game.chips }),
      ...optionTags(tableOptions(game), x, t, has)];
    return h("li", { class: "table-row", "data-table": tableId(x), "data-game": x.game },
      h("div", { class: "table-main" },
        h("strong", { class: "table-name" }, x.name), h("span", {}, t(`game.${x.game}`)),
        h("span", { class: "pill" }, game.chips ? t("lobby.stake", { n: x.stake ?? x.options?.stake })
          : t("lobby.no_stake")),
        h("span", { class: "pill" }, t("lobby.seats", { taken, n })),
        h("span", { class: `pill ${x.status === "playing" ? "pill-live" : ""}` },
          t(x.status === "playing" ? "lobby.playing" : "lobby.waiting")),
        x.private ? h("span", { class: "pill pill-private" }, t("lobby.private_code", { code: x.code })) : null,
        tags.map((tag) => h("span", { class: "pill pill-soft" }, tag))),
      h("div", { class: "table-seats" }, seats.map((p) => h("span", { class: `seat-chip ${p?.bot ? "bot" : ""}` },
        p && (p.name || p.bot) ? [avatar(p.avatar, 18), p.name || t("lobby.bot")] : t("lobby.empty_seat")))),
      mine ? h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "button", "data-action": "back", onclick: () => open(tableId(x)) },
          t("lobby.back")),
        x.private ? h("button", { class: "btn btn-ghost", type: "button", "data-action": "invite",
          onclick: () => copyInvite(x.code, toast) }, t("lobby.invite")) : null)
        : h("div", { class: "row" },
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
          private: f.get("private") === "on", ...readOptions(tableOptions(game), get) };
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
      h("label", { class: "field check" }, h("input", { type: "checkbox", name: "private" }),
        h("span", { class: "field-label" }, t("create.private")), h("small", {}, t("create.private.help"))),
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "submit" }, t("create.submit")),
        h("button", { class: "btn btn-ghost", type: "button", onclick: () => { draft = null; store.set({ creating: null }); } },
          t("create.cancel"))));
    if (draft?.game === game.name) restore(form, draft.fields);
    const keep = () => { draft = { game: game.name, fields: fieldsOf(form) }; };
    form.addEventListener("input", keep);
    form.addEventListener("change", keep);
    return form;
  }

  /** The player's own tables, first, each with "Kembali ke meja". */
  function mineSection() {
    const rows = st.mine.filter((x) => gameOf(x.game));
    return rows.length ? h("section", { class: "mine card" }, h("h3", {}, t("lobby.mine")),
      h("ul", { class: "table-list" }, rows.map((x) => tableRow(x, true)))) : null;
  }

  /** Joining a private table by its code; drawn once, so a refresh never clears it. */
  function joinSection() {
    const shown = h("p", { class: "join-error", role: "alert" });
    const input = h("input", { name: "code", autocomplete: "off", autocapitalize: "characters",
      maxlength: 9, placeholder: t("lobby.code.placeholder"), "aria-label": t("lobby.code") });
    return h("form", { class: "join card", onsubmit: (e) => {
      e.preventDefault();
      shown.textContent = "";
      if (input.value.trim()) joinByCode(input.value, shown);
    } },
    h("label", { class: "field-label", for: "join-code" }, t("lobby.code")),
    Object.assign(input, { id: "join-code" }),
    h("button", { class: "btn", type: "submit" }, t("lobby.code.go")),
    shown);
  }

  /** Game tabs, stake, open seats and order: the server filters and sorts (GET /api/tables).
   * Drawn from the query, not from the list, so the refresh leaves them alone. */
  function controls() {
    const q = st.query;
    const stake = games().find((g) => g.chips)?.options.find((o) => o.key === "stake");
    return h("div", { class: "tables-controls" },
      h("div", { class: "tables-head" },
        h("h3", {}, t("lobby.tables")),
        h("button", { class: "btn btn-ghost", type: "button", onclick: load }, t("lobby.refresh"))),
      h("div", { class: "filters seat-tabs", role: "tablist" }, SEAT_TABS.map((v) => h("button", {
        class: `tab ${q.seats === v ? "on" : ""}`, type: "button", role: "tab", "data-seats": v,
        "aria-selected": String(q.seats === v),
        onclick: (e) => {
          for (const x of e.currentTarget.parentNode.children) {
            x.classList.toggle("on", x === e.currentTarget);
            x.setAttribute("aria-selected", String(x === e.currentTarget));
          }
          filter({ seats: v });
        },
      }, t(`lobby.seats.${v}`)))),
      h("div", { class: "filters", role: "tablist" }, ["", ...games().map((g) => g.name)].map((f) => h("button", {
        class: `tab ${q.game === f ? "on" : ""}`, type: "button", "data-filter": f || "all",
        onclick: (e) => {
          for (const b of e.currentTarget.parentNode.children) b.classList.toggle("on", b === e.currentTarget);
          filter({ game: f });
        },
      }, f ? t(`game.${f}`) : t("lobby.all")))),
      h("div", { class: "filters filter-fields" },
        stake ? h("label", { class: "filter" }, h("span", {}, t("lobby.filter.stake")),
          h("input", { name: "stake", type: "number", inputmode: "numeric", min: stake.min, max: stake.max,
            step: 1, value: q.stake, placeholder: t("lobby.filter.any_stake"),
            onchange: (e) => filter({ stake: e.target.validity.valid ? e.target.value : "" }) })) : null,
        h("label", { class: "filter" }, h("span", {}, t("lobby.sort")),
          h("select", { name: "sort", onchange: (e) => filter({ sort: e.target.value }) },
            SORTS.map((o) => h("option", { value: o, selected: o === q.sort }, t(`lobby.sort.${o}`)))))));
  }

  function tablesSection() {
    const mine = new Set(st.mine.map(tableId));
    const rows = st.tables.filter((x) => gameOf(x.game) && !mine.has(tableId(x)));
    return rows.length ? h("ul", { class: "table-list" }, rows.map((x) => tableRow(x)))
      : h("p", { class: "muted" }, t(st.query.seats === "full" ? "lobby.none_full"
        : st.query.game || st.query.stake ? "lobby.none_match" : "lobby.none"));
  }

  const draw = regionScheduler({
    title() { slots.title.set(h("h2", { class: "lobby-title" }, t("lobby.title"))); },
    cards() { slots.cards.set(st.catalog ? h("section", { class: "games" }, games().map(gameCard)) : null); },
    rooms() {
      const game = roomsGame();
      slots.rooms.set(game && st.rooms ? roomsSection(game.name, st.rooms, (room) => quick(game, room)) : null);
    },
    form() {
      const game = gameOf(st.creating);
      slots.form.set(game ? createForm(game) : null);
      if (game) el.querySelector("form.create")?.scrollIntoView({ block: "nearest" });
    },
    mine() { slots.mine.set(st.catalog ? mineSection() : null); },
    join() { slots.join.set(st.catalog ? joinSection() : null); },
    controls() { slots.controls.set(st.catalog ? controls() : null); },
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
    rerender: () => { draw.mark(null); friends.rerender(); missions.rerender(); },
    destroy() { draw.stop(); clearInterval(timer); el.remove(); },
  };
}
