// A pause on a board the next events would wipe (Kingdoms: the scored board at the end of
// an epoch, before its castles come off). The game's renderer says which events call for
// one (``interludeAfter``) and what to say (``interludeSummary``); the board just after
// that event is fetched like a replay step and shown until the player continues, or for
// a few seconds.

import { get } from "../api.js";
import { h } from "../dom.js";
import { seatBadge } from "../players.js";

export const INTERLUDE_MS = 12000;

export class InterludePart {
  maybeInterlude(events) {
    const wants = this.renderer?.interludeAfter;
    if (!wants || this.status !== "active") return;
    const event = [...events].reverse().find((e) => wants(e));
    // Only a live one: the board after it is gone (the game went on past it).
    if (!event || event.seq === this.lastSeq) return;
    const ticket = {};
    this.interlude = { event, ticket, view: null };
    clearTimeout(this.interludeTimer);
    this.interludeTimer = setTimeout(() => this.endInterlude(), INTERLUDE_MS);
    get(`/api/tables/${this.id}/view/?at=${event.seq}`)
      .then((seen) => {
        if (this.interlude?.ticket !== ticket) return;
        this.interlude.view = seen.state;
        this.render();
      })
      .catch(() => this.endInterlude());
  }

  endInterlude() {
    clearTimeout(this.interludeTimer);
    if (!this.interlude) return;
    this.interlude = null;
    this.render();
  }

  /** The interlude's box above the board, or null. */
  interludeBox() {
    const summary = this.renderer?.interludeSummary?.(this.interlude.event, this.names());
    if (!summary) return null;
    return h(
      "div",
      { class: "interlude", id: "interlude", role: "status" },
      h("h2", {}, summary.title),
      h("ul", { class: "interlude-gains" }, summary.lines.map((line) => h("li", { dataset: { seat: String(line.seat) } }, seatBadge(line.seat, 14), line.text))),
      h("button", { type: "button", class: "primary small", id: "interlude-continue", onclick: () => this.endInterlude() }, "Continue"),
      h("span", { class: "muted small-text" }, `The next epoch shows in ${Math.round(INTERLUDE_MS / 1000)} s.`),
    );
  }
}
