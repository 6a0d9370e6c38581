// Which sounds a table's state message makes for the person watching it (sound.js plays them):
// a tile placed, a Lewat (G-6), their turn, a round they won. Pure, so node --test checks it.

/** A tile put on the board (the engine too): it sounds and slides in (motion.js). */
export function isPlacement(ev) { return ev.type === "played" || ev.type === "engine_placed"; }

/** Did `seat` win the round this `round_over` event ends (the view `v` is the seat's)? */
export function wonRound(ev, v, seat) {
  if (typeof ev.winner === "number") return ev.winner === seat; // Gaple G-10, Domino Cross
  if (Array.isArray(ev.deltas) && v?.side_of) return ev.deltas[v.side_of[seat]] > 0; // Moon: the side that scored
  if (v?.game === "mexican_train" && Array.isArray(ev.scores)) {
    return ev.scores[seat] === Math.min(...ev.scores); // T-12: the fewest pips left
  }
  return false;
}

/**
 * The cue names of one live message: `events` it brought, the view `before` and `after` it.
 * A spectator (no seat) hears the tiles and the Lewat only; a replay (`replay`) has no turn to
 * take, so no "turn".
 */
export function cuesFor({ events, before, after, replay = false }) {
  const seat = after?.seat ?? null;
  const out = [];
  if (events.some(isPlacement)) out.push("tile");
  if (events.some((e) => e.type === "lewat")) out.push("lewat");
  if (seat !== null && events.some((e) => e.type === "round_over" && wonRound(e, after, seat))) out.push("win");
  if (!replay && seat !== null && after && !after.over && after.to_act === seat && before?.to_act !== seat) {
    out.push("turn");
  }
  return out;
}
