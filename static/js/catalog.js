// The games this server plays (GET /api/games: seats, options, chips), fetched once per page
// load and shared by the lobby and the table page.

import { api } from "./api.js";

let loading = null;
let known = null;

/** {games, table_options}; a failed fetch is tried again on the next call. */
export function loadCatalog() {
  if (!loading) {
    loading = api.games().then((c) => { known = c; return c; }, (err) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

/** A game's descriptor once the catalog is loaded, else null. */
export function descriptor(name) {
  return known?.games.find((g) => g.name === name) || null;
}
