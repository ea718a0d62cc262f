// The replay of a finished game: the slider, the step buttons and the board at a move.

import { get, showError } from "../api.js";
import { clear, h } from "../dom.js";

export class ReplayPart {
  async seek(seq) {
    const head = this.lastSeq;
    if (!head) return;
    const at = Math.max(1, Math.min(seq, head));
    this.replay.at = at === head ? null : at;
    if (this.replay.at === null) {
      this.replay.view = null;
      this.render();
      return;
    }
    const ticket = {};
    this.replay.loading = ticket;
    this.render();
    try {
      const seen = await get(`/api/tables/${this.id}/view/?at=${at}`);
      if (this.replay.loading !== ticket) return;
      this.replay.view = seen.state;
      this.replay.at = seen.seq;
    } catch (err) {
      showError(err);
    } finally {
      if (this.replay.loading === ticket) this.replay.loading = null;
    }
    this.render();
  }

  renderReplay() {
    const box = this.el.replay;
    if (!this.isOver() || !this.lastSeq) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    for (const item of this.el.log.children) this.makeLogEntrySeekable(item, Number(item.dataset.seq));
    const head = this.lastSeq;
    const at = this.replay.at ?? head;
    for (const item of this.el.log.querySelectorAll("[aria-current]")) item.removeAttribute("aria-current");
    if (this.replay.at !== null) {
      const current = document.getElementById(`ev-${at}`);
      current?.setAttribute("aria-current", "step");
      if (current) {
        const log = this.el.log;
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
        h("h2", { id: "replay-heading" }, "Replay"),
        h("label", { for: "replay-slider", class: "visually-hidden" }, "Move"),
        slider,
        h(
          "div",
          { class: "actions replay-steps" },
          step("First move", "first", () => this.seek(1), "First"),
          step("Previous move", "back", () => this.seek((this.replay.at ?? this.lastSeq) - 1), "◀ Back"),
          step("Next move", "next", () => this.seek((this.replay.at ?? this.lastSeq) + 1), "Next ▶"),
          step("Last move", "last", () => this.seek(this.lastSeq), "Last"),
        ),
        h("p", { id: "replay-position", class: "small-text" }),
      );
    }
    const slider = box.querySelector("#replay-slider");
    slider.max = String(head);
    if (document.activeElement !== slider) slider.value = String(at);
    box.querySelector("#replay-position").textContent =
      (this.replay.loading ? "Loading… " : "") + (this.replay.at === null ? `Final position (move ${head}).` : `After move ${at} of ${head}.`);
  }
}
