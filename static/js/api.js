// REST calls of the lobby. Every route the client uses is named here, once.

export class ApiError extends Error {
  constructor(status, body) {
    super(ApiError.text(body) || `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.code = ApiError.codeOf(body);
  }

  /** The stable code: `code`, or the type of a 422's first `detail` (the field's problem). */
  static codeOf(body) {
    if (body && typeof body.code === "string") return body.code;
    const d = body && body.detail;
    return Array.isArray(d) && d[0] && typeof d[0].type === "string" ? d[0].type : null;
  }

  static text(body) {
    const d = body && (body.message || body.detail);
    if (Array.isArray(d)) return d.map((x) => x.msg).join("; ");
    return typeof d === "string" ? d : "";
  }
}

// Signed in through HttpOnly cookies only (the server sets them): no token is kept where a
// script could read it, nor put in a URL. An expired access token (401 `token_expired`) is
// refreshed once through the refresh cookie and the call made again.
let refreshing = null;

/** One refresh at a time, shared by every caller (tabs and sockets expire together). */
export function refreshSession() {
  refreshing ??= send("POST", "/api/session/refresh").finally(() => { refreshing = null; });
  return refreshing;
}

async function send(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { /* empty body */ }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

async function call(method, path, body) {
  try {
    return await send(method, path, body);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== "token_expired") throw err;
    await refreshSession();
    return send(method, path, body);
  }
}

const tablePath = (id) => `/api/tables/${encodeURIComponent(id)}`;

export const api = {
  games: () => call("GET", "/api/games"),
  register: (name) => call("POST", "/api/players", { name }),
  /** The limits of a name, a username and a password: the hints say the server's numbers. */
  rules: () => send("GET", "/api/players/rules"),
  /** A new account, or (signed in as a guest) that guest saved as an account. */
  signUp: (username, password) => call("POST", "/api/accounts", { username, password }),
  logIn: (username, password) => send("POST", "/api/session", { username, password }),
  logOut: () => call("DELETE", "/api/session"),
  changePassword: (oldPassword, newPassword) => call("POST", "/api/accounts/me/password", {
    old_password: oldPassword, new_password: newPassword,
  }),
  async me() {
    const me = await call("GET", "/api/players/me");
    try {
      const chips = await api.chips();
      return { ...me, balance: chips.balance, chips };
    } catch (err) {
      if (err.status === 401) throw err;
      return me; // no wallet: no chips to show
    }
  },
  /** The wallet, the chips on tables (and those on their way back), the daily bonus, a refill. */
  chips: () => call("GET", "/api/players/me/chips"),
  claimDaily: () => call("POST", "/api/players/me/daily"),
  claimRefill: () => call("POST", "/api/players/me/refill"),
  /** The lobby's list: query {game, stake, seats (open | full), sort}, each left out when empty. */
  async tables(query = {}) {
    const params = new URLSearchParams({ per_page: "100" });
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, String(value));
    return (await call("GET", `/api/tables?${params}`)).items;
  },
  /** The tables the signed-in player sits at, private ones too. */
  async myTables() { return (await call("GET", "/api/players/me/tables")).items; },
  /** The private table a join code names (404 no_such_code, 422 bad_code). */
  byCode: (code) => call("GET", `/api/codes/${encodeURIComponent(code)}`),
  table: (id) => call("GET", tablePath(id)),
  /** spec: {game, seats, options, private, ...table options (turn_seconds, start_seconds), sit?: {buy_in?}} */
  createTable: (spec) => call("POST", "/api/tables", spec),
  /** buyIn: the chips to bring to a chips table (null: the server's default) */
  sit: (id, seat, buyIn = null) => call("POST", `${tablePath(id)}/seats/${seat}`,
    buyIn === null ? {} : { buy_in: buyIn }),
  leave: (id, seat) => call("DELETE", `${tablePath(id)}/seats/${seat}`),
  addBots: (id) => call("POST", `${tablePath(id)}/bots`, {}),
  rematch: (id) => call("POST", `${tablePath(id)}/rematch`, {}),
  /** stake, buyIn: a chips game's stake room and the chips to bring (null: the server picks) */
  quickJoin: (game, stake = null, buyIn = null) => call("POST", "/api/quick-join", {
    game, ...(stake === null ? {} : { stake }), ...(buyIn === null ? {} : { buy_in: buyIn }) }),
  /** A chips game's stake rooms: each one's minimum wallet, buy-in and players online. */
  rooms: (game) => call("GET", `/api/rooms/${encodeURIComponent(game)}`),
  /** The signed-in player's finished matches, newest first (app/api/history.py). */
  myMatches: (page, perPage) => call("GET", `/api/players/me/matches?page=${page}&per_page=${perPage}`),
  /** A finished match step by step, as the player's seat saw it. */
  replay: (id) => call("GET", `/api/matches/${encodeURIComponent(id)}/replay`),
  profile: (id) => call("GET", `/api/players/${encodeURIComponent(id)}/profile`),
  /** The avatars one may choose; `chooseAvatar(id)` saves one (422 unknown_avatar). */
  avatars: () => call("GET", "/api/players/avatars"),
  chooseAvatar: (avatar) => call("PUT", "/api/players/me/avatar", { avatar }),
  /** Friends, table invites and daily missions (docs/api.md "Friends"). */
  friends: async () => (await call("GET", "/api/friends")).friends,
  addFriend: (id) => call("POST", "/api/friends", { player_id: id }),
  removeFriend: (id) => call("DELETE", `/api/friends/${encodeURIComponent(id)}`),
  inviteFriend: (id, table) => call("POST", `/api/friends/${encodeURIComponent(id)}/invite`, { table }),
  invites: async () => (await call("GET", "/api/invites")).invites,
  acceptInvite: async (id) => (await call("POST", `/api/invites/${encodeURIComponent(id)}/accept`)).table,
  declineInvite: (id) => call("DELETE", `/api/invites/${encodeURIComponent(id)}`),
  missions: () => call("GET", "/api/missions"),
  /** pick: {game, period: "week" | "all", page}; per_page as the lobby shows it */
  leaderboard: ({ game, period, page }, perPage) => call("GET",
    `/api/leaderboards/${encodeURIComponent(game)}?period=${period}&page=${page}&per_page=${perPage}`),
};

const adminPath = (path) => `/api/admin/${path}`;
const paged = (page, perPage) => `page=${page}&per_page=${perPage}`;

/** The operators' console (app/api/admin.py); every action sends its reason. */
export const adminApi = {
  summary: () => call("GET", adminPath("summary")),
  players: (q, page, perPage) => call("GET", adminPath(`players?q=${encodeURIComponent(q)}&${paged(page, perPage)}`)),
  player: (id) => call("GET", adminPath(`players/${encodeURIComponent(id)}`)),
  ledger: (id, page, perPage) => call("GET", adminPath(`players/${encodeURIComponent(id)}/ledger?${paged(page, perPage)}`)),
  ban: (id, reason) => call("POST", adminPath(`players/${encodeURIComponent(id)}/ban`), { reason }),
  unban: (id, reason) => call("POST", adminPath(`players/${encodeURIComponent(id)}/unban`), { reason }),
  /** requestId: the same for a retried click, so the chips move once */
  adjust: (id, amount, reason, requestId) => call("POST", adminPath(`players/${encodeURIComponent(id)}/chips`),
    { amount, reason, request_id: requestId }),
  tables: (page, perPage) => call("GET", adminPath(`tables?${paged(page, perPage)}`)),
  table: (id) => call("GET", adminPath(`tables/${encodeURIComponent(id)}`)),
  close: (id, reason) => call("POST", adminPath(`tables/${encodeURIComponent(id)}/close`), { reason }),
  dead: (page, perPage) => call("GET", adminPath(`outbox/dead?${paged(page, perPage)}`)),
  retry: (id, reason) => call("POST", adminPath(`outbox/dead/${encodeURIComponent(id)}/retry`), { reason }),
  actions: (page, perPage) => call("GET", adminPath(`actions?${paged(page, perPage)}`)),
};
