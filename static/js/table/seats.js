// The seat panels and their clocks.

import { clockReading, timeControlText } from "../clock.js";
import { clear, h } from "../dom.js";
import { seatBadge, seatColour } from "../players.js";

export class SeatsPart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
  }

  // ---- clocks (kept by the server; the page counts down from its deadlines) -------------
  serverNow() {
    return Date.now() + (this.table.serverOffset || 0);
  }

  /** The bot seats to act now, thinking: each against its budget (the table's think
   * time), counted from the last event (when its turn began). */
  thinkingBots() {
    const table = this.table;
    if (table.status !== "active" || table.replay.at !== null || !table.view || !table.lastEventAt) return [];
    const bots = new Set((table.summary?.seats || []).filter((s) => s.seat !== null && (s.bot || s.resigned || s.expelled || s.kicked)).map((s) => s.seat));
    return (table.view.to_act || []).filter((seat) => bots.has(seat));
  }

  thinkingBar() {
    const seats = this.thinkingBots();
    if (!seats.length) return null;
    const names = this.table.names();
    const who = seats.map((seat) => names[seat] || `seat ${seat}`).join(", ");
    const bar = h("span", { class: "bot-thinking", id: "bot-thinking", role: "progressbar", "aria-label": `${who} thinking`, "aria-valuemin": "0" }, h("span", { class: "bot-thinking-fill" }));
    const label = h("span", { class: "bot-thinking-text", id: "bot-thinking-text" });
    this.updateThinking(bar, label);
    return h("span", { class: "bot-thinking-box" }, bar, label);
  }

  updateThinking(bar = document.getElementById("bot-thinking"), label = document.getElementById("bot-thinking-text")) {
    if (!bar || !label) return;
    const budget = Number(this.table.summary?.bot_think_seconds) || 1;
    const elapsed = Math.max(0, (this.serverNow() - Date.parse(this.table.lastEventAt)) / 1000);
    bar.setAttribute("aria-valuemax", String(budget));
    bar.setAttribute("aria-valuenow", String(Math.min(elapsed, budget).toFixed(1)));
    bar.firstChild.style.width = `${Math.min(100, (elapsed / budget) * 100).toFixed(1)}%`;
    bar.classList.toggle("over", elapsed > budget);
    label.textContent = elapsed > budget ? `thinking… ${Math.round(elapsed)} s (budget ${budget} s)` : `thinking… ${Math.round(elapsed)} of ${budget} s`;
  }

  updateClocks() {
    this.updateThinking();
    const table = this.table;
    const clock = (table.replay.at !== null ? table.replay.view : table.view)?.clock;
    for (const el of table.el.seats.querySelectorAll(".seat-clock")) {
      const reading = clockReading(clock, Number(el.dataset.clockSeat), this.serverNow());
      el.textContent = reading ? reading.text : "";
      el.classList.toggle("running", !!reading?.running && table.status === "active");
      el.classList.toggle("low", !!reading?.low);
      el.classList.toggle("out", !!reading?.out);
    }
  }

  renderSeats() {
    const table = this.table;
    const list = table.el.seats;
    clear(list);
    // While the scored board is shown, the seats read as it does (its gold, nobody to act).
    const paused = table.replay.at === null ? this.client.interlude.pausedView() : null;
    const view = table.replay.view || paused || table.view;
    const seats = [...(table.summary?.seats || [])].sort((a, b) => (a.seat ?? 99) - (b.seat ?? 99) || a.id - b.id);
    const toAct = new Set(paused ? [] : view?.to_act || []);
    const resigned = new Set(view?.resigned || []);
    for (const seat of seats) {
      const number = seat.seat;
      const isYou = number !== null && number === table.yourSeat;
      const detail = number !== null && view && table.renderer?.seatSummary ? table.renderer.seatSummary(view, number, this.client.context()) : null;
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
            // A player who left is named as themselves; the tag says a bot plays on.
            h("strong", { class: "seat-name" }, seat.user && (seat.resigned || seat.expelled || seat.kicked) ? seat.user : seat.name),
            isYou ? h("span", { class: "tag tag-you" }, "you") : null,
            seat.bot && !seat.resigned ? h("span", { class: "tag" }, `bot · ${seat.bot}`) : null,
            seat.resigned || resigned.has(number) ? h("span", { class: "tag" }, table.isOver() ? "resigned" : "resigned · a bot plays on") : null,
            toAct.has(number) && !table.isOver() ? h("span", { class: "tag tag-turn", title: "to act" }, "to act") : null,
          ),
          detail ? h("div", { class: "seat-detail" }, detail) : null,
          view?.clock && number !== null && clockReading(view.clock, number, this.serverNow())
            ? h("div", { class: "seat-clock", role: "timer", "aria-label": `clock of ${seat.name}`, dataset: { clockSeat: String(number) } })
            : null,
        ),
      );
    }
    const control = timeControlText(table.summary?.time_control);
    document.getElementById("seats-heading").textContent = control ? `Players · ${control}` : "Players";
    this.updateClocks();
  }
}
