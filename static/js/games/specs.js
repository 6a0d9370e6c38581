// What the lobby needs to know about each game: seats and the options of RULES.md, so the
// create form can explain them in plain words.

export const GAME_IDS = ["gaple", "moon", "cross", "mexican_train"];

export const SPECS = {
  gaple: {
    seats: [2, 3, 4], defaultSeats: 4, stake: true,
    options: [
      { key: "field", type: "choice", choices: ["normal", "bet"], default: "normal" },
      { key: "opener", type: "choice", choices: ["random", "previous_winner"], default: "random" },
    ],
  },
  moon: {
    seats: [4, 3], defaultSeats: 4, seatsOption: "players",
    options: [{ key: "first_lead_trump", type: "bool", default: false, help: true }],
  },
  cross: {
    seats: [2, 3, 4], defaultSeats: 4,
    options: [
      { key: "target", type: "int", default: 100, min: 1, max: 10000, help: true },
      { key: "draw_until_playable", type: "bool", default: false, help: true },
    ],
  },
  mexican_train: {
    seats: [2, 3, 4, 5, 6, 7, 8], defaultSeats: 4,
    options: [
      { key: "rounds", type: "int", default: 13, min: 1, max: 13, help: true },
      { key: "first_turn_multi", type: "bool", default: true, help: true },
      { key: "doubles", type: "choice", choices: ["satisfy", "chain"], default: "satisfy" },
    ],
  },
};

/** Short words for a table's options in the lobby list (only what differs from the default). */
export function optionTags(game, options, t) {
  const o = options || {};
  const tags = [];
  if (game === "gaple") {
    tags.push(t(o.field === "bet" ? "short.field.bet" : "short.field.normal"));
    if (o.opener === "previous_winner") tags.push(t("short.opener.previous_winner"));
  } else if (game === "moon") {
    if (o.players === 3) tags.push(t("short.players.3"));
    if (o.first_lead_trump) tags.push(t("short.first_lead_trump"));
  } else if (game === "cross") {
    tags.push(t("short.target", { n: o.target ?? 100 }));
    if (o.draw_until_playable) tags.push(t("short.draw_until_playable"));
  } else if (game === "mexican_train") {
    tags.push(t("short.rounds", { n: o.rounds ?? 13 }));
    if (o.first_turn_multi === false) tags.push(t("short.one_first_tile"));
    if (o.doubles === "chain") tags.push(t("short.doubles.chain"));
  }
  return tags;
}
