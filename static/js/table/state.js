// What the table's parts share: every field that more than one part reads or writes,
// declared here once, and the readings made from them alone. A field only one part uses
// lives in that part.

export class TableState {
  constructor(config) {
    // ---- the table, from the page --------------------------------------------------------
    this.id = config.game_id; // the game's id, in every URL
    this.ruleset = config.ruleset; // the ruleset key: which renderer draws the board
    this.rulesetName = config.ruleset_name; // for the page title
    this.username = config.username; // who is looking (null when logged out)

    // ---- the table, from the server -------------------------------------------------------
    this.status = config.status; // open, active, finished or aborted
    this.summary = null; // table summary (seats, options, outcome, seed...)
    this.yourSeat = null; // our seat number, null for a spectator (and before the start)
    this.serverOffset = 0; // server clock minus ours, in ms: the clocks count from it

    // ---- the log ------------------------------------------------------------------------
    this.lastSeq = 0; // the last event applied to the log
    this.lastEventAt = null; // when that event was recorded: a bot's thinking counts from it
    this.events = []; // every event applied, in seq order: the board marks the last moves

    // ---- the view and the legal commands -------------------------------------------------
    this.view = null; // our view of the game, as the server filtered it
    this.viewSeq = 0; // the seq that view is at
    this.legal = []; // the commands we may send now
    this.legalSeq = 0; // the seq those commands are for
    this.awaitingSeq = 0; // after our own command: legal moves are stale until this seq
    this.pending = false; // a command of ours is on its way

    // ---- the replay and the renderer ------------------------------------------------------
    this.replay = { at: null, view: null }; // at: the move shown (null: the live board)
    this.renderer = null; // the game's module in static/js/games/ (board.js loads it)

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

  /** Take a view unless it is older than ours; whether it was taken. */
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

  /** Take the table's detail (GET or POST answers on /api/tables/<id>/...). */
  takeDetail(detail) {
    this.summary = detail;
    this.status = detail.status;
    this.yourSeat = detail.your_seat;
  }

  isOver() {
    return this.status === "finished" || this.status === "aborted";
  }

  /** Each seat's player by name. A person who left the table (resigned, expelled,
   * kicked) keeps their own name, in the log too: a bot plays the seat on, but the moves
   * and the departure were theirs, and the seats list says who left. */
  names() {
    const names = {};
    for (const seat of this.summary?.seats || []) {
      if (seat.seat === null) continue;
      const departed = seat.resigned || seat.expelled || seat.kicked;
      names[seat.seat] = departed && seat.user ? seat.user : seat.name;
    }
    return names;
  }

  /** The commands to offer now: none during a replay, while ours is on its way, or while
   * the legal list is behind the view. */
  currentLegal() {
    if (this.replay.at !== null || this.pending || this.status !== "active") return [];
    if (this.viewSeq < this.awaitingSeq) return [];
    if (this.legalSeq < this.viewSeq) return [];
    return this.legal;
  }
}
