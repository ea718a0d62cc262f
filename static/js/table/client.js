// The table client: start-up, the render pass, and the wiring of its parts (stream, log,
// seats, board, actions, replay, interlude, guide). The state the parts share is declared in
// state.js; each part keeps its own state and reaches a sibling through the client.

import { get, showError } from "../api.js";
import { shapesOn } from "../prefs.js";
import { ActionsPart } from "./actions.js";
import { AlertsPart } from "./alerts.js";
import { BoardPart } from "./board.js";
import { GuidePart } from "./guide.js";
import { HelpPart } from "./help.js";
import { InterludePart } from "./interlude.js";
import { movesToMark } from "./last_moves.js";
import { LogPart } from "./log.js";
import { ReplayPart } from "./replay.js";
import { SeatsPart } from "./seats.js";
import { tapTips } from "./tap_tips.js";
import { TableState } from "./state.js";
import { PING_EVERY, StreamPart } from "./stream.js";

export class TableClient {
  constructor(config) {
    const table = new TableState(config);
    this.table = table;
    this.rendererState = {}; // the renderer's own memory across renders (selection...)
    this.stream = new StreamPart(table, this);
    this.log = new LogPart(table, this);
    this.seats = new SeatsPart(table, this);
    this.board = new BoardPart(table, this);
    this.actions = new ActionsPart(table, this);
    this.replay = new ReplayPart(table, this);
    this.interlude = new InterludePart(table, this);
    this.alerts = new AlertsPart(table, this);
    this.guide = new GuidePart(table, this);
    this.help = new HelpPart(table, this);
  }

  // ---- what the console and the browser tests read (window.kingdomTable) ----------------
  get yourSeat() {
    return this.table.yourSeat;
  }

  get view() {
    return this.table.view;
  }

  get lastSeq() {
    return this.table.lastSeq;
  }

  get pending() {
    return this.table.pending;
  }

  get status() {
    return this.table.status;
  }

  names() {
    return this.table.names();
  }

  currentLegal() {
    return this.table.currentLegal();
  }

  send(command) {
    return this.actions.send(command);
  }

  // ---- start-up ------------------------------------------------------------------------
  async start() {
    await this.board.loadRenderer();
    await this.loadDetail();
    await this.stream.catchUp();
    this.render();
    // Over, the game's socket still brings one piece of news: a player opened a rematch.
    this.stream.connect();
    if (this.table.isOver()) this.stream.setConn("idle", "game over");
    if (this.table.status === "open") this.stream.watchLobby();
    window.addEventListener("kingdom:prefs", () => this.render());
    tapTips(this.table.el.page);
    window.addEventListener("online", () => this.stream.reconnectNow());
    window.addEventListener("pagehide", () => this.stream.stop());
    // Back/forward cache: a restored page has closed its sockets; start afresh.
    window.addEventListener("pageshow", (ev) => {
      if (ev.persisted) window.location.reload();
    });
    setInterval(() => this.stream.heartbeat(), PING_EVERY);
    setInterval(() => this.seats.updateClocks(), 500);
  }

  async loadDetail() {
    try {
      const detail = await get(`/api/tables/${this.table.id}/`);
      this.table.takeDetail(detail);
      if (typeof detail.server_time_ms === "number") this.table.serverOffset = detail.server_time_ms - Date.now();
      this.table.takeView(detail.view_seq, detail.view);
    } catch (err) {
      showError(err);
    }
  }

  // ---- rendering --------------------------------------------------------------------------
  render() {
    this.alerts.renderToggle();
    this.board.renderBanner();
    this.actions.renderPrelude();
    this.seats.renderSeats();
    this.actions.renderActions();
    this.board.renderBoard();
    this.board.renderResult();
    this.replay.renderReplay();
    this.guide.renderGuide();
    this.help.renderHelp();
  }

  /** What a game's renderer (static/js/games/*.js) is given besides the view. */
  context() {
    const table = this.table;
    return {
      seat: table.yourSeat,
      spectator: table.yourSeat === null,
      names: table.names(),
      send: (command) => this.send(command),
      pending: table.pending,
      replay: table.replay.at !== null,
      over: table.isOver(),
      shapes: shapesOn(),
      state: this.rendererState,
      rerender: () => this.render(),
      gameId: table.id,
      bar: table.el.turnBar, // a renderer's turn bar goes here: it stays in view
      // The last moves to mark on the board; those after `animatedUpTo` are new to this
      // page and play their arrival once.
      lastMoves: movesToMark(table.events, table.renderer, table.yourSeat, table.replay.at),
      animatedUpTo: this.rendererState.animatedUpTo ?? table.lastSeq,
    };
  }
}
