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
  constructor(table, client) {
    this.table = table;
    this.client = client;
    this.interlude = null; // the pause shown: {event, ticket, view (once fetched)}
    this.interludeTimer = null; // ends it after INTERLUDE_MS
  }

  /** The board to show instead of the live one while paused, or null. */
  pausedView() {
    return this.interlude?.view || null;
  }

  maybeInterlude(events) {
    const table = this.table;
    const wants = table.renderer?.interludeAfter;
    if (!wants || table.status !== "active") return;
    const event = [...events].reverse().find((e) => wants(e));
    // Only a live one: the board after it is gone (the game went on past it).
    if (!event || event.seq === table.lastSeq) return;
    const ticket = {};
    this.interlude = { event, ticket, view: null };
    clearTimeout(this.interludeTimer);
    this.interludeTimer = setTimeout(() => this.endInterlude(), INTERLUDE_MS);
    get(`/api/tables/${table.id}/view/?at=${event.seq}`)
      .then((seen) => {
        if (this.interlude?.ticket !== ticket) return;
        this.interlude.view = seen.state;
        this.client.render();
      })
      .catch(() => this.endInterlude());
  }

  endInterlude() {
    clearTimeout(this.interludeTimer);
    if (!this.interlude) return;
    this.interlude = null;
    this.client.render();
  }

  /** What the banner says while the scored board is shown, or null. */
  bannerText() {
    if (!this.interlude) return null;
    const summary = this.table.renderer?.interludeSummary?.(this.interlude.event, this.table.names());
    return summary ? `${summary.title}: the board as it was scored. Continue when you have read it.` : null;
  }

  /** The interlude's box, for the bar that stays in view, or null. */
  interludeBox() {
    const summary = this.table.renderer?.interludeSummary?.(this.interlude.event, this.table.names());
    if (!summary) return null;
    return h(
      "div",
      { class: "interlude", id: "interlude", role: "status" },
      h("h2", {}, summary.title),
      h(
        "table",
        { class: "interlude-gains" },
        h("tbody", {}, summary.lines.map((line) =>
          h(
            "tr",
            { dataset: { seat: String(line.seat) } },
            h("th", { scope: "row" }, seatBadge(line.seat, 14), " ", line.text),
            h("td", { class: "interlude-detail" }, line.detail || ""),
            h("td", { class: "num" }, line.total === undefined ? "" : `now ${line.total} gold`),
          ),
        )),
      ),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "button", class: "primary small", id: "interlude-continue", onclick: () => this.endInterlude() }, "Continue"),
        h("span", { class: "muted small-text" }, `The next epoch shows in ${Math.round(INTERLUDE_MS / 1000)} s.`),
      ),
    );
  }
}
