// The move log: events appended once each in seq order; entries seek the replay once the
// game is over.

import { h } from "../dom.js";
import { seatBadge } from "../players.js";

export class LogPart {
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
}
