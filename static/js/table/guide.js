// The guided first game (the lobby's "Learn to play", ?guide=1 in the table's address): a
// callout beside the part of the table it speaks of, one step at a time, each done by the
// move it asks for. A step is read from the game as it stands (the view and the player's
// own events), not counted by this page, so a reload or a replay finds the same step.
// "Skip the guide" or "Finish" puts it away for this table.

import { h } from "../dom.js";

const SKIPPED = (id) => `kingdom.guide-done.${id}`;

// Each game's steps: the element the callout points at (the first visible match), what it
// says, and when its move has been made. The last step has no move: "Finish" ends it.
const GUIDES = {
  "kingdom-builder": [
    {
      target: "#kb-turn-bar .terrain-card",
      text: "This is your terrain card. Every turn you build 3 settlements on its terrain, next to your own settlements whenever you can. Build one on a highlighted hex.",
      done: (g) => g.settlements() >= 1,
    },
    {
      target: ".kb-board .hex.target",
      text: "The highlighted hexes are where your card lets you build now: next to your settlements when there is room. Build your second settlement.",
      done: (g) => g.settlements() >= 2,
    },
    {
      target: ".kb-board .hex.target",
      text: "And the third. Undo takes back a build of this turn if you change your mind.",
      done: (g) => g.settlements() >= 3,
    },
    {
      target: "#end-turn",
      text: "Done for this turn. The three Kingdom Builder cards beside the board say what pays gold at the end. End your turn: the bot plays, then you get a new card.",
      done: (g) => g.mine("turn_ended") >= 1,
    },
    {
      target: ".kb-board .hex[data-location]",
      text: "Locations (the pictures): the first settlement next to one takes its tile, an extra move on every later turn. Castles pay 3 gold to each player next to them. Build your next three settlements.",
      done: (g) => g.settlements() >= 6,
    },
    {
      target: "#kb-turn-bar",
      text: "That is the game: the turns go on until someone has built all 40 settlements. The most gold wins. Enjoy it!",
    },
  ],
  kingdoms: [
    {
      target: "[data-castle-rank='1']",
      text: "Each turn you place a castle or a tile. At the end of each epoch every row and column pays its castles their rank in gold, times the row's or column's total. Pick your rank-1 castle, then a highlighted space.",
      done: (g) => g.mine("castle_placed") >= 1,
    },
    {
      target: "#draw-tile",
      text: "Tiles make rows and columns worth more (+) or less (−); some are special: a mountain cuts a line in two, a dragon cancels the +, a gold mine doubles. Draw a tile.",
      done: (g) => g.mine("tile_drawn") >= 1,
    },
    {
      target: ".kingdoms-board .target",
      text: "Place it on a highlighted space: a + tile in a line with your castles, a − tile in the bot's.",
      done: (g) => g.mine("tile_placed") >= 1,
    },
    {
      target: "#starting-tile-button",
      fallback: ".kingdoms-board",
      text: "Your starting tile is yours alone: play it on any turn of the epoch, for a line you like. Make two more moves: castles or tiles.",
      done: (g) => g.mine("castle_placed") + g.mine("tile_placed") >= 4,
    },
    {
      target: ".kingdoms-board",
      text: "When the grid is full the epoch is scored, the board is cleared and castles of rank 1 come back. After three epochs the most gold wins. Enjoy it!",
    },
  ],
  "kingdom-cards": [
    {
      target: ".kc-hand",
      text: "Your hand. You win with a people (1-2-3), an army (4-5-6) and a court (7-8-9) in your kingdom, all three with the same colours in the same order: your flag.",
      done: (g) => g.mine("opponent_challenged") + g.mine("card_bid") >= 1,
      ask: "Make your first move in the bar above: challenge the bot for the centre card, or bid a card.",
    },
    {
      target: "#kc-turn-bar",
      fallback: ".kc-hand",
      text: "A battle for the centre card: the defender bids a card, the challenger answers; each card counts its value plus its owner's kingdom bonus, and a tie goes to the challenger. Bid a card.",
      done: (g) => g.mine("card_bid") >= 1,
    },
    {
      target: ".kc-hand",
      text: "Cards change hands in every battle: the winner takes the centre card, and each player takes the other's bids. A high card you bid may come back to you; a card you win may complete a group. Play another battle.",
      done: (g) => g.mine("opponent_challenged") + g.mine("card_bid") >= 2,
    },
    {
      target: ".kc-kingdoms",
      fallback: ".kc-hand",
      text: "Three cards of one tier make a group: pick them in your hand and lay them in your kingdom. Its bonus then adds to every bid. Lay a group, or play on with another battle.",
      done: (g) => g.mine("group_laid") >= 1 || g.mine("opponent_challenged") + g.mine("card_bid") >= 3,
    },
    {
      target: ".kc-hand",
      text: "The first kingdom with a people, an army and a court under one flag wins at once; when the source runs out, the highest kingdom bonus wins. Enjoy it!",
    },
  ],
};

export class GuidePart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
    this.steps = GUIDES[table.ruleset] || null;
    this.on = new URLSearchParams(window.location.search).get("guide") === "1" && this.steps !== null && !this.finished();
    this.el = null;
  }

  finished() {
    try {
      return window.localStorage.getItem(SKIPPED(this.table.id)) === "1";
    } catch {
      return false;
    }
  }

  finish() {
    this.on = false;
    try {
      window.localStorage.setItem(SKIPPED(this.table.id), "1");
    } catch {
      // Storage refused: the guide is put away for this page only.
    }
    this.el?.remove();
    this.el = null;
  }

  /** What the steps read of the game as it stands. */
  reading() {
    const table = this.table;
    const me = table.yourSeat;
    const view = table.view || {};
    return {
      mine: (type) => table.events.filter((e) => e.type === type && e.data?.seat === me).length,
      settlements: () => view.players?.[me]?.settlements?.length || 0,
    };
  }

  renderGuide() {
    if (!this.on) return;
    if (this.table.isOver() || this.table.yourSeat === null) return this.el?.remove();
    const reading = this.reading();
    const at = this.steps.findIndex((step) => !step.done || !step.done(reading));
    const step = this.steps[at];
    const anchor = visible(step.target) || (step.fallback && visible(step.fallback)) || document.getElementById("board");
    const last = !step.done;
    // A step asks for a move: while the bot plays, say the turn comes.
    const waiting = !last && !(this.table.view?.to_act || []).includes(this.table.yourSeat);
    const box = h(
      "aside",
      { class: "guide-callout", id: "guide-callout", role: "status", "aria-live": "polite", dataset: { step: String(at + 1) } },
      h("p", { class: "guide-count muted" }, `Guide · step ${at + 1} of ${this.steps.length}`),
      waiting ? h("p", { class: "guide-wait", id: "guide-wait" }, "The bot is playing; your turn comes in a moment.") : null,
      h("p", { class: "guide-text" }, step.text),
      step.ask ? h("p", { class: "guide-ask" }, step.ask) : null,
      h(
        "div",
        { class: "actions" },
        last ? h("button", { type: "button", class: "primary", id: "guide-finish", onclick: () => this.finish() }, "Finish the guide") : null,
        last ? null : h("button", { type: "button", class: "small", id: "guide-skip", onclick: () => this.finish() }, "Skip the guide"),
      ),
    );
    this.el?.remove();
    this.el = box;
    document.body.append(box);
    place(box, anchor);
    document.querySelectorAll(".guide-target").forEach((el) => el.classList.remove("guide-target"));
    anchor?.classList.add("guide-target");
  }
}

function visible(selector) {
  return [...document.querySelectorAll(selector)].find((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  });
}

/** Beside the anchor: below it when there is room in the window, else above; on a phone,
 * fixed at the bottom of the window so it never hides the board. */
function place(box, anchor) {
  if (window.innerWidth < 640 || !anchor) {
    box.classList.add("docked");
    return;
  }
  const r = anchor.getBoundingClientRect();
  const width = Math.min(340, window.innerWidth - 16);
  const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - width - 8));
  box.style.width = `${width}px`;
  box.style.left = `${left}px`;
  const below = r.bottom + window.scrollY + 10;
  const height = box.offsetHeight;
  const room = window.innerHeight - r.bottom;
  box.style.top = `${room > height + 20 ? below : Math.max(window.scrollY + 8, r.top + window.scrollY - height - 10)}px`;
}
