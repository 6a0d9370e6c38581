// Where the seat plates sit around the board, counted clockwise from the viewer (pure, so
// node --test checks it without a page).

/** Seat `seat` counted clockwise from the viewer `me` (a spectator sees from seat 0). */
export function relativeSeat(seat, me, n) {
  return (seat - (me ?? 0) + n) % n;
}

/**
 * "bottom" (the viewer), "left", "top" or "right" for a seat `rel` places after the viewer.
 * Five players or more: a `wide` felt puts them on its two sides (up the left, then down the
 * right), so the board keeps its height; a phone's puts them in rows above the board.
 */
export function platePosition(rel, n, wide = false) {
  if (rel === 0) return "bottom";
  if (n === 2) return "top";
  if (n === 3) return rel === 1 ? "left" : "right";
  if (n === 4) return ["bottom", "left", "top", "right"][rel];
  if (wide) return rel <= Math.ceil((n - 1) / 2) ? "left" : "right";
  return "top";
}
