// The size of the hand's tiles: as big as the stylesheet draws them, smaller when a long hand
// (Mexican Train after drawing, 21 tiles and more) would push its rows off the screen, so that
// every hand fits the viewport with the board (docs/players.md "How to play"). Pure: node --test.

/**
 * The widest tile (px; a tile stands twice as tall) at which `n` tiles, wrapped in rows across
 * `width` px with `gap` px between them, and lifted `lift` px when playable, take at most
 * `height` px: from `max` down to `min`. Returns {tile, perRow, rows}; at `min` the rows may
 * still be taller than `height` (the tiles would be too small to read below it).
 */
export function handFit(n, width, height, { max = 54, min = 24, gap = 6, lift = 14 } = {}) {
  const at = (w) => {
    const perRow = Math.max(1, Math.floor((width + gap) / (w + gap)));
    const rows = Math.max(1, Math.ceil(n / perRow));
    return { tile: w, perRow, rows, height: rows * 2 * w + (rows - 1) * gap + lift };
  };
  for (let w = Math.floor(max); w > min; w -= 1) {
    const fit = at(w);
    if (fit.height <= height) return fit;
  }
  return at(min);
}

/** The room a hand may take: a share of the felt's height, never less than one row of `max`. */
export function handRoom(feltHeight, max, share = 0.3) {
  return Math.max(2 * max + 14, feltHeight * share);
}
