// The turn banner, the board drawn by the game's renderer (static/js/games/*.js), and
// the final scores with their breakdowns.

import { clear, h } from "../dom.js";
import { seatBadge } from "../players.js";

const RENDERERS = {
  kingdoms: "../games/kingdoms.js",
  "kingdom-builder": "../games/kingdom_builder.js",
  "kingdom-cards": "../games/kingdom_cards.js",
};
const STATUS_WORDS = { open: "waiting for players", active: "in progress", finished: "finished", aborted: "aborted" };

export class BoardPart {
  async loadRenderer() {
    try {
      this.renderer = await import(RENDERERS[this.ruleset] || "../games/generic.js");
    } catch (err) {
      console.error(err);
      this.renderer = await import("../games/generic.js");
    }
  }

  renderBanner() {
    const banner = this.el.banner;
    const view = this.view;
    const names = this.names();
    let text;
    let mine = false;
    if (this.status === "open") text = "Waiting for players. The host starts the game.";
    else if (this.status === "aborted") text = "A moderator aborted this game.";
    else if (this.status === "finished" || view?.finished) {
      const winners = (view?.outcome?.winners || this.summary?.outcome?.winners || []).map((w) => names[w] || `seat ${w}`);
      text = winners.length ? `Game over. Won by ${winners.join(" and ")}.` : "Game over.";
    } else if (view && (this.pending || this.viewSeq < this.awaitingSeq)) {
      text = "Sending your move…"; // the view after our own move is on its way
    } else if (view) {
      const toAct = view.to_act || [];
      mine = this.yourSeat !== null && toAct.includes(this.yourSeat);
      const others = toAct.filter((seat) => seat !== this.yourSeat).map((seat) => names[seat] || `seat ${seat}`);
      if (mine) text = others.length ? `Your turn (also ${others.join(", ")}).` : "Your turn.";
      else if (others.length) text = `Waiting for ${others.join(", ")}.`;
      else text = "Waiting…";
      // A player who left (resigned, expelled, kicked) has no seat of theirs any more.
      const left = !!this.username && (this.summary?.seats || []).some((s) => s.user === this.username && (s.resigned || s.expelled || s.kicked));
      if (left) text += " You left this game; a bot plays your seat. You see public information only.";
      else if (this.yourSeat === null) text += " You are watching: you see public information only.";
    } else text = STATUS_WORDS[this.status] || "";
    if (this.replay.at !== null) text = `Replay: the board just after move ${this.replay.at} of ${this.lastSeq}.`;
    banner.textContent = text;
    const thinking = this.replay.at === null && !mine ? this.thinkingBar() : null;
    if (thinking) banner.append(" ", thinking);
    banner.classList.toggle("your-turn", mine && this.replay.at === null);
    banner.dataset.yourTurn = mine ? "1" : "0";
    document.title = `${mine ? "● " : ""}${this.rulesetName} · Kingdom`;
  }

  renderBoard() {
    const root = this.el.board;
    const view = this.replay.at !== null ? this.replay.view || this.view : this.view;
    root.classList.toggle("is-pending", this.pending);
    root.classList.toggle("is-replay", this.replay.at !== null);
    if (!view || !this.renderer) {
      if (!root.dataset.empty) {
        clear(root).append(h("p", { class: "muted board-empty" }, this.status === "open" ? "The board appears when the game starts." : "Loading the board…"));
        root.dataset.empty = "1";
      }
      return;
    }
    delete root.dataset.empty;
    if (!Object.keys(view).length) {
      clear(root).append(h("p", { class: "muted board-empty" }, "The table is laid out with the next move."));
      return;
    }
    const pause = this.replay.at === null && this.interlude?.view ? this.interlude : null;
    try {
      this.renderer.render(root, pause ? pause.view : view, pause ? [] : this.currentLegal(), this.context());
      if (pause) root.prepend(this.interludeBox() || "");
    } catch (err) {
      console.error(err);
      clear(root).append(h("p", { class: "error" }, "The board could not be drawn."), h("pre", { class: "mono small-text" }, String(err)));
    }
  }

  renderResult() {
    const box = this.el.result;
    const outcome = this.view?.outcome || (this.isOver() ? this.summary?.outcome : null);
    const names = this.names();
    const revealedList = this.revealedList(names);
    if (!outcome || !outcome.ranking?.length) {
      // An aborted game has no scores but shows its secrets too.
      box.hidden = !revealedList;
      if (revealedList) clear(box).append(revealedList);
      return;
    }
    box.hidden = false;
    const label = this.renderer?.breakdownLabel || ((key) => key.replaceAll("_", " "));
    const rows = [];
    outcome.ranking.forEach((group, index) => {
      for (const seat of group) {
        const breakdown = outcome.breakdown?.[String(seat)] || {};
        rows.push(
          h(
            "tr",
            { class: seat === this.yourSeat ? "row-you" : null, dataset: { seat: String(seat) } },
            h("td", { class: "num" }, String(index + 1)),
            h("th", { scope: "row" }, seatBadge(seat, 14), " ", names[seat] || `seat ${seat}`),
            h("td", { class: "num score" }, String(outcome.scores?.[String(seat)] ?? "")),
            h(
              "td",
              { class: "breakdown" },
              Object.keys(breakdown).length
                ? h(
                    "dl",
                    { class: "breakdown-list" },
                    Object.entries(breakdown).map(([key, value]) => [h("dt", {}, label(key)), h("dd", {}, typeof value === "object" ? JSON.stringify(value) : String(value))]),
                  )
                : h("span", { class: "muted" }, "—"),
            ),
          ),
        );
      }
    });
    const seed = this.summary?.seed;
    // Who left the table ranks last whatever the seat (played on by a bot) scored: say so.
    const leftWords = { resigned: "resigned", expelled: "was expelled", kicked: "was removed by a moderator" };
    const left = Object.entries(leftWords).flatMap(([key, words]) => (this.view?.[key] || []).map((seat) => `${names[seat] || `seat ${seat}`} ${words}`));
    const leftNote = left.length
      ? h("p", { class: "small-text result-note", dataset: { note: "departures" } }, `${left.join("; ")}: a player who leaves the table ranks last, whatever their seat, played on by a bot, scored.`)
      : null;
    clear(box).append(
      h("h2", { id: "result-heading" }, "Final scores"),
      h(
        "table",
        { class: "result-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Breakdown"))),
        h("tbody", {}, rows),
      ),
      leftNote,
      revealedList,
      seed
        ? h("p", { class: "small-text muted" }, "Seed ", h("code", { class: "mono" }, seed), " (its SHA-256 was published at the start; ", h("a", { href: `/api/tables/${this.id}/audit/` }, "audit"), ").")
        : null,
    );
  }

  revealedList(names) {
    // Once the game is over every seat's secrets are shown (a hand, a starting tile).
    const revealed = Object.entries(this.view?.revealed || {}).filter(([, part]) => Object.keys(part).length);
    if (!revealed.length) return null;
    const text = this.renderer?.revealedText || ((key, value) => `${key.replaceAll("_", " ")}: ${JSON.stringify(value)}`);
    return h(
      "div",
      { class: "revealed", dataset: { part: "revealed" } },
      h("h3", {}, "Revealed at the end"),
      h(
        "ul",
        { class: "small-text" },
        revealed.map(([seat, part]) =>
          h("li", { dataset: { seat } }, seatBadge(Number(seat), 12), " ", names[seat] || `seat ${seat}`, ": ", Object.entries(part).map(([key, value]) => text(key, value)).join("; ")),
        ),
      ),
    );
  }
}
