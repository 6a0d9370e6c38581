// A game's options as the server describes them (GET /api/games; app/games/base.py Option):
// the short words for a table's options in the lobby list and the values a create form sends.
// Pure: the dictionary lookups come in as `t` and `has` (node --test calls these directly).

/**
 * Short words for the options of a table that differ from their defaults ("Bidang Bet",
 * "Target 50"). Each is `short.<key>.<value>` (a choice), `short.<key>.on|off` (a switch) or
 * `short.<key>` with {n} (a number) when the dictionary has it, else the option's own label.
 * A chips game's stake is left out: the lobby shows it as its own pill.
 */
export function optionTags(declared, values, t, has, { chips = false } = {}) {
  const tags = [];
  for (const o of declared || []) {
    const value = values?.[o.key];
    if (value === undefined || value === null || value === o.default) continue;
    if (chips && o.key === "stake") continue;
    tags.push(optionTag(o, value, t, has));
  }
  return tags;
}

function optionTag(o, value, t, has) {
  if (o.type === "choice") {
    const key = `short.${o.key}.${value}`;
    return has(key) ? t(key) : t(`${o.label}.${value}`);
  }
  if (o.type === "bool") {
    const key = `short.${o.key}.${value ? "on" : "off"}`;
    return has(key) ? t(key) : `${t(o.label)}: ${t(value ? "opt.on" : "opt.off")}`;
  }
  const key = `short.${o.key}`;
  return has(key) ? t(key, { n: value }) : `${t(o.label)}: ${value}`;
}

/**
 * The values of declared options from a form: `get(key)` is the field's raw value (a
 * checkbox's "on" or null). A choice keeps its declared value's type.
 */
export function readOptions(declared, get) {
  const out = {};
  for (const o of declared || []) {
    const raw = get(o.key);
    if (o.type === "bool") out[o.key] = raw === "on";
    else if (o.type === "int") out[o.key] = Number(raw);
    else out[o.key] = (o.choices || []).find((c) => String(c) === raw) ?? o.default;
  }
  return out;
}

/** The seat counts a game may be played with, smallest first. */
export function seatCounts(game) {
  const out = [];
  for (let n = game.seats.min; n <= game.seats.max; n++) out.push(n);
  return out;
}
