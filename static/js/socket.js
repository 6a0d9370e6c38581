// The table socket: act with a uuid `cmd` and the last seen version `v`, reconnect from the
// last seen version after every drop, ping to notice dead connections. A move not answered
// when the connection drops is sent again, with the same `cmd`, once it is back: the server
// keeps the first result of each command, so it is applied exactly once (docs/socket.md
// "Commands are idempotent"). The server is the authority; this only keeps the newest state it was
// sent and says how the connection is doing.

import { uuid } from "./dom.js";

const PING_MS = 10000;
const BACKOFF_MS = [300, 700, 1500, 3000, 5000];

export class TableSocket {
  /**
   * handlers: onState(msg), onAck(msg), onError(msg), onChat(msg), onChatLog(msg) (the kept
   * lines, after each connect), onPresence(msg), onStatus(status, attempt),
   * onAuthFail() (close 4401: the session ended), refresh() (close 4419: a promise of a fresh
   * access cookie; the socket then reconnects). The socket is signed in by the cookie alone.
   * status is "connecting" | "open" | "reconnecting" | "closed".
   */
  constructor(url, handlers) {
    this.url = url;
    this.h = handlers;
    this.v = null;
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.refreshed = false; // refreshed the session since the socket last opened
    this.pending = new Map(); // cmd -> its act message, until ack or error (resent on open)
    this.lastHeard = 0;
    this.timer = null;
  }

  connect() {
    this.closed = false;
    this._status(this.attempt ? "reconnecting" : "connecting");
    // Back from a drop: `v` asks the first state to bring just the events missed meanwhile
    // (a first connection gets the table's recent events instead).
    const ws = new WebSocket(this.v === null ? this.url : withVersion(this.url, this.v));
    this.ws = ws;
    ws.onopen = () => {
      this.refreshed = false;
      this.lastHeard = Date.now();
      this.attempt = 0;
      this._status("open");
      clearInterval(this.timer);
      this.timer = setInterval(() => this._ping(), PING_MS);
      for (const msg of this.pending.values()) this._send(msg);
    };
    ws.onmessage = (e) => this._message(e.data);
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      clearInterval(this.timer);
      if (e.code === 4419 && !this.closed && !this.refreshed) { // expired: refresh, then back
        this.refreshed = true; // once: a second 4419 before the socket opens ends it
        this._status("reconnecting");
        this.h.refresh().then(() => { if (!this.closed) this.connect(); }, () => {
          this.closed = true;
          this._status("closed");
          this.h.onAuthFail?.();
        });
        return;
      }
      if (e.code === 4401 || e.code === 4419) { // refused or ended: reconnecting cannot help
        this.closed = true;
        this.h.onAuthFail?.();
      }
      if (this.closed) { this.pending.clear(); return this._status("closed"); }
      this.attempt += 1;
      this._status("reconnecting");
      const wait = BACKOFF_MS[Math.min(this.attempt - 1, BACKOFF_MS.length - 1)];
      setTimeout(() => { if (!this.closed) this.connect(); }, wait);
    };
  }

  /** Propose a move; returns its command id. */
  act(action) {
    const cmd = uuid();
    const msg = { type: "act", cmd, v: this.v, action };
    this.pending.set(cmd, msg);
    this._send(msg);
    return cmd;
  }

  chat(text) { this._send({ type: "chat", text }); }

  /** A quick chat phrase or emote, by its id (the server's list, app/ws/protocol.py). */
  quick(id) { this._send({ type: "quick", id }); }

  /** Ask for the newest state (after a `stale` refusal, say). */
  resync() { if (this.v !== null) this._send({ type: "sync", v: this.v }); }

  get isOpen() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  /** Drop the connection as a network failure would (the page reconnects by itself). */
  drop() { if (this.ws) this.ws.close(4000, "dropped"); }

  close() {
    this.closed = true;
    clearInterval(this.timer);
    if (this.ws) this.ws.close(1000, "bye");
  }

  _send(msg) {
    if (this.isOpen) this.ws.send(JSON.stringify(msg));
  }

  _ping() {
    if (Date.now() - this.lastHeard > 2.5 * PING_MS) { this.drop(); return; }
    this._send({ type: "ping" });
  }

  _status(status) { this.h.onStatus?.(status, this.attempt); }

  _message(data) {
    this.lastHeard = Date.now();
    let msg;
    try { msg = JSON.parse(data); } catch { return; }
    switch (msg.type) {
      case "state":
        if (this.v !== null && typeof msg.v === "number" && msg.v < this.v) return;
        if (typeof msg.v === "number") this.v = msg.v;
        this.h.onState?.(msg);
        break;
      case "ack":
        this.pending.delete(msg.cmd);
        this.h.onAck?.(msg);
        break;
      case "error":
        this.pending.delete(msg.cmd);
        this.h.onError?.(msg);
        break;
      case "chat":
        this.h.onChat?.(msg);
        break;
      case "chat_log":
        this.h.onChatLog?.(msg);
        break;
      case "presence":
        this.h.onPresence?.(msg);
        break;
      case "ping": // the server's, after a silence: a socket that does not answer is dropped
        this._send({ type: "pong" });
        break;
      default:
        this.h.onOther?.(msg);
    }
  }
}

function withVersion(url, v) {
  return `${url}${url.includes("?") ? "&" : "?"}v=${encodeURIComponent(v)}`;
}

export function tableSocketUrl(tableId) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
}
