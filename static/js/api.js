// REST calls of the lobby. Every route the client uses is named here, once.

const TOKEN_KEY = "meja.token";

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

export const auth = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  set token(t) { t ? localStorage.setItem(TOKEN_KEY, t) : localStorage.removeItem(TOKEN_KEY); },
};

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (auth.token) headers.Authorization = `Bearer ${auth.token}`;
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await res.json(); } catch { /* empty body */ }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const tablePath = (id) => `/api/tables/${encodeURIComponent(id)}`;

export const api = {
  games: () => call("GET", "/api/games"),
  register: (name) => call("POST", "/api/players", { name }),
  async me() {
    const me = await call("GET", "/api/players/me");
    try {
      const chips = await call("GET", "/api/players/me/chips"); // wallet, daily bonus, refill
      return { ...me, balance: chips.balance, chips };
    } catch (err) {
      if (err.status === 401) throw err;
      return me; // no wallet: no chips to show
    }
  },
  claimDaily: () => call("POST", "/api/players/me/daily"),
  claimRefill: () => call("POST", "/api/players/me/refill"),
  async tables() { return (await call("GET", "/api/tables?per_page=100")).items; },
  table: (id) => call("GET", tablePath(id)),
  /** spec: {game, seats, options, ...table options (turn_seconds)} */
  createTable: (spec) => call("POST", "/api/tables", spec),
  sit: (id, seat) => call("POST", `${tablePath(id)}/seats/${seat}`, {}),
  leave: (id, seat) => call("DELETE", `${tablePath(id)}/seats/${seat}`),
  addBots: (id) => call("POST", `${tablePath(id)}/bots`, {}),
  rematch: (id) => call("POST", `${tablePath(id)}/rematch`, {}),
  quickJoin: (game) => call("POST", "/api/quick-join", { game }),
  profile: (id) => call("GET", `/api/players/${encodeURIComponent(id)}/profile`),
  /** pick: {game, period: "week" | "all", page}; per_page as the lobby shows it */
  leaderboard: ({ game, period, page }, perPage) => call("GET",
    `/api/leaderboards/${encodeURIComponent(game)}?period=${period}&page=${page}&per_page=${perPage}`),
};
