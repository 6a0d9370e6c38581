// Tiny DOM helpers: build HTML and SVG elements without a framework or build step.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children, isSvg) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else if (k === "class" && !isSvg) el.className = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** h("div", {class: "x", onclick: f}, child, "text") */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children, false);
}

/** s("rect", {x: 0, y: 0}) — an SVG element */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children, true);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/**
 * A place in the page whose content is replaced as a whole: put `slot.node` where it goes,
 * then `slot.set(node)` swaps it (null leaves an empty comment, so the place is kept).
 */
export function slot() {
  let current = document.createComment("");
  return {
    get node() { return current; },
    set(next) {
      const node = next || document.createComment("");
      current.replaceWith(node);
      current = node;
    },
  };
}

/** A v4 uuid, also outside secure contexts (plain http on a LAN address). */
export function uuid() {
  if (globalThis.crypto?.randomUUID) {
    try { return crypto.randomUUID(); } catch { /* not a secure context */ }
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((n) => n.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export function sameTile(a, b) {
  return a && b && ((a[0] === b[0] && a[1] === b[1]) || (a[0] === b[1] && a[1] === b[0]));
}
