// One WebSocket that comes back. When it closes, a new one is opened after a wait that
// doubles from `first` up to `max`, with jitter (a restarted server is not met by every
// page at the same instant); the wait starts again from `first` once a socket opens.
// close() ends it for good. The address is asked for on every attempt: it may carry the
// last seq seen, or a one-use ticket (players/tickets.py), so it can be a promise.

/** The close code of a socket whose sign-in ended (a logout in another tab, a revoked
 * token): the page reloads, signed out, instead of reconnecting as who it no longer is. */
export const SIGNED_OUT = 4401;

/** The wait before reconnection attempt `attempt` (0 after an open), in ms: `first`
 * doubled per failed attempt, at most `max`, then spread by ±`jitter` and kept ≤ `max`. */
export function backoffDelay(attempt, { first, max, jitter }, random = Math.random) {
  const base = Math.min(first * 2 ** Math.min(attempt, 30), max);
  return Math.min(max, base * (1 - jitter + 2 * jitter * random()));
}

export class ReconnectingSocket {
  /**
   * @param {() => string | Promise<string>} url the address, asked for on each attempt
   * @param {object} options
   *   first, max: the first wait and the longest, in ms; jitter: the share either side
   *   retry(ev): whether to try again after this close (default: always)
   *   onConnecting(attempt): before each attempt
   *   onOpen(ev, {reopened}): reopened when a socket of ours had opened before
   *   onMessage(ev)
   *   onClose(ev, {retryIn}): retryIn is the wait before the next attempt, or null for
   *     none; ev is null when the address could not be had
   * No hook runs after close().
   */
  constructor(url, { first = 500, max = 10000, jitter = 0.25, retry = () => true, onConnecting, onOpen, onMessage, onClose } = {}) {
    this.url = url;
    this.backoff = { first, max, jitter };
    this.retry = retry;
    this.hooks = { onConnecting, onOpen, onMessage, onClose };
    this.socket = null; // the current socket, connecting or open; null between attempts
    this.dialing = null; // a token while the address is being fetched
    this.timer = null; // the next attempt, when one is waiting
    this.attempt = 0; // attempts since the last open: the exponent of the next wait
    this.everOpened = false;
    this.closed = false; // close() was called: never again
  }

  open() {
    this.connect();
    return this;
  }

  get isOpen() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Send a string (or JSON for anything else) if a socket is open; whether it was sent. */
  send(data) {
    if (!this.isOpen) return false;
    this.socket.send(typeof data === "string" ? data : JSON.stringify(data));
    return true;
  }

  /** Between attempts (e.g. the browser is back online): try now, from the first wait. */
  reconnectNow() {
    if (this.socket || this.dialing || this.closed) return;
    this.attempt = 0;
    this.connect();
  }

  /** Close the current socket as if the connection were lost: the usual wait, then anew. */
  drop(code) {
    this.socket?.close(code);
  }

  /** Replace the current socket by a new one now; the old one's close is not reported. */
  reopen(code = 1000) {
    if (this.closed) return;
    const old = this.socket;
    this.socket = null;
    old?.close(code);
    this.connect();
  }

  /** Close for good: no reconnection, no more hooks. */
  close(code = 1000) {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = null;
    this.dialing = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close(code);
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = null;
    const token = {};
    this.dialing = token;
    this.hooks.onConnecting?.(this.attempt);
    let url;
    try {
      url = this.url();
    } catch (err) {
      this.noAddress(token, err);
      return;
    }
    // A plain string dials at once, as `new WebSocket` would.
    if (typeof url?.then === "function") url.then((u) => this.dial(token, u), (err) => this.noAddress(token, err));
    else this.dial(token, url);
  }

  dial(token, url) {
    if (token !== this.dialing || this.closed) return;
    this.dialing = null;
    const socket = new WebSocket(url);
    this.socket = socket;
    // Events of a socket that was replaced (reopen, close) are not ours any more.
    socket.addEventListener("open", (ev) => {
      if (socket !== this.socket) return;
      this.attempt = 0;
      const reopened = this.everOpened;
      this.everOpened = true;
      this.hooks.onOpen?.(ev, { reopened });
    });
    socket.addEventListener("message", (ev) => {
      if (socket === this.socket) this.hooks.onMessage?.(ev);
    });
    socket.addEventListener("close", (ev) => {
      if (socket !== this.socket) return;
      this.socket = null;
      this.afterClose(ev);
    });
  }

  noAddress(token, err) {
    if (token !== this.dialing || this.closed) return;
    this.dialing = null;
    console.warn("socket: no address to connect to", err);
    this.afterClose(null);
  }

  afterClose(ev) {
    if (ev?.code === SIGNED_OUT) {
      this.closed = true;
      window.location.reload();
      return;
    }
    const again = ev === null || this.retry(ev);
    let wait = null;
    if (again) {
      wait = backoffDelay(this.attempt, this.backoff);
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    }
    this.hooks.onClose?.(ev, { retryIn: wait });
  }
}
