// The live connection: events by seq, gap recovery through REST, reconnection with
// backoff, the heartbeat and resync, and the lobby stream while the table is open.

import { ApiError, get, showError, socketMessage, wsUrl } from "../api.js";

export const BACKOFF_FIRST = 400;
const BACKOFF_MAX = 10000;
export const PING_EVERY = 20000;
const SILENCE_LIMIT = 50000;

export class StreamPart {
  /** Fetch what we missed through REST: every event after lastSeq, then the view and legal. */
  catchUp() {
    if (this.catchingUp) {
      this.catchAgain = true;
      return this.catchingUp;
    }
    this.catchingUp = (async () => {
      try {
        for (let round = 0; round < 20; round++) {
          this.catchAgain = false;
          const page = await get(`/api/tables/${this.id}/events/?after=${this.lastSeq}`);
          this.applyEvents(page.events);
          if (this.lastSeq < page.head_seq && page.events.length) continue;
          if (this.status !== "open" || page.head_seq > 0) {
            const [seen, legal] = await Promise.all([
              get(`/api/tables/${this.id}/view/`),
              get(`/api/tables/${this.id}/legal/`),
            ]);
            this.takeView(seen.seq, seen.state);
            this.takeLegal(legal.seq, legal.commands);
            if (legal.seat !== undefined && legal.seat !== null) this.yourSeat = legal.seat;
            // The game moved between the reads: fetch the events, view and moves again.
            if (seen.seq > this.lastSeq || legal.seq !== seen.seq) continue;
          }
          if (!this.catchAgain) break;
        }
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 0)) showError(err);
      } finally {
        this.catchingUp = null;
      }
      this.render();
    })();
    return this.catchingUp;
  }

  // ---- the socket -------------------------------------------------------------------------
  connect() {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    const socket = new WebSocket(wsUrl(`/ws/games/${this.id}/?after=${this.lastSeq}`));
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      this.backoff = BACKOFF_FIRST;
      this.lastHeard = Date.now();
      this.setConn("live", "live");
      if (this.everConnected) this.catchUp(); // what happened while we were away
      this.everConnected = true;
    });
    socket.addEventListener("message", (ev) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      const message = socketMessage(ev);
      if (message === undefined) return;
      if (message.type === "events") this.onNews(message);
      else if (message.type === "error") console.warn("table socket:", message.message);
    });
    socket.addEventListener("close", (ev) => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (this.stopped) return;
      if (ev.code === 4404) {
        this.setConn("down", "table not found");
        return;
      }
      this.scheduleReconnect();
    });
  }

  scheduleReconnect() {
    if (this.reconnectTimer || this.stopped) return;
    this.setConn("down", "reconnecting…");
    const wait = this.backoff * (0.75 + Math.random() * 0.5);
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX);
    this.reconnectTimer = setTimeout(() => this.connect(), wait);
  }

  reconnectNow() {
    if (this.socket || this.stopped) return;
    this.backoff = BACKOFF_FIRST;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connect();
  }

  heartbeat() {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    const quiet = Date.now() - this.lastHeard;
    if (quiet > SILENCE_LIMIT) {
      socket.close(4001); // a silent socket: drop it and reconnect
      return;
    }
    // News can be lost (the channel layer is at-most-once): when the game has been quiet
    // for a while, ask for anything after our last event instead of a bare ping.
    const message = quiet >= PING_EVERY && this.status === "active" ? { type: "resync", after: this.lastSeq } : { type: "ping" };
    socket.send(JSON.stringify(message));
  }

  setConn(state, text) {
    this.el.conn.dataset.state = state;
    this.el.conn.textContent = text;
    this.el.page.classList.toggle("is-offline", state === "down");
  }

  /** Whether the seat list names us (the seat number comes only when the game starts). */
  seatedByName() {
    // A player who left (resigned, expelled, kicked) watches as a spectator: not seated.
    const playing = (seat) => seat.user === this.username && !seat.resigned && !seat.expelled && !seat.kicked;
    return !!this.username && (this.summary?.seats || []).some(playing);
  }

  /** A socket opened before the game started may still see us as a spectator (the
   * server numbers the seats at the start): open a new one, which knows our seat. */
  async reopenAsPlayer() {
    if (this.reopening || this.reopened >= 3) return;
    this.reopening = true;
    try {
      await this.loadDetail();
      if (this.yourSeat === null) {
        // We left the table (a bot plays our seat): the stream was right; read on as a watcher.
        this.catchUp();
        return;
      }
      this.reopened = (this.reopened || 0) + 1;
      const old = this.socket;
      this.socket = null;
      old?.close(4002);
      this.connect();
    } finally {
      this.reopening = false;
    }
  }

  onNews(message) {
    if (message.your_seat === null && message.status && message.status !== "open" && this.seatedByName()) {
      // Its events are redacted for a spectator: take nothing from it, ask again.
      this.reopenAsPlayer();
      return;
    }
    const wasStatus = this.status;
    const wasSeat = this.yourSeat;
    if (message.status) this.status = message.status;
    if (message.your_seat !== undefined) this.yourSeat = message.your_seat;
    const events = message.events || [];
    let gap = false;
    if (events.length && events[0].seq > this.lastSeq + 1) gap = true;
    else {
      const before = this.lastSeq;
      gap = !this.applyEvents(events);
      this.maybeInterlude(events.filter((e) => e.seq > before && e.seq <= this.lastSeq));
    }
    if (this.takeView(message.head, message.view)) this.takeLegal(message.head, message.legal);
    if (gap || this.lastSeq < message.head) this.catchUp();
    if (wasStatus !== this.status || wasSeat !== this.yourSeat) {
      this.loadDetail().then(() => this.render());
      if (this.status !== "open") this.stopLobby();
    }
    this.render();
  }

  // While the table is open, seat changes arrive on the lobby stream.
  watchLobby() {
    const socket = new WebSocket(wsUrl("/ws/lobby/"));
    this.lobbySocket = socket;
    socket.addEventListener("message", (ev) => {
      const message = socketMessage(ev);
      if (message === undefined) return;
      if (message.type === "table" && message.table?.id === this.id) {
        const before = this.status;
        this.summary = { ...this.summary, ...message.table };
        this.status = message.table.status;
        if (before !== this.status) {
          this.loadDetail().then(() => this.catchUp());
        }
        this.render();
      }
    });
    socket.addEventListener("close", () => {
      if (this.lobbySocket === socket && this.status === "open" && !this.stopped) {
        setTimeout(() => this.watchLobby(), 2000);
      }
    });
  }

  stopLobby() {
    const socket = this.lobbySocket;
    this.lobbySocket = null;
    socket?.close(1000);
  }
}
