// The move log: events appended once each in seq order; entries seek the replay once the
// game is over.

import { h } from "../dom.js";
import { seatBadge } from "../players.js";

/** The seat a log line is about, from the event's public facts (not who sent the command
 * that produced it: a bot's turn begins after the human's move). None: the table's. */
export function aboutSeat(event) {
  const data = event.data || {};
  for (const key of ["seat", "winner"]) if (Number.isInteger(data[key])) return data[key];
  if (Array.isArray(data.seats) && data.seats.length === 1) return data.seats[0];
  const winners = data.outcome?.winners;
  return Array.isArray(winners) && winners.length === 1 ? winners[0] : null;
}

function clockTime(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

export class LogPart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
    this.logged = new Set(); // the seqs in the log
    this.shown = 0; // the lines a player sees: their numbers count these, not the seqs
  }

  /** Append events in seq order, each once. Returns false on a gap (the caller catches up). */
  applyEvents(events) {
    const sorted = [...(events || [])].sort((a, b) => a.seq - b.seq);
    const table = this.table;
    for (const event of sorted) {
      if (event.seq <= table.lastSeq || this.logged.has(event.seq)) continue;
      if (event.seq !== table.lastSeq + 1) return false;
      this.appendLog(event);
      table.events.push(event);
      table.lastSeq = event.seq;
      table.lastEventAt = event.recorded_at; // a bot's thinking is counted from here
    }
    return true;
  }

  appendLog(event) {
    this.logged.add(event.seq);
    const log = this.table.el.log;
    const nearBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    const about = aboutSeat(event);
    // An empty line (the clocks pressed) keeps its place in seq order but is not shown.
    const quiet = event.text === "";
    const item = h(
      "li",
      {
        class: ["log-entry", `event-${event.type}`],
        id: `ev-${event.seq}`,
        hidden: quiet,
        dataset: { seq: String(event.seq), type: event.type, actor: event.actor || "", about: about === null ? "" : String(about) },
      },
      // Numbered 1, 2, 3… as read: a seq would skip the quiet lines hidden here.
      h("span", { class: "log-seq", "aria-hidden": "true" }, quiet ? "" : String(++this.shown)),
      about !== null ? seatBadge(about, 12) : h("span", { class: "log-system", "aria-hidden": "true" }, "·"),
      h("span", { class: "log-text" }, event.text ?? event.type.replaceAll("_", " ")),
      event.recorded_at ? h("time", { class: "log-time", datetime: event.recorded_at, title: new Date(event.recorded_at).toLocaleString() }, clockTime(event.recorded_at)) : null,
    );
    if (this.table.isOver()) this.makeLogEntrySeekable(item, event.seq);
    log.append(item);
    if (nearBottom && this.table.replay.at === null) log.scrollTop = log.scrollHeight;
  }

  makeLogEntrySeekable(item, seq) {
    if (item.dataset.seekable) return;
    item.dataset.seekable = "1";
    item.tabIndex = 0;
    item.title = "Show the board just after this move";
    const go = () => this.client.replay.seek(seq);
    item.addEventListener("click", go);
    item.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        go();
      }
    });
  }
}
