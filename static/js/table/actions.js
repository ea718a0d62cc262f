// Commands and table actions: sending a move (with the stale-seq retry), join, leave,
// bots and start before the game, skip and expel on timeouts, and resign.

import { ApiError, newCommandId, post, showError, toast } from "../api.js";
import { clear, h } from "../dom.js";

export class ActionsPart {
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
      const before = this.lastSeq;
      if (!this.applyEvents(result.events)) this.catchUp();
      this.maybeInterlude((result.events || []).filter((e) => e.seq > before && e.seq <= this.lastSeq));
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

  renderActions() {
    const box = this.el.actions;
    clear(box);
    const view = this.view;
    const names = this.names();
    const gone = new Set([...(view?.expelled || []), ...(view?.resigned || [])]);
    // Out of time (timed tables) or gone too long (untimed: view.absent): the same choice.
    const absent = new Set(view?.absent || []);
    const outOfTime = [...(view?.clock?.timed_out || []), ...absent].filter((seat) => seat !== this.yourSeat && !gone.has(seat));
    if (this.status === "active" && this.yourSeat !== null && !gone.has(this.yourSeat)) {
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
}
