// The replay of a finished game: the slider, the step buttons and the board at a move.

import { get, showError } from "../api.js";
import { clear, h } from "../dom.js";

export class ReplayPart {
  constructor(table, client) {
    this.table = table; // table.replay: the move shown and its board, shared with the others
    this.client = client;
    this.loading = null; // a token while the board at a move is being fetched
  }

  async seek(seq) {
    const table = this.table;
    const replay = table.replay;
    const head = table.lastSeq;
    if (!head) return;
    const at = Math.max(1, Math.min(seq, head));
    replay.at = at === head ? null : at;
    if (replay.at === null) {
      replay.view = null;
      this.client.render();
      return;
    }
    const ticket = {};
    this.loading = ticket;
    this.client.render();
    try {
      const seen = await get(`/api/tables/${table.id}/view/?at=${at}`);
      if (this.loading !== ticket) return;
      replay.view = seen.state;
      replay.at = seen.seq;
    } catch (err) {
      showError(err);
    } finally {
      if (this.loading === ticket) this.loading = null;
    }
    this.client.render();
  }

  renderReplay() {
    const table = this.table;
    const replay = table.replay;
    const box = table.el.replay;
    if (!table.isOver() || !table.lastSeq) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    for (const item of table.el.log.children) this.client.log.makeLogEntrySeekable(item, Number(item.dataset.seq));
    const head = table.lastSeq;
    const at = replay.at ?? head;
    for (const item of table.el.log.querySelectorAll("[aria-current]")) item.removeAttribute("aria-current");
    if (replay.at !== null) {
      const current = document.getElementById(`ev-${at}`);
      current?.setAttribute("aria-current", "step");
      if (current) {
        const log = table.el.log;
        const top = current.offsetTop;
        if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - current.offsetHeight) {
          log.scrollTop = top - log.clientHeight / 2;
        }
      }
    }
    if (!box.dataset.built) {
      box.dataset.built = "1";
      const slider = h("input", {
        type: "range",
        id: "replay-slider",
        min: 1,
        max: head,
        value: at,
        "aria-describedby": "replay-position",
      });
      let timer = null;
      slider.addEventListener("input", () => {
        clearTimeout(timer);
        const value = Number(slider.value);
        timer = setTimeout(() => this.seek(value), 120);
      });
      const step = (label, key, fn, text) => h("button", { type: "button", class: "small", "aria-label": label, title: label, dataset: { step: key }, onclick: fn }, text);
      clear(box).append(
        h("h2", { id: "replay-heading", class: "visually-hidden" }, "Replay"),
        h("label", { for: "replay-slider", class: "visually-hidden" }, "Move"),
        slider,
        h(
          "div",
          { class: "actions replay-steps" },
          step("First move", "first", () => this.seek(1), "First"),
          step("Previous move", "back", () => this.seek((replay.at ?? table.lastSeq) - 1), "◀ Back"),
          step("Next move", "next", () => this.seek((replay.at ?? table.lastSeq) + 1), "Next ▶"),
          step("Last move", "last", () => this.seek(table.lastSeq), "Last"),
        ),
        h("p", { id: "replay-position", class: "small-text" }),
      );
    }
    const slider = box.querySelector("#replay-slider");
    slider.max = String(head);
    if (document.activeElement !== slider) slider.value = String(at);
    box.querySelector("#replay-position").textContent =
      (this.loading ? "Loading… " : "") + (replay.at === null ? `Final position (move ${head}).` : `After move ${at} of ${head}.`);
  }
}
