// The lobby: games with one-click play against bots and quick join, the open tables by game
// (stake, seats taken, options), a create form that explains each option, and spectating.

import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { GAME_IDS, SPECS, optionTags } from "./games/specs.js";
import { tileSvg } from "./tiles.js";

const CARD_TILE = { gaple: [6, 6], moon: [4, 1], cross: [5, 5], mexican_train: [12, 12] };

const REFRESH_MS = 5000;

export function mountLobby(root, { open, toast, errorText, refreshMe }) {
  const st = { filter: "all", tables: [], loaded: false, creating: null, busy: false };
  const el = h("div", { class: "lobby" });
  root.append(el);

  async function load() {
    try {
      const res = await api.tables();
      st.tables = res || [];
      st.loaded = true;
      render();
    } catch (err) { if (!st.loaded) toast(errorText(err), "error"); }
  }

  async function busy(fn) {
    if (st.busy) return;
    st.busy = true;
    el.classList.add("busy");
    try { await fn(); } catch (err) { toast(errorText(err), "error"); } finally {
      st.busy = false;
      el.classList.remove("busy");
    }
  }

  function tableId(x) { return x.id ?? x.table_id; }

  async function createAndSit(game, options, seats, bots, stake, turnSeconds) {
    const spec = { game, seats, options: stake === undefined ? options : { ...options, stake } };
    if (turnSeconds) spec.turn_seconds = turnSeconds;
    const table = await api.createTable(spec);
    const id = tableId(table);
    await api.sit(id, 0);
    if (bots > 0) await api.addBots(id);
    refreshMe();
    open(id);
  }

  function vsBots(game) {
    return busy(() => {
      const spec = SPECS[game];
      const n = spec.defaultSeats;
      const options = spec.seatsOption ? { [spec.seatsOption]: n } : {};
      return createAndSit(game, options, n, n - 1, spec.stake ? 10 : undefined);
    });
  }

  function quick(game) {
    return busy(async () => {
      const res = await api.quickJoin(game);
      refreshMe();
      open(tableId(res.table));
    });
  }

  function sit(table) {
    const seat = (table.seats || []).findIndex((p) => !p || (!p.name && !p.bot));
    return busy(async () => { await api.sit(tableId(table), seat); refreshMe(); open(tableId(table)); });
  }

  function gameCard(game) {
    const [a, b] = CARD_TILE[game];
    return h("article", { class: `game-card game-${game}`, "data-game": game },
      h("span", { class: "card-tile", "aria-hidden": "true" }, tileSvg(a, b, { vertical: false })),
      h("h3", {}, t(`game.${game}`)),
      h("p", {}, t(`game.${game}.about`)),
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "button", "data-action": "bots", onclick: () => vsBots(game) },
          t("lobby.bots")),
        h("button", { class: "btn", type: "button", "data-action": "quick", onclick: () => quick(game) },
          t("lobby.quick")),
        h("button", { class: "btn btn-ghost", type: "button", "data-action": "create",
          onclick: () => { st.creating = game; render(); } }, t("lobby.create"))));
  }

  function tableRow(x) {
    const seats = x.seats || [];
    const n = x.n_seats ?? seats.length;
    const taken = seats.filter((p) => p && (p.name || p.player_id || p.bot)).length;
    const free = taken < n;
    const stake = x.stake ?? x.options?.stake;
    return h("li", { class: "table-row", "data-table": tableId(x), "data-game": x.game },
      h("div", { class: "table-main" },
        h("strong", {}, t(`game.${x.game}`)),
        h("span", { class: "pill" }, stake ? t("lobby.stake", { n: stake }) : t("lobby.no_stake")),
        h("span", { class: "pill" }, t("lobby.seats", { taken, n })),
        h("span", { class: `pill ${x.status === "playing" ? "pill-live" : ""}` },
          t(x.status === "playing" ? "lobby.playing" : "lobby.waiting")),
        optionTags(x.game, x.options, t).map((tag) => h("span", { class: "pill pill-soft" }, tag))),
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

  function createForm(game) {
    const spec = SPECS[game];
    const controls = [];
    const form = h("form", {
      class: "create card", "data-game": game, onsubmit: (e) => {
        e.preventDefault();
        const f = new FormData(form);
        const n = Number(f.get("seats"));
        const options = {};
        for (const o of spec.options) {
          if (o.type === "bool") options[o.key] = f.get(o.key) === "on";
          else if (o.type === "int") options[o.key] = Number(f.get(o.key));
          else options[o.key] = f.get(o.key);
        }
        if (spec.seatsOption) options[spec.seatsOption] = n;
        const bots = f.get("bots") === "on" ? n - 1 : 0;
        busy(() => createAndSit(game, options, n, bots,
          spec.stake ? Number(f.get("stake")) : undefined, Number(f.get("turn_seconds"))));
      },
    });
    controls.push(field(t("create.players"), h("select", { name: "seats" }, spec.seats.map((n) => h("option", {
      value: n, selected: n === spec.defaultSeats,
    }, game === "moon" ? t(`opt.players.${n}`) : String(n))))));
    if (spec.stake) {
      controls.push(field(t("create.stake"),
        h("input", { name: "stake", type: "number", min: 1, value: 10, required: true }), t("create.stake.help")));
    }
    for (const o of spec.options) {
      if (o.type === "choice") {
        controls.push(h("fieldset", { class: "field" }, h("legend", {}, t(`opt.${o.key}`)),
          o.choices.map((c) => h("label", { class: "radio" },
            h("input", { type: "radio", name: o.key, value: c, checked: c === o.default }),
            " ", t(`opt.${o.key}.${c}`)))));
      } else if (o.type === "bool") {
        controls.push(h("label", { class: "field check" },
          h("input", { type: "checkbox", name: o.key, checked: o.default }),
          h("span", { class: "field-label" }, t(`opt.${o.key}`)),
          o.help ? h("small", {}, t(`opt.${o.key}.help`)) : null));
      } else {
        controls.push(field(t(`opt.${o.key}`), h("input", {
          name: o.key, type: "number", min: o.min, max: o.max, value: o.default, required: true,
        }), o.help ? t(`opt.${o.key}.help`) : null));
      }
    }
    controls.push(field(t("create.turn_seconds"),
      h("input", { name: "turn_seconds", type: "number", min: 5, max: 120, value: 20 }), t("create.turn_seconds.help")));
    controls.push(h("label", { class: "field check" }, h("input", { type: "checkbox", name: "bots", checked: true }),
      h("span", { class: "field-label" }, t("create.bots"))));
    form.append(h("h3", {}, `${t("create.title")}: ${t(`game.${game}`)}`), ...controls,
      h("div", { class: "row" },
        h("button", { class: "btn btn-primary", type: "submit" }, t("create.submit")),
        h("button", { class: "btn btn-ghost", type: "button", onclick: () => { st.creating = null; render(); } },
          t("create.cancel"))));
    return form;
  }

  function render() {
    clear(el);
    const filters = ["all", ...GAME_IDS];
    el.append(...[
      h("h2", { class: "lobby-title" }, t("lobby.title")),
      h("section", { class: "games" }, GAME_IDS.map(gameCard)),
      st.creating ? createForm(st.creating) : null,
      h("section", { class: "tables card" },
        h("div", { class: "tables-head" },
          h("h3", {}, t("lobby.tables")),
          h("button", { class: "btn btn-ghost", type: "button", onclick: load }, t("lobby.refresh"))),
        h("div", { class: "filters", role: "tablist" }, filters.map((f) => h("button", {
          class: `tab ${st.filter === f ? "on" : ""}`, type: "button", "data-filter": f,
          onclick: () => { st.filter = f; render(); },
        }, f === "all" ? t("lobby.all") : t(`game.${f}`)))),
        (() => {
          const rows = st.tables.filter((x) => st.filter === "all" || x.game === st.filter);
          return rows.length ? h("ul", { class: "table-list" }, rows.map(tableRow))
            : h("p", { class: "muted" }, t("lobby.none"));
        })()),
    ].filter(Boolean));
    if (st.creating) el.querySelector("form.create")?.scrollIntoView({ block: "nearest" });
  }

  render();
  load();
  const timer = setInterval(load, REFRESH_MS);
  return {
    rerender: render,
    destroy() { clearInterval(timer); el.remove(); },
  };
}
