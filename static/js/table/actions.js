// Commands and table actions: sending a move (with the stale-seq retry), join, leave,
// bots and start before the game, skip and expel on timeouts, and resign.

import { ApiError, newCommandId, post, showError, toast } from "../api.js";
import { BOT_LEVELS } from "../bot_levels.js";
import { clear, h } from "../dom.js";

// Where seats act at once, another seat's moves can come in a burst (a Kingdom Cards
// player may change their kingdom up to 8 times a turn, a bot in quick succession), each
// refusing a move sent at the head before it: a move still legal is sent again up to this
// many times, each time at the head the page has just caught up with.
const CONCURRENT_RESENDS = 10;

export class ActionsPart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
    this.confirmResign = false; // the Resign button was pressed: ask "Yes, resign"
  }

  // ---- commands ---------------------------------------------------------------------------
  async send(command, resent = 0) {
    const table = this.table;
    const { stream, log, interlude } = this.client;
    if (table.pending || table.replay.at !== null) return;
    table.pending = true;
    this.client.render();
    try {
      const result = await stream.submit({ command, command_id: newCommandId(), expected_seq: table.viewSeq });
      table.awaitingSeq = Math.max(table.awaitingSeq, result.head_seq);
      if (result.events) {
        // Answered by POST, with our events: show them now.
        const before = table.lastSeq;
        if (!log.applyEvents(result.events)) stream.catchUp();
        interlude.maybeInterlude(result.events.filter((e) => e.seq > before && e.seq <= table.lastSeq));
      }
      // The socket brings the new events and view; if it is slow (or down), ask for them.
      setTimeout(() => {
        if (table.viewSeq < table.awaitingSeq) stream.catchUp();
      }, 1500);
    } catch (err) {
      if (err instanceof ApiError && err.code === "stale_seq") {
        table.pending = false;
        await stream.catchUp();
        const same = JSON.stringify(command);
        if (table.renderer?.concurrentSeats && resent < CONCURRENT_RESENDS && table.currentLegal().some((c) => JSON.stringify(c) === same)) {
          // Another seat moved first, and our move is still legal: send it again.
          return await this.send(command, resent + 1);
        }
        toast("The game moved on before your move arrived; here is the new position.", "info");
      } else {
        showError(err);
      }
    } finally {
      table.pending = false;
      this.client.render();
    }
  }

  async tableAction(path, body) {
    const table = this.table;
    try {
      const detail = await post(`/api/tables/${table.id}/${path}`, body);
      table.takeDetail(detail);
      table.takeView(detail.view_seq, detail.view);
      await this.client.stream.catchUp();
    } catch (err) {
      showError(err);
    }
    this.client.render();
  }

  renderPrelude() {
    const table = this.table;
    const box = table.el.prelude;
    if (table.status !== "open" || !table.summary) {
      box.hidden = true;
      clear(box);
      return;
    }
    box.hidden = false;
    const seats = table.summary.seats || [];
    const me = table.username;
    const seated = me && seats.some((seat) => seat.user === me && !seat.bot);
    const isHost = me && table.summary.host === me;
    const room = seats.length < table.summary.seats_wanted;
    const buttons = [];
    if (me && !seated && room) buttons.push(h("button", { type: "button", class: "primary", onclick: () => this.tableAction("join/") }, "Join this table"));
    if (seated) buttons.push(h("button", { type: "button", onclick: () => this.tableAction("leave/") }, "Leave"));
    if (isHost && room) {
      for (const level of BOT_LEVELS) {
        buttons.push(h("button", { type: "button", onclick: () => this.tableAction("bots/", { level }) }, `Add ${level} bot`));
      }
    }
    if (isHost) buttons.push(h("button", { type: "button", class: "primary", onclick: () => this.tableAction("start/") }, "Start the game"));
    if (!me) buttons.push(h("a", { class: "button-link", href: `/accounts/login/?next=${encodeURIComponent(location.pathname)}` }, "Log in to join"));
    clear(box).append(
      h("p", {}, `${seats.length} of ${table.summary.seats_wanted} seats taken. The seats are drawn at random when the game starts.`),
      h("div", { class: "actions" }, buttons),
    );
  }

  renderActions() {
    const table = this.table;
    const box = table.el.actions;
    clear(box);
    const view = table.view;
    const names = table.names();
    const gone = new Set([...(view?.expelled || []), ...(view?.resigned || [])]);
    // Out of time (timed tables) or gone too long (untimed: view.absent): the same choice.
    const absent = new Set(view?.absent || []);
    const outOfTime = [...(view?.clock?.timed_out || []), ...absent].filter((seat) => seat !== table.yourSeat && !gone.has(seat));
    if (table.status === "active" && table.yourSeat !== null && !gone.has(table.yourSeat)) {
      for (const seat of outOfTime) {
        const name = names[seat] || `seat ${seat}`;
        const skipping = (view.skipping || []).includes(seat);
        box.append(
          h(
            "div",
            { class: "timeout-actions", dataset: { seat: String(seat) } },
            h("span", {}, `${name} ${absent.has(seat) ? "has not moved for a long time" : "is out of time"}${skipping ? "; a bot plays their turns" : ""}.`),
            skipping ? null : h("button", { type: "button", onclick: () => this.tableAction("skip/", { seat }) }, "Skip their turn"),
            h("button", { type: "button", class: "danger", onclick: () => this.tableAction("expel/", { seat }) }, `Expel ${name}`),
          ),
        );
      }
    }
    const canResign =
      table.status === "active" && table.yourSeat !== null && !(view?.resigned || []).includes(table.yourSeat);
    if (!canResign) return;
    if (!this.confirmResign) {
      box.append(h("button", { type: "button", class: "danger", id: "resign", onclick: () => { this.confirmResign = true; this.client.render(); document.getElementById("resign-confirm")?.focus(); } }, "Resign"));
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
        h("button", { type: "button", onclick: () => { this.confirmResign = false; this.client.render(); } }, "Cancel"),
      );
    }
  }
}
