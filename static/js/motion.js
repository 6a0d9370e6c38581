// A tile played slides from its player's plate to its place on the board (Web Animations API,
// on the CSS `translate` property, so the piece's own SVG transform stays its place). Nothing
// moves for people who ask for reduced motion.

export const SLIDE_MS = 450;
const REDUCED = globalThis.matchMedia?.("(prefers-reduced-motion: reduce)");

/** The board's piece showing `tile` either way round (tiles.js names each piece "a|b"). */
export function placedTile(board, tile) {
  const names = [`${tile[0]}|${tile[1]}`, `${tile[1]}|${tile[0]}`];
  for (const g of board.querySelectorAll("g.tile")) {
    if (names.includes(g.querySelector(":scope > title")?.textContent)) return g;
  }
  return null;
}

/** Slide `piece` (an SVG group on the board) in from the centre of `plate`; the animation. */
export function slideFrom(piece, plate) {
  if (REDUCED?.matches || !piece || !plate) return null;
  const ctm = piece.parentNode?.getScreenCTM?.();
  if (!ctm) return null;
  const centre = (r) => new DOMPoint(r.x + r.width / 2, r.y + r.height / 2);
  const back = ctm.inverse(); // screen pixels -> the board's units around the piece
  const from = centre(plate.getBoundingClientRect()).matrixTransform(back);
  const to = centre(piece.getBoundingClientRect()).matrixTransform(back);
  return piece.animate(
    [{ translate: `${from.x - to.x}px ${from.y - to.y}px` }, { translate: "0px 0px" }],
    { duration: SLIDE_MS, easing: "cubic-bezier(.2, .7, .3, 1)" });
}
