// The turn banner, the board drawn by the game's renderer (static/js/games/*.js), and
// the final scores with their breakdowns.

import { post, showError } from "../api.js";
import { clear, h } from "../dom.js";
import { seatBadge } from "../players.js";

const RENDERERS = {
  kingdoms: "../games/kingdoms.js",
  "kingdom-builder": "../games/kingdom_builder.js",
  "kingdom-cards": "../games/kingdom_cards.js",
};
const STATUS_WORDS = { open: "waiting for players", active: "in progress", finished: "finished", aborted: "aborted" };

export class BoardPart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
  }

  async loadRenderer() {
    try {
      this.table.renderer = await import(RENDERERS[this.table.ruleset] || "../games/generic.js");
    } catch (err) {
      console.error(err);
      this.table.renderer = await import("../games/generic.js");
    }
  }

  renderBanner() {
    const table = this.table;
    const banner = table.el.banner;
    const view = table.view;
    const names = table.names();
    let text;
    let mine = false;
    if (table.status === "open") text = "Waiting for players. The host starts the game.";
    else if (table.status === "aborted") text = "A moderator aborted this game.";
    else if (table.status === "finished" || view?.finished) {
      const winners = (view?.outcome?.winners || table.summary?.outcome?.winners || []).map((w) => names[w] || `seat ${w}`);
      text = winners.length ? `Game over. Won by ${winners.join(" and ")}.` : "Game over.";
    } else if (this.client.interlude.bannerText()) {
      // The scored board is shown: no turn is offered until the player continues.
      text = this.client.interlude.bannerText();
    } else if (view && (table.pending || table.viewSeq < table.awaitingSeq)) {
      text = "Sending your move…"; // the view after our own move is on its way
    } else if (view) {
      const toAct = view.to_act || [];
      mine = table.yourSeat !== null && toAct.includes(table.yourSeat);
      const others = toAct.filter((seat) => seat !== table.yourSeat).map((seat) => names[seat] || `seat ${seat}`);
      if (mine) text = others.length ? `Your turn (also ${others.join(", ")}).` : "Your turn.";
      else if (others.length) text = `Waiting for ${others.join(", ")}.`;
      else text = "Waiting…";
      // A player who left (resigned, expelled, kicked) has no seat of theirs any more.
      const left = !!table.username && (table.summary?.seats || []).some((s) => s.user === table.username && (s.resigned || s.expelled || s.kicked));
      if (left) text += " You left this game; a bot plays your seat. You see public information only.";
      else if (table.yourSeat === null) text += " You are watching: you see public information only.";
    } else text = STATUS_WORDS[table.status] || "";
    if (table.replay.at !== null) text = `Replay: the board just after move ${table.replay.at} of ${table.lastSeq}.`;
    banner.textContent = text;
    const paused = !!this.client.interlude.bannerText();
    const thinking = table.replay.at === null && !mine && !paused ? this.client.seats.thinkingBar() : null;
    if (thinking) banner.append(" ", thinking);
    banner.classList.toggle("your-turn", mine && table.replay.at === null);
    banner.dataset.yourTurn = mine ? "1" : "0";
    const offeredBy = this.rematchOfferedBy();
    const mark = mine ? "● Your turn · " : offeredBy ? `● ${offeredBy} offers a rematch · ` : "";
    document.title = `${mark}${table.rulesetName} · Kingdom`;
    // The alert rings once a turn, when the view is settled (not while our move is on its way).
    const settled = view && table.status === "active" && table.replay.at === null && !table.pending && table.viewSeq >= table.awaitingSeq;
    if (settled) this.client.alerts.turnNow(table.yourSeat !== null && (view.to_act || []).includes(table.yourSeat));
  }

  renderBoard() {
    const table = this.table;
    const root = table.el.board;
    const view = table.replay.at !== null ? table.replay.view || table.view : table.view;
    root.classList.toggle("is-pending", table.pending);
    root.classList.toggle("is-replay", table.replay.at !== null);
    if (!view || !table.renderer) {
      if (!root.dataset.empty) {
        clear(root).append(h("p", { class: "muted board-empty" }, table.status === "open" ? "The board appears when the game starts." : "Loading the board…"));
        root.dataset.empty = "1";
      }
      return;
    }
    delete root.dataset.empty;
    if (!Object.keys(view).length) {
      clear(root).append(h("p", { class: "muted board-empty" }, "The table is laid out with the next move."));
      return;
    }
    const interlude = this.client.interlude;
    const paused = table.replay.at === null ? interlude.pausedView() : null;
    try {
      const ctx = this.client.context();
      if (paused) ctx.lastMoves = [];
      table.renderer.render(root, paused || view, paused ? [] : table.currentLegal(), ctx);
      // Each new move's arrival plays once, not again on the next render.
      this.client.rendererState.animatedUpTo = table.lastSeq;
      // The scoring goes in the bar that stays in view, where the step's prompt would be.
      if (paused) {
        const box = interlude.interludeBox();
        if (box) clear(table.el.turnBar).append(box);
      }
    } catch (err) {
      console.error(err);
      clear(root).append(h("p", { class: "error" }, "The board could not be drawn."), h("pre", { class: "mono small-text" }, String(err)));
    }
  }

  renderResult() {
    const table = this.table;
    if (table.status === "active") this.client.rendererState.seenLive = true;
    const box = table.el.result;
    const outcome = table.view?.outcome || (table.isOver() ? table.summary?.outcome : null);
    const names = table.names();
    const revealedList = this.revealedList(names);
    if (!outcome || !outcome.ranking?.length) {
      // An aborted game has no scores but shows its secrets too.
      box.hidden = !revealedList;
      if (revealedList) clear(box).append(revealedList);
      return;
    }
    const wasHidden = box.hidden;
    box.hidden = false;
    if (table.replay.at !== null) {
      // Replaying an earlier move: the result folds to one line, so the board stays the
      // page's subject; "Show" goes back to the final position and the full result.
      const byDeparture = table.events.findLast((e) => e.type === "result_declared")?.data?.by;
      const scoreOf = (seat) => (byDeparture ? table.renderer?.scoreOf?.(table.view, seat) ?? "" : outcome.scores?.[String(seat)] ?? "");
      const line = outcome.ranking
        .map((group, index) => group.map((seat) => `${index + 1}. ${this.playerName(seat)} ${scoreOf(seat)}`.trim()).join(", "))
        .join(" · ");
      const show = h("button", { type: "button", class: "link-button", "data-testid": "result-show" }, "Show");
      show.addEventListener("click", () => this.client.replay.seek(table.lastSeq));
      clear(box).append(h("p", { class: "result-folded", dataset: { folded: "1" } }, h("strong", {}, "Final scores: "), line, " ", show));
      return;
    }
    const label = table.renderer?.breakdownLabel || ((key) => key.replaceAll("_", " "));
    // Ended because the others left: the result says who won that way, and each seat's
    // score is the game's own (gold, points) as the board stood, not a 1 or a 0.
    const byDeparture = table.events.findLast((e) => e.type === "result_declared")?.data?.by;
    const departed = this.departedSeats();
    const rows = [];
    outcome.ranking.forEach((group, index) => {
      for (const seat of group) {
        const breakdown = outcome.breakdown?.[String(seat)] || {};
        const own = byDeparture ? table.renderer?.scoreOf?.(table.view, seat) : undefined;
        const score = own ?? (byDeparture ? "—" : outcome.scores?.[String(seat)] ?? "");
        const why = byDeparture ? departed.get(seat) || `won: the others left the table (${byDeparture})` : null;
        rows.push(
          h(
            "tr",
            { class: seat === table.yourSeat ? "row-you" : null, dataset: { seat: String(seat) } },
            h("td", { class: "num" }, String(index + 1)),
            h("th", { scope: "row" }, seatBadge(seat, 14), " ", this.playerName(seat)),
            h("td", { class: "num score" }, String(score)),
            h(
              "td",
              { class: "breakdown" },
              why
                ? h("span", { class: "result-why" }, why)
                : Object.keys(breakdown).length
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
    const seed = table.summary?.seed;
    // Who left the table ranks last whatever the seat (played on by a bot) scored: say so.
    const left = [...departed].map(([seat, words]) => `${this.playerName(seat)} ${words}`);
    const leftNote = left.length
      ? h("p", { class: "small-text result-note", dataset: { note: "departures" } }, `${left.join("; ")}: a player who leaves the table ranks last, whatever their seat, played on by a bot, scored.`)
      : null;
    const items = [
      h("h2", { id: "result-heading" }, "Final scores"),
      h(
        "table",
        { class: "result-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Breakdown"))),
        h("tbody", {}, rows),
      ),
      leftNote,
      revealedList,
      this.nextSteps(),
      // The seed and its hash are for the audit page; players get one plain link to it.
      seed ? h("p", { class: "small-text muted fair-play" }, h("a", { href: `/tables/${table.id}/audit/` }, "Check that the shuffles were fair")) : null,
    ];
    // Element.append writes a null as the text "null": only the parts there are go in.
    clear(box).append(...items.filter((item) => item !== null));
    // The game just ended under the player's eyes: its scores come into view.
    if (wasHidden && this.client.rendererState.seenLive) window.scrollTo({ top: 0 });
  }

  /** A seat's player by their own name: one who left is not "(bot)" in the result. */
  playerName(seat) {
    const row = (this.table.summary?.seats || []).find((s) => s.seat === seat);
    if (row?.user && (row.resigned || row.expelled || row.kicked)) return row.user;
    return this.table.names()[seat] || `seat ${seat}`;
  }

  /** Seats whose player left the table: seat -> how ("resigned"). */
  departedSeats() {
    const words = { resigned: "resigned", expelled: "was expelled", kicked: "was removed by a moderator" };
    const out = new Map();
    for (const [key, text] of Object.entries(words)) for (const seat of this.table.view?.[key] || []) out.set(seat, text);
    return out;
  }

  /** Who (another player of this finished game) opened a rematch for us, or null. */
  rematchOfferedBy() {
    const table = this.table;
    const played = !!table.username && (table.summary?.seats || []).some((seat) => seat.user === table.username);
    const offer = table.summary?.rematch;
    return played && offer?.by && offer.by !== table.username ? offer.by : null;
  }

  /** What to do now the game is over: the same game again, or back to the lobby. */
  nextSteps() {
    const table = this.table;
    const played = !!table.username && (table.summary?.seats || []).some((seat) => seat.user === table.username);
    // Another player opened a rematch: the way to their table (the same endpoint seats us).
    const theirs = this.rematchOfferedBy();
    return h(
      "div",
      { class: "actions next-steps" },
      theirs ? h("p", { class: "rematch-offer", role: "status" }, `${theirs} opened a rematch.`) : null,
      played
        ? h(
            "button",
            {
              type: "button",
              class: "primary",
              id: "rematch",
              title: theirs ? `Take a seat at ${theirs}'s table: the same game, seats and options` : "The same game, seats and options again: the others can join",
              onclick: () => this.rematch(),
            },
            theirs ? `Join ${theirs}'s rematch` : "Rematch",
          )
        : null,
      h("a", { class: "button-link", href: "/", id: "back-to-lobby" }, "Back to the lobby"),
    );
  }

  async rematch() {
    const button = document.getElementById("rematch");
    if (button) button.disabled = true;
    try {
      const table = await post(`/api/tables/${this.table.id}/rematch/`);
      window.location.href = `/tables/${table.id}/`;
    } catch (err) {
      showError(err);
      if (button) button.disabled = false;
    }
  }

  revealedList(names) {
    // Once the game is over every seat's secrets are shown (a hand, a starting tile).
    const revealed = Object.entries(this.table.view?.revealed || {}).filter(([, part]) => Object.keys(part).length);
    if (!revealed.length) return null;
    const text = this.table.renderer?.revealedText || ((key, value) => `${key.replaceAll("_", " ")}: ${JSON.stringify(value)}`);
    return h(
      "div",
      { class: "revealed", dataset: { part: "revealed" } },
      h("h3", {}, "Revealed at the end"),
      h(
        "ul",
        { class: "small-text" },
        revealed.map(([seat, part]) =>
          h(
            "li",
            { dataset: { seat } },
            seatBadge(Number(seat), 12),
            " ",
            this.playerName(Number(seat)),
            ": ",
            // A renderer may draw a part (a hand as cards); the rest is words.
            Object.entries(part).map(([key, value], i) => [i ? "; " : "", this.table.renderer?.revealedNode?.(key, value) || text(key, value)]),
          ),
        ),
      ),
    );
  }
}
