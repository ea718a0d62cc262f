// The live connection: events by seq, gap recovery through REST, reconnection with
// backoff (socket.js), the heartbeat and resync, our moves sent on the socket (POST when
// it cannot carry them), and the lobby stream while the table is open.

import { ApiError, get, post, showError, socketMessage, wsUrl } from "../api.js";
import { ReconnectingSocket } from "../socket.js";

const BACKOFF_FIRST = 400;
const BACKOFF_MAX = 10000;
export const PING_EVERY = 20000;
const SILENCE_LIMIT = 50000;
// A move sent on the socket whose answer has not come by then goes again by POST.
const ANSWER_WAIT = 4000;

export class StreamPart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
    this.socket = null; // the game's ReconnectingSocket, from connect()
    this.lobby = null; // the lobby's, while the table is open (watchLobby)
    this.stopped = false; // the page is going away: no more sockets
    this.lastHeard = Date.now(); // the last frame from the game socket (the heartbeat)
    this.catchingUp = null; // the catch-up under way, a promise
    this.catchAgain = false; // news came during it: go round once more
    this.reopening = false; // reopenAsPlayer under way
    this.reopened = 0; // sockets reopened to be served as a player
    this.lastRef = 0; // the ref of the last move sent on the socket
    this.answers = new Map(); // ref -> the move waiting for its answer on the socket
    this.movesBy = { socket: 0, post: 0 }; // how our moves went (the browser tests read it)
  }

  // ---- our moves ----------------------------------------------------------------------------
  /** Send a move ({command, command_id, expected_seq}); resolves to the server's answer
   * ({head_seq, replayed}, with `events` when it came by POST) or throws an ApiError.
   * On the open socket the move costs the server no HTTP request (games/api/moves.py);
   * when no socket is open, or it closes or stays silent before answering, the move goes
   * by POST with the same command_id, which the server applies at most once. */
  submit(move) {
    const socket = this.socket;
    if (!socket?.isOpen) return this.postMove(move);
    const ref = ++this.lastRef;
    return new Promise((resolve, reject) => {
      const waiting = {
        resolve,
        reject,
        byPost: () => {
          this.answers.delete(ref);
          clearTimeout(waiting.timer);
          this.postMove(move).then(resolve, reject);
        },
      };
      waiting.timer = setTimeout(waiting.byPost, ANSWER_WAIT);
      this.answers.set(ref, waiting);
      if (socket.send({ type: "command", ref, ...move })) this.movesBy.socket += 1;
      else waiting.byPost();
    });
  }

  postMove(move) {
    this.movesBy.post += 1;
    return post(`/api/tables/${this.table.id}/commands/`, move);
  }

  /** A socket's answer to one of our moves; whether the message was one. */
  takeAnswer(message) {
    const waiting = this.answers.get(message.ref);
    if (waiting === undefined) return false;
    this.answers.delete(message.ref);
    clearTimeout(waiting.timer);
    if (message.type === "accepted") waiting.resolve({ head_seq: message.head_seq, replayed: message.replayed });
    else waiting.reject(new ApiError(message.status, message));
    return true;
  }

  /** The socket closed: every move still waiting goes by POST. */
  answerByPost() {
    for (const waiting of [...this.answers.values()]) waiting.byPost();
  }

  /** Fetch what we missed through REST: every event after lastSeq, then the view and legal. */
  catchUp() {
    if (this.catchingUp) {
      this.catchAgain = true;
      return this.catchingUp;
    }
    const table = this.table;
    this.catchingUp = (async () => {
      try {
        for (let round = 0; round < 20; round++) {
          this.catchAgain = false;
          const page = await get(`/api/tables/${table.id}/events/?after=${table.lastSeq}`);
          this.client.log.applyEvents(page.events);
          if (table.lastSeq < page.head_seq && page.events.length) continue;
          if (table.status !== "open" || page.head_seq > 0) {
            const [seen, legal] = await Promise.all([
              get(`/api/tables/${table.id}/view/`),
              get(`/api/tables/${table.id}/legal/`),
            ]);
            table.takeView(seen.seq, seen.state);
            table.takeLegal(legal.seq, legal.commands);
            if (legal.seat !== undefined && legal.seat !== null) table.yourSeat = legal.seat;
            // The game moved between the reads: fetch the events, view and moves again.
            if (seen.seq > table.lastSeq || legal.seq !== seen.seq) continue;
          }
          if (!this.catchAgain) break;
        }
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 0)) showError(err);
      } finally {
        this.catchingUp = null;
      }
      this.client.render();
    })();
    return this.catchingUp;
  }

  // ---- the socket -------------------------------------------------------------------------
  connect() {
    if (this.stopped) return;
    this.socket = new ReconnectingSocket(() => wsUrl(`/ws/games/${this.table.id}/?after=${this.table.lastSeq}`), {
      first: BACKOFF_FIRST,
      max: BACKOFF_MAX,
      retry: (ev) => ev.code !== 4404,
      onOpen: (_ev, { reopened }) => {
        this.lastHeard = Date.now();
        if (this.table.isOver()) this.setConn("idle", "game over");
        else this.setConn("live", "live");
        if (reopened) this.catchUp(); // what happened while we were away
      },
      onMessage: (ev) => {
        this.lastHeard = Date.now();
        const message = socketMessage(ev);
        if (message === undefined) return;
        if (message.type === "events") {
          this.onNews(message);
          // The answer to our move rides in the frame with its events (games/sockets/consumers.py).
          if (message.accepted) this.takeAnswer({ type: "accepted", ...message.accepted });
        } else if ((message.type === "accepted" || message.type === "error") && this.takeAnswer(message)) return;
        else if (message.type === "error") console.warn("table socket:", message.message);
        else if (message.type === "rematch") {
          this.table.summary = { ...this.table.summary, rematch: message.rematch };
          this.client.render();
          // An offer from another player rings like a turn (the title says it in render).
          const by = this.client.board.rematchOfferedBy();
          if (by) this.client.alerts.rematchOffered(by);
        }
      },
      onClose: (ev, { retryIn }) => {
        this.answerByPost();
        if (this.table.isOver()) return; // nothing is lost while the game is over
        if (ev?.code === 4404) this.setConn("down", "table not found");
        else if (retryIn !== null) this.setConn("down", "reconnecting…");
      },
    }).open();
  }

  reconnectNow() {
    if (!this.stopped) this.socket?.reconnectNow();
  }

  /** The page is going away: close the sockets for good. */
  stop() {
    this.stopped = true;
    for (const waiting of this.answers.values()) clearTimeout(waiting.timer);
    this.answers.clear();
    this.socket?.close(1000);
    this.lobby?.close(1000);
  }

  heartbeat() {
    const socket = this.socket;
    if (!socket?.isOpen) return;
    const quiet = Date.now() - this.lastHeard;
    if (quiet > SILENCE_LIMIT) {
      socket.drop(4001); // a silent socket: drop it and reconnect
      return;
    }
    // News can be lost (the channel layer is at-most-once): when the game has been quiet
    // for a while, ask for anything after our last event instead of a bare ping.
    const message = quiet >= PING_EVERY && this.table.status === "active" ? { type: "resync", after: this.table.lastSeq } : { type: "ping" };
    socket.send(message);
  }

  setConn(state, text) {
    const el = this.table.el;
    el.conn.dataset.state = state;
    el.conn.textContent = text;
    el.page.classList.toggle("is-offline", state === "down");
  }

  /** Whether the seat list names us (the seat number comes only when the game starts). */
  seatedByName() {
    const table = this.table;
    // A player who left (resigned, expelled, kicked) watches as a spectator: not seated.
    const playing = (seat) => seat.user === table.username && !seat.resigned && !seat.expelled && !seat.kicked;
    return !!table.username && (table.summary?.seats || []).some(playing);
  }

  /** A socket opened before the game started may still see us as a spectator (the
   * server numbers the seats at the start): open a new one, which knows our seat. */
  async reopenAsPlayer() {
    if (this.reopening || this.reopened >= 3) return;
    this.reopening = true;
    try {
      await this.client.loadDetail();
      if (this.table.yourSeat === null) {
        // We left the table (a bot plays our seat): the stream was right; read on as a watcher.
        this.catchUp();
        return;
      }
      this.reopened += 1;
      this.answerByPost(); // the old socket's answers will not be heard
      this.socket?.reopen(4002);
    } finally {
      this.reopening = false;
    }
  }

  onNews(message) {
    const table = this.table;
    if (message.your_seat === null && message.status && message.status !== "open" && this.seatedByName()) {
      // Its events are redacted for a spectator: take nothing from it, ask again.
      this.reopenAsPlayer();
      return;
    }
    const wasStatus = table.status;
    const wasSeat = table.yourSeat;
    if (message.status) table.status = message.status;
    if (message.your_seat !== undefined) table.yourSeat = message.your_seat;
    const events = message.events || [];
    let gap = false;
    if (events.length && events[0].seq > table.lastSeq + 1) gap = true;
    else {
      const before = table.lastSeq;
      gap = !this.client.log.applyEvents(events);
      this.client.interlude.maybeInterlude(events.filter((e) => e.seq > before && e.seq <= table.lastSeq));
    }
    if (table.takeView(message.head, message.view)) table.takeLegal(message.head, message.legal);
    if (gap || table.lastSeq < message.head) this.catchUp();
    if (wasStatus !== table.status || wasSeat !== table.yourSeat) {
      this.client.loadDetail().then(() => this.client.render());
      if (table.status !== "open") this.stopLobby();
      if (table.isOver()) this.setConn("idle", "game over"); // nothing more will come
    }
    this.client.render();
  }

  // While the table is open, seat changes arrive on the lobby stream.
  watchLobby() {
    this.lobby = new ReconnectingSocket(() => wsUrl("/ws/lobby/"), {
      first: 2000,
      max: 10000,
      retry: () => this.table.status === "open" && !this.stopped,
      onMessage: (ev) => {
        const message = socketMessage(ev);
        if (message === undefined) return;
        const table = this.table;
        if (message.type === "table" && message.table?.id === table.id) {
          const before = table.status;
          table.summary = { ...table.summary, ...message.table };
          table.status = message.table.status;
          if (before !== table.status) {
            this.client.loadDetail().then(() => this.catchUp());
          }
          this.client.render();
        }
      },
    }).open();
  }

  stopLobby() {
    const lobby = this.lobby;
    this.lobby = null;
    lobby?.close(1000);
  }
}
