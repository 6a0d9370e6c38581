// The players' avatars (static/img/avatars/<id>.svg, drawn in the project; the set and each
// player's default come from the server: app/services/avatars.py). A seat, a board row and a
// profile carry the avatar's id; an unknown or missing one shows nothing rather than a broken
// picture.

import { h } from "./dom.js";

const ID = /^[a-z]+$/;

/** The avatar `id` as an image of `size` pixels (decorative: the name stands beside it). */
export function avatar(id, size = 24, cls = "") {
  if (!id || !ID.test(id)) return null;
  return h("img", { class: `avatar ${cls}`.trim(), src: `/img/avatars/${id}.svg`, alt: "",
    width: size, height: size, "data-avatar": id, draggable: "false" });
}
