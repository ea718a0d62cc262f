// The table page: the live connection (events by seq, gap recovery, reconnection), the
// seat panels, the move log, results with breakdowns, resign, and the replay slider.
// The rules are never re-implemented here: the server sends the view and legal commands,
// and each game's renderer (static/js/games/*.js) draws them.

import { ApiError, get, newCommandId, post, showError, toast, wsUrl } from "./api.js";
import { clockReading, timeControlText } from "./clock.js";
import { clear, h } from "./dom.js";
import { seatBadge, seatColour } from "./players.js";
import { shapesOn } from "./prefs.js";

const RENDERERS = {
  kingdoms: "./games/kingdoms.js",
  "kingdom-builder": "./games/kingdom_builder.js",
  "kingdom-cards": "./games/kingdom_cards.js",
};
const STATUS_WORDS = { open: "waiting for players", active: "in progress", finished: "finished", aborted: "aborted" };
const BACKOFF_FIRST = 400;
const BACKOFF_MAX = 10000;
const PING_EVERY = 20000;
const SILENCE_LIMIT = 50000;

class TableClient {
  constructor(config) {
    this.id = config.game_id;
    this.ruleset = config.ruleset;
    this.rulesetName = config.ruleset_name;
    this.username = config.username;
    this.status = config.status;
    this.summary = null; // table summary (seats, options, outcome, seed...)
    this.yourSeat = null;
    this.lastSeq = 0; // the last event applied to the log
    this.view = null;
    this.viewSeq = 0;
    this.legal = [];
    this.legalSeq = 0;
    this.awaitingSeq = 0; // after our own command: legal moves are stale until this seq
    this.pending = false;
    this.logged = new Set();
    this.socket = null;
    this.backoff = BACKOFF_FIRST;
    this.reconnectTimer = null;
    this.everConnected = false;
    this.stopped = false;
    this.catchingUp = null;
    this.lastHeard = Date.now();
    this.replay = { at: null, view: null, loading: null };
    this.rendererState = {}; // the renderer's own memory across renders (selection...)
    this.confirmResign = false;
    this.renderer = null;
    this.el = {
      page: document.getElementById("table-page"),
      board: document.getElementById("board"),
      seats: document.getElementById("seats"),
      actions: document.getElementById("table-actions"),
      result: document.getElementById("result"),
      replay: document.getElementById("replay"),
      log: document.getElementById("log"),
      conn: document.getElementById("conn"),
      banner: document.getElementById("turn-banner"),
      prelude: document.getElementById("prelude"),
    };
  }

  // ---- start-up ------------------------------------------------------------------------
  async start() {
    try {
      this.renderer = await import(RENDERERS[this.ruleset] || "./games/generic.js");
    } catch (err) {
      console.error(err);
      this.renderer = await import("./games/generic.js");
    }
    await this.loadDetail();
    await this.catchUp();
    this.render();
    if (this.status !== "finished" && this.status !== "aborted") this.connect();
    else this.setConn("idle", "game over");
    if (this.status === "open") this.watchLobby();
    window.addEventListener("kingdom:prefs", () => this.render());
    window.addEventListener("online", () => this.reconnectNow());
    window.addEventListener("pagehide", () => {
      this.stopped = true;
      this.socket?.close(1000);
    });
    // Back/forward cache: a restored page has closed its sockets; start afresh.
    window.addEventListener("pageshow", (ev) => {
      if (ev.persisted) window.location.reload();
    });
    setInterval(() => this.heartbeat(), PING_EVERY);
    setInterval(() => this.updateClocks(), 500);
  }

  async loadDetail() {
    try {
      const detail = await get(`/api/tables/${this.id}/`);
      this.summary = detail;
      this.status = detail.status;
      this.yourSeat = detail.your_seat;
      if (typeof detail.server_time_ms === "number") this.serverOffset = detail.server_time_ms - Date.now();
      this.takeView(detail.view_seq, detail.view);
    } catch (err) {
      showError(err);
    }
  }

  // ---- clocks (kept by the server; the page counts down from its deadlines) -------------
  serverNow() {
    return Date.now() + (this.serverOffset || 0);
  }

  updateClocks() {
    const clock = (this.replay.at !== null ? this.replay.view : this.view)?.clock;
    for (const el of this.el.seats.querySelectorAll(".seat-clock")) {
      const reading = clockReading(clock, Number(el.dataset.clockSeat), this.serverNow());
      el.textContent = reading ? reading.text : "";
      el.classList.toggle("running", !!reading?.running && this.status === "active");
      el.classList.toggle("low", !!reading?.low);
      el.classList.toggle("out", !!reading?.out);
    }
  }

  // ---- the view, the log and legal commands ---------------------------------------------
  takeView(seq, view) {
    if (seq === undefined || seq === null || seq < this.viewSeq) return false;
    this.viewSeq = seq;
    this.view = view;
    return true;
  }

  takeLegal(seq, commands) {
    if (seq < this.legalSeq) return;
    this.legalSeq = seq;
    this.legal = commands || [];
  }

  /** Append events in seq order, each once. Returns false on a gap (the caller catches up). */
  applyEvents(events) {
    const sorted = [...(events || [])].sort((a, b) => a.seq - b.seq);
    for (const event of sorted) {
      if (event.seq <= this.lastSeq || this.logged.has(event.seq)) continue;
      if (event.seq !== this.lastSeq + 1) return false;
      this.appendLog(event);
      this.lastSeq = event.seq;
    }
    return true;
  }

  appendLog(event) {
    this.logged.add(event.seq);
    const log = this.el.log;
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const actorSeat = /^(seat|bot):(\d+)$/.exec(event.actor || "");
    const item = h(
      "li",
      {
        class: ["log-entry", `event-${event.type}`],
        id: `ev-${event.seq}`,
        dataset: { seq: String(event.seq), type: event.type, actor: event.actor || "" },
      },
      h("span", { class: "log-seq", "aria-hidden": "true" }, String(event.seq)),
      actorSeat ? seatBadge(Number(actorSeat[2]), 12) : h("span", { class: "log-system", "aria-hidden": "true" }, "·"),
      h("span", { class: "log-text" }, event.text || event.type.replaceAll("_", " ")),
    );
    if (this.isOver()) this.makeLogEntrySeekable(item, event.seq);
    log.append(item);
    if (nearBottom && this.replay.at === null) log.scrollTop = log.scrollHeight;
  }

  makeLogEntrySeekable(item, seq) {
    if (item.dataset.seekable) return;
    item.dataset.seekable = "1";
    item.tabIndex = 0;
    item.title = "Show the board just after this move";
    const go = () => this.seek(seq);
    item.addEventListener("click", go);
    item.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        go();
      }
    });
  }

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
      let message;
      try {
        message = JSON.parse(ev.data);
      } catch {
        return;
      }
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
    return !!this.username && (this.summary?.seats || []).some((seat) => seat.user === this.username);
  }

  /** A socket opened before the game started may still see us as a spectator (the
   * server numbers the seats at the start): open a new one, which knows our seat. */
  async reopenAsPlayer() {
    if (this.reopening || this.reopened >= 3) return;
    this.reopening = true;
    try {
      await this.loadDetail();
      if (this.yourSeat === null) return;
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
    else gap = !this.applyEvents(events);
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
      let message;
      try {
        message = JSON.parse(ev.data);
      } catch {
        return;
      }
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

  // ---- commands ---------------------------------------------------------------------------
  async send(command, retried = false) {
    if (this.pending || this.replay.at !== null) return;
    this.pending = true;
    this.render();
    try {
      const result = await post(`/api/tables/${this.id}/commands/`, {
        command,
        command_id: newCommandId(),
        expected_seq: this.viewSeq,
      });
      this.awaitingSeq = Math.max(this.awaitingSeq, result.head_seq);
      if (!this.applyEvents(result.events)) this.catchUp();
      // The socket brings the new view; if it is slow (or down), ask for it.
      setTimeout(() => {
        if (this.viewSeq < this.awaitingSeq) this.catchUp();
      }, 1500);
    } catch (err) {
      if (err instanceof ApiError && err.code === "stale_seq") {
        this.pending = false;
        await this.catchUp();
        const same = JSON.stringify(command);
        if (this.renderer?.concurrentSeats && !retried && this.currentLegal().some((c) => JSON.stringify(c) === same)) {
          // Another seat moved first, and our move is still legal: send it again.
          return await this.send(command, true);
        }
        toast("The game moved on before your move arrived; here is the new position.", "info");
      } else {
        showError(err);
      }
    } finally {
      this.pending = false;
      this.render();
    }
  }

  async tableAction(path, body) {
    try {
      const detail = await post(`/api/tables/${this.id}/${path}`, body);
      this.summary = detail;
      this.status = detail.status;
      this.yourSeat = detail.your_seat;
      this.takeView(detail.view_seq, detail.view);
      await this.catchUp();
    } catch (err) {
      showError(err);
    }
    this.render();
  }

  // ---- replay -----------------------------------------------------------------------------
  isOver() {
    return this.status === "finished" || this.status === "aborted";
  }

  async seek(seq) {
    const head = this.lastSeq;
    if (!head) return;
    const at = Math.max(1, Math.min(seq, head));
    this.replay.at = at === head ? null : at;
    if (this.replay.at === null) {
      this.replay.view = null;
      this.render();
      return;
    }
    const ticket = {};
    this.replay.loading = ticket;
    this.render();
    try {
      const seen = await get(`/api/tables/${this.id}/view/?at=${at}`);
      if (this.replay.loading !== ticket) return;
      this.replay.view = seen.state;
      this.replay.at = seen.seq;
    } catch (err) {
      showError(err);
    } finally {
      if (this.replay.loading === ticket) this.replay.loading = null;
    }
    this.render();
  }

  // ---- rendering --------------------------------------------------------------------------
  names() {
    const names = {};
    for (const seat of this.summary?.seats || []) if (seat.seat !== null) names[seat.seat] = seat.name;
    return names;
  }

  currentLegal() {
    if (this.replay.at !== null || this.pending || this.status !== "active") return [];
    if (this.viewSeq < this.awaitingSeq) return [];
    if (this.legalSeq < this.viewSeq) return [];
    return this.legal;
  }

  render() {
    this.renderBanner();
    this.renderPrelude();
    this.renderSeats();
    this.renderActions();
    this.renderBoard();
    this.renderResult();
    this.renderReplay();
  }

  renderBanner() {
    const banner = this.el.banner;
    const view = this.view;
    const names = this.names();
    let text;
    let mine = false;
    if (this.status === "open") text = "Waiting for players. The host starts the game.";
    else if (this.status === "aborted") text = "A moderator aborted this game.";
    else if (this.status === "finished" || view?.finished) {
      const winners = (view?.outcome?.winners || this.summary?.outcome?.winners || []).map((w) => names[w] || `seat ${w}`);
      text = winners.length ? `Game over. Won by ${winners.join(" and ")}.` : "Game over.";
    } else if (view && (this.pending || this.viewSeq < this.awaitingSeq)) {
      text = "Sending your move…"; // the view after our own move is on its way
    } else if (view) {
      const toAct = view.to_act || [];
      mine = this.yourSeat !== null && toAct.includes(this.yourSeat);
      const others = toAct.filter((seat) => seat !== this.yourSeat).map((seat) => names[seat] || `seat ${seat}`);
      if (mine) text = others.length ? `Your turn (also ${others.join(", ")}).` : "Your turn.";
      else if (others.length) text = `Waiting for ${others.join(", ")}.`;
      else text = "Waiting…";
      if (this.yourSeat === null) text += " You are watching: you see public information only.";
      else if ((view.resigned || []).includes(this.yourSeat)) text += " You resigned; a bot plays your seat.";
    } else text = STATUS_WORDS[this.status] || "";
    if (this.replay.at !== null) text = `Replay: the board just after move ${this.replay.at} of ${this.lastSeq}.`;
    banner.textContent = text;
    banner.classList.toggle("your-turn", mine && this.replay.at === null);
    banner.dataset.yourTurn = mine ? "1" : "0";
    document.title = `${mine ? "● " : ""}${this.rulesetName} · Kingdom`;
  }

  renderPrelude() {
    const box = this.el.prelude;
    if (this.status !== "open" || !this.summary) {
      box.hidden = true;
      clear(box);
      return;
    }
    box.hidden = false;
    const seats = this.summary.seats || [];
    const me = this.username;
    const seated = me && seats.some((seat) => seat.user === me && !seat.bot);
    const isHost = me && this.summary.host === me;
    const room = seats.length < this.summary.seats_wanted;
    const buttons = [];
    if (me && !seated && room) buttons.push(h("button", { type: "button", class: "primary", onclick: () => this.tableAction("join/") }, "Join this table"));
    if (seated) buttons.push(h("button", { type: "button", onclick: () => this.tableAction("leave/") }, "Leave"));
    if (isHost && room) {
      for (const level of ["easy", "medium", "hard"]) {
        buttons.push(h("button", { type: "button", onclick: () => this.tableAction("bots/", { level }) }, `Add ${level} bot`));
      }
    }
    if (isHost) buttons.push(h("button", { type: "button", class: "primary", onclick: () => this.tableAction("start/") }, "Start the game"));
    if (!me) buttons.push(h("a", { class: "button-link", href: `/accounts/login/?next=${encodeURIComponent(location.pathname)}` }, "Log in to join"));
    clear(box).append(
      h("p", {}, `${seats.length} of ${this.summary.seats_wanted} seats taken. The seats are drawn at random when the game starts.`),
      h("div", { class: "actions" }, buttons),
    );
  }

  renderSeats() {
    const list = this.el.seats;
    clear(list);
    const view = this.replay.view || this.view;
    const seats = [...(this.summary?.seats || [])].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99) || a.id - b.id);
    const toAct = new Set(view?.to_act || []);
    const resigned = new Set(view?.resigned || []);
    for (const seat of seats) {
      const number = seat.seat;
      const isYou = number !== null && number === this.yourSeat;
      const detail = number !== null && view && this.renderer?.seatSummary ? this.renderer.seatSummary(view, number, this.context()) : null;
      list.append(
        h(
          "li",
          {
            class: ["seat", isYou && "seat-you", toAct.has(number) && "seat-to-act", (seat.resigned || resigned.has(number)) && "seat-resigned"],
            dataset: { seat: number === null ? "" : String(number) },
            style: { "--seat-colour": number === null ? "#888" : seatColour(number) },
          },
          h(
            "div",
            { class: "seat-head" },
            number !== null ? seatBadge(number, 18) : null,
            h("strong", { class: "seat-name" }, seat.name),
            isYou ? h("span", { class: "tag tag-you" }, "you") : null,
            seat.bot && !seat.resigned ? h("span", { class: "tag" }, `bot · ${seat.bot}`) : null,
            seat.resigned || resigned.has(number) ? h("span", { class: "tag" }, "resigned") : null,
            toAct.has(number) && !this.isOver() ? h("span", { class: "tag tag-turn", title: "to act" }, "to act") : null,
          ),
          detail ? h("div", { class: "seat-detail" }, detail) : null,
          view?.clock && number !== null && clockReading(view.clock, number, this.serverNow())
            ? h("div", { class: "seat-clock", role: "timer", "aria-label": `clock of ${seat.name}`, dataset: { clockSeat: String(number) } })
            : null,
        ),
      );
    }
    const control = timeControlText(this.summary?.time_control);
    document.getElementById("seats-heading").textContent = control ? `Players · ${control}` : "Players";
    this.updateClocks();
  }

  renderActions() {
    const box = this.el.actions;
    clear(box);
    const view = this.view;
    const names = this.names();
    const gone = new Set([...(view?.expelled || []), ...(view?.resigned || [])]);
    const outOfTime = (view?.clock?.timed_out || []).filter((seat) => seat !== this.yourSeat && !gone.has(seat));
    if (this.status === "active" && this.yourSeat !== null && !gone.has(this.yourSeat)) {
      for (const seat of outOfTime) {
        const name = names[seat] || `seat ${seat}`;
        const skipping = (view.skipping || []).includes(seat);
        box.append(
          h(
            "div",
            { class: "timeout-actions", dataset: { seat: String(seat) } },
            h("span", {}, `${name} is out of time${skipping ? "; a bot plays their turns" : ""}.`),
            skipping ? null : h("button", { type: "button", onclick: () => this.tableAction("skip/", { seat }) }, "Skip their turn"),
            h("button", { type: "button", class: "danger", onclick: () => this.tableAction("expel/", { seat }) }, `Expel ${name}`),
          ),
        );
      }
    }
    const canResign =
      this.status === "active" && this.yourSeat !== null && !(view?.resigned || []).includes(this.yourSeat);
    if (!canResign) return;
    if (!this.confirmResign) {
      box.append(h("button", { type: "button", class: "danger", id: "resign", onclick: () => { this.confirmResign = true; this.render(); document.getElementById("resign-confirm")?.focus(); } }, "Resign"));
    } else {
      box.append(
        h("span", { class: "confirm-text" }, "Resign? A bot plays on for you and you rank last."),
        h(
          "button",
          {
            type: "button",
            class: "danger",
            id: "resign-confirm",
            onclick: async () => {
              this.confirmResign = false;
              await this.tableAction("resign/");
            },
          },
          "Yes, resign",
        ),
        h("button", { type: "button", onclick: () => { this.confirmResign = false; this.render(); } }, "Cancel"),
      );
    }
  }

  context() {
    return {
      seat: this.yourSeat,
      spectator: this.yourSeat === null,
      names: this.names(),
      send: (command) => this.send(command),
      pending: this.pending,
      replay: this.replay.at !== null,
      over: this.isOver(),
      shapes: shapesOn(),
      state: this.rendererState,
      rerender: () => this.render(),
      gameId: this.id,
    };
  }

  renderBoard() {
    const root = this.el.board;
    const view = this.replay.at !== null ? this.replay.view || this.view : this.view;
    root.classList.toggle("is-pending", this.pending);
    root.classList.toggle("is-replay", this.replay.at !== null);
    if (!view || !this.renderer) {
      if (!root.dataset.empty) {
        clear(root).append(h("p", { class: "muted board-empty" }, this.status === "open" ? "The board appears when the game starts." : "Loading the board…"));
        root.dataset.empty = "1";
      }
      return;
    }
    delete root.dataset.empty;
    if (!Object.keys(view).length) {
      clear(root).append(h("p", { class: "muted board-empty" }, "The table is laid out with the next move."));
      return;
    }
    try {
      this.renderer.render(root, view, this.currentLegal(), this.context());
    } catch (err) {
      console.error(err);
      clear(root).append(h("p", { class: "error" }, "The board could not be drawn."), h("pre", { class: "mono small-text" }, String(err)));
    }
  }

  renderResult() {
    const box = this.el.result;
    const outcome = this.view?.outcome || (this.isOver() ? this.summary?.outcome : null);
    if (!outcome || !outcome.ranking?.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const names = this.names();
    const label = this.renderer?.breakdownLabel || ((key) => key.replaceAll("_", " "));
    const rows = [];
    outcome.ranking.forEach((group, index) => {
      for (const seat of group) {
        const breakdown = outcome.breakdown?.[String(seat)] || {};
        rows.push(
          h(
            "tr",
            { class: seat === this.yourSeat ? "row-you" : null, dataset: { seat: String(seat) } },
            h("td", { class: "num" }, String(index + 1)),
            h("th", { scope: "row" }, seatBadge(seat, 14), " ", names[seat] || `seat ${seat}`),
            h("td", { class: "num score" }, String(outcome.scores?.[String(seat)] ?? "")),
            h(
              "td",
              { class: "breakdown" },
              Object.keys(breakdown).length
                ? h(
                    "dl",
                    { class: "breakdown-list" },
                    Object.entries(breakdown).map(([key, value]) => [h("dt", {}, label(key)), h("dd", {}, typeof value === "object" ? JSON.stringify(value) : String(value))]),
                  )
                : h("span", { class: "muted" }, "—"),
            ),
          ),
        );
      }
    });
    const seed = this.summary?.seed;
    clear(box).append(
      h("h2", { id: "result-heading" }, "Final scores"),
      h(
        "table",
        { class: "result-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Breakdown"))),
        h("tbody", {}, rows),
      ),
      seed
        ? h("p", { class: "small-text muted" }, "Seed ", h("code", { class: "mono" }, seed), " (its SHA-256 was published at the start; ", h("a", { href: `/api/tables/${this.id}/audit/` }, "audit"), ").")
        : null,
    );
  }

  renderReplay() {
    const box = this.el.replay;
    if (!this.isOver() || !this.lastSeq) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    for (const item of this.el.log.children) this.makeLogEntrySeekable(item, Number(item.dataset.seq));
    const head = this.lastSeq;
    const at = this.replay.at ?? head;
    for (const item of this.el.log.querySelectorAll("[aria-current]")) item.removeAttribute("aria-current");
    if (this.replay.at !== null) {
      const current = document.getElementById(`ev-${at}`);
      current?.setAttribute("aria-current", "step");
      if (current) {
        const log = this.el.log;
        const top = current.offsetTop;
        if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - current.offsetHeight) {
          log.scrollTop = top - log.clientHeight / 2;
        }
      }
    }
    if (!box.dataset.built) {
      box.dataset.built = "1";
      const slider = h("input", {
        type: "range",
        id: "replay-slider",
        min: 1,
        max: head,
        value: at,
        "aria-describedby": "replay-position",
      });
      let timer = null;
      slider.addEventListener("input", () => {
        clearTimeout(timer);
        const value = Number(slider.value);
        timer = setTimeout(() => this.seek(value), 120);
      });
      const step = (label, key, fn, text) => h("button", { type: "button", class: "small", "aria-label": label, title: label, dataset: { step: key }, onclick: fn }, text);
      clear(box).append(
        h("h2", { id: "replay-heading" }, "Replay"),
        h("label", { for: "replay-slider", class: "visually-hidden" }, "Move"),
        slider,
        h(
          "div",
          { class: "actions replay-steps" },
          step("First move", "first", () => this.seek(1), "First"),
          step("Previous move", "back", () => this.seek((this.replay.at ?? this.lastSeq) - 1), "◀ Back"),
          step("Next move", "next", () => this.seek((this.replay.at ?? this.lastSeq) + 1), "Next ▶"),
          step("Last move", "last", () => this.seek(this.lastSeq), "Last"),
        ),
        h("p", { id: "replay-position", class: "small-text" }),
      );
    }
    const slider = box.querySelector("#replay-slider");
    slider.max = String(head);
    if (document.activeElement !== slider) slider.value = String(at);
    box.querySelector("#replay-position").textContent =
      (this.replay.loading ? "Loading… " : "") + (this.replay.at === null ? `Final position (move ${head}).` : `After move ${at} of ${head}.`);
  }
}

const config = JSON.parse(document.getElementById("table-config").textContent);
const client = new TableClient(config);
// Exposed for debugging in the console and for the browser tests.
window.kingdomTable = client;
client.start();
