// Domino tiles drawn in SVG: pips for 0..12 (double-six and double-twelve sets).
// Board coordinates use a unit U: a tile lying flat is 2U x U, standing up U x 2U.

import { s } from "./dom.js";

export const U = 40;

// Pip centres in a half of a tile, as fractions of its width/height.
const L = 0.24, C = 0.5, R = 0.76, T = 0.24, M = 0.5, B = 0.76;
const C4 = [0.17, 0.39, 0.61, 0.83];
const PIPS = {
  0: [],
  1: [[C, M]],
  2: [[L, T], [R, B]],
  3: [[L, T], [C, M], [R, B]],
  4: [[L, T], [R, T], [L, B], [R, B]],
  5: [[L, T], [R, T], [C, M], [L, B], [R, B]],
  6: [[L, T], [R, T], [L, M], [R, M], [L, B], [R, B]],
  7: [[L, T], [R, T], [L, M], [C, M], [R, M], [L, B], [R, B]],
  8: [[L, T], [C, T], [R, T], [L, M], [R, M], [L, B], [C, B], [R, B]],
  9: [[L, T], [C, T], [R, T], [L, M], [C, M], [R, M], [L, B], [C, B], [R, B]],
  10: [...C4.map((y) => [L, y]), [C, 0.3], [C, 0.7], ...C4.map((y) => [R, y])],
  11: [...C4.map((y) => [L, y]), [C, 0.24], [C, M], [C, 0.76], ...C4.map((y) => [R, y])],
  12: [...C4.map((y) => [L, y]), ...C4.map((y) => [C, y]), ...C4.map((y) => [R, y])],
};

// One colour per number, as on coloured double-twelve sets; helps matching at a glance.
export const PIP_COLOURS = [
  "#222", "#1f6fd1", "#1b8a3a", "#c0392b", "#7a3fb0", "#b8860b", "#0e8c8c",
  "#d35400", "#2c3e94", "#8e2463", "#4b6b1f", "#a0522d", "#37474f",
];

function half(g, value, x, y, size) {
  const r = value >= 10 ? size * 0.075 : size * 0.095;
  for (const [px, py] of PIPS[value] || []) {
    g.append(s("circle", { cx: x + px * size, cy: y + py * size, r, fill: PIP_COLOURS[value] }));
  }
}

/**
 * A tile as an SVG group at (x, y) (its top-left corner) in board units.
 * `first` is drawn left (flat) or top (standing); opts: {vertical, cls, faceDown, data}.
 */
export function tileGroup(first, second, x, y, opts = {}) {
  const vertical = !!opts.vertical;
  const w = vertical ? U : 2 * U, hgt = vertical ? 2 * U : U, pad = 1.5;
  const g = s("g", { class: `tile ${opts.cls || ""}`.trim(), transform: `translate(${x} ${y})` });
  if (opts.data) for (const [k, v] of Object.entries(opts.data)) g.setAttribute(`data-${k}`, v);
  g.append(s("rect", {
    class: "tile-body", x: pad, y: pad, width: w - 2 * pad, height: hgt - 2 * pad,
    rx: U * 0.16,
  }));
  if (opts.faceDown) {
    g.classList.add("face-down");
    g.append(s("rect", {
      class: "tile-back", x: pad + 5, y: pad + 5, width: w - 2 * pad - 10,
      height: hgt - 2 * pad - 10, rx: U * 0.1,
    }));
    return g;
  }
  if (vertical) {
    g.append(s("line", { class: "tile-bar", x1: 6, y1: U, x2: U - 6, y2: U }));
    half(g, first, 0, 0, U);
    half(g, second, 0, U, U);
  } else {
    g.append(s("line", { class: "tile-bar", x1: U, y1: 6, x2: U, y2: U - 6 }));
    half(g, first, 0, 0, U);
    half(g, second, U, 0, U);
  }
  const label = opts.faceDown ? "" : `${first}|${second}`;
  if (label) g.append(s("title", { text: label }));
  return g;
}

/** A standalone <svg> of one tile (for hands), standing up by default. */
export function tileSvg(a, b, opts = {}) {
  const vertical = opts.vertical !== false;
  const w = vertical ? U : 2 * U, hgt = vertical ? 2 * U : U;
  const el = s("svg", {
    class: `tile-svg ${opts.cls || ""}`.trim(), viewBox: `0 0 ${w} ${hgt}`,
    role: "img", "aria-label": opts.faceDown ? opts.label || "" : `${a}|${b}`,
  });
  el.append(tileGroup(a, b, 0, 0, { vertical, faceDown: opts.faceDown }));
  return el;
}

/** Face-down tiles for another player's hand count: small overlapping backs. */
export function backsSvg(count, max = 8) {
  const shown = Math.min(count, max);
  const step = U * 0.45;
  const w = Math.max(U, step * (shown - 1) + U);
  const el = s("svg", { class: "backs-svg", viewBox: `0 0 ${w} ${2 * U}` });
  for (let i = 0; i < shown; i++) el.append(tileGroup(0, 0, i * step, 0, { vertical: true, faceDown: true }));
  return el;
}
