// The table client: its state, start-up and the render pass. Its methods come from the
// parts beside it (stream, log, seats, board, actions, replay), mixed into one class so
// that each part reads and writes the same state through `this`.

import { get, showError } from "../api.js";
import { shapesOn } from "../prefs.js";
import { ActionsPart } from "./actions.js";
import { BoardPart } from "./board.js";
import { InterludePart } from "./interlude.js";
import { LogPart } from "./log.js";
import { ReplayPart } from "./replay.js";
import { SeatsPart } from "./seats.js";
import { BACKOFF_FIRST, PING_EVERY, StreamPart } from "./stream.js";

export class TableClient {
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
    this.interlude = null; // a scored board shown before the game moves on (interlude.js)
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
      turnBar: document.getElementById("turn-bar"),
      prelude: document.getElementById("prelude"),
    };
  }

  // ---- start-up ------------------------------------------------------------------------
  async start() {
    await this.loadRenderer();
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

  isOver() {
    return this.status === "finished" || this.status === "aborted";
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
      bar: this.el.turnBar, // a renderer's turn bar goes here: it stays in view
    };
  }
}

for (const part of [StreamPart, LogPart, SeatsPart, BoardPart, ActionsPart, ReplayPart, InterludePart]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name !== "constructor") Object.defineProperty(TableClient.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}
