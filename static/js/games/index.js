// The game renderers, by the name GET /api/games gives each game: the one list of games in the
// client (the server's descriptors say the rest: seats, options, chips). A renderer draws its
// board, names its choices, fills its seat plates and its result panel; see gaple.js.

import cross from "./cross.js";
import gaple from "./gaple.js";
import mexicanTrain from "./mexican_train.js";
import moon from "./moon.js";

export const RENDERERS = { gaple, moon, cross, mexican_train: mexicanTrain };

/** The renderer of a game, or null for a game this client cannot draw. */
export function renderer(game) {
  return Object.hasOwn(RENDERERS, game) ? RENDERERS[game] : null;
}
