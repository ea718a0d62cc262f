// The table's "?": how the game scores and what the player may do now, in players' words.
// It opens on hover with a mouse and on a click or a tap (touch screens have no hover); a
// click or tap pins it open until the next one, Escape or a tap elsewhere. What it lists
// is read from the legal commands the server sent, never worked out here.

import { clear, h } from "../dom.js";

const SCORING = {
  "kingdom-builder": [
    "3 gold for each castle with one of your settlements beside it.",
    "The three Kingdom Builder cards of this game (beside the board) pay gold for your settlements at the end.",
    "When someone has built their last settlement, the round is finished; the most gold wins.",
  ],
  "kingdoms": [
    "When the grid is full, each row and each column pays its castle owners: the tiles' sum times their castle ranks there.",
    "A Mountain cuts a line in two, the Dragon cancels resources, the Gold Mine doubles, the Wizard raises castles next to it by one rank.",
    "After three epochs the most gold wins.",
  ],
  "kingdom-cards": [
    "Win a people (1–3), an army (4–6) and a court (7–9) under one flag: the first complete kingdom wins at once.",
    "In a battle you bid a card: its value plus your bonus (½ a people, 1 an army, 2 a court, ½ a Treasure). A tie goes to the challenger.",
    "If the pile runs out, the highest bonus wins, then the most cards held.",
  ],
};

// What each kind of command lets the player do, in the words of the table's buttons.
const DOING = {
  "kingdoms": {
    place_castle: "Put one of your castles on an empty space.",
    draw_tile: "Draw a tile from the pile, then lay it on an empty space.",
    place_tile: (c) => (c.tile ? "Lay one of the face-up tiles on an empty space." : "Lay the tile you drew on an empty space."),
    place_starting_tile: "Lay your starting tile (once each epoch).",
    pass: "Pass: nothing else is possible.",
  },
  "kingdom-builder": {
    choose_terrain: "Choose the terrain you build on this turn.",
    take_terrain_card: "Take one of the face-up terrain cards.",
    draw_terrain_card: "Draw the top terrain card.",
    play_terrain_card: "Play one of the terrain cards in your hand.",
    swap_terrain_card: "Swap your terrain card.",
    build: "Build a settlement on a highlighted hex of your terrain.",
    use_tile: "Use a location tile you hold (before or after your three builds).",
    take_back_piece: "Take one of your pieces back.",
    discard_tile: "Give up a location tile.",
    end_turn: "End your turn.",
    undo: "Undo your last build.",
    use_nomad_tile: "Use a nomad tile you hold.",
    move_settlement: "Move a settlement where the tile allows.",
    remove_settlement: "Remove a settlement.",
    place_wall: "Place a stone wall.",
    finish_action: "Finish the tile's action.",
  },
  "kingdom-cards": {
    challenge: "Challenge another player for the card in the centre.",
    bid: "Bid a card (its value plus your bonus).",
    give_up: "Give up this battle.",
    lay_group: "Lay a group of three cards in your kingdom.",
    return_group: "Take a group from your kingdom back to your hand.",
    lay_card: "Lay a single card in your kingdom.",
    return_card: "Take a single card back to your hand.",
    lay_treasure: "Lay a Treasure in your kingdom.",
    return_treasure: "Take a Treasure back to your hand.",
    keep_kingdom: "Keep your kingdom as it is this turn.",
    end_last_turn: "End your last turn.",
  },
};

/** The player's options now, one sentence per kind of command, in the legal list's order. */
export function optionsNow(ruleset, legal) {
  const words = DOING[ruleset] || {};
  const said = new Set();
  for (const command of legal) {
    const word = words[command.type];
    const text = typeof word === "function" ? word(command) : word;
    if (text) said.add(text);
  }
  if (!said.size && legal.length) said.add("Pick one of the highlighted choices.");
  return [...said];
}

export class HelpPart {
  constructor(table, client) {
    this.table = table;
    this.client = client;
    this.pinned = false;
    this.button = document.getElementById("help-toggle");
    this.panel = document.getElementById("table-help");
    if (!this.button || !this.panel) return;
    const wrap = this.button.parentElement;
    wrap.addEventListener("pointerenter", (ev) => {
      if (ev.pointerType === "mouse") this.show();
    });
    wrap.addEventListener("pointerleave", (ev) => {
      if (ev.pointerType === "mouse" && !this.pinned) this.hide();
    });
    // A click and a tap both arrive here: one pins it open, the next closes it.
    this.button.addEventListener("click", () => {
      if (this.pinned) {
        this.hide();
      } else {
        this.pinned = true;
        this.show();
      }
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && !this.panel.hidden) {
        this.hide();
        this.button.focus();
      }
    });
    document.addEventListener("pointerdown", (ev) => {
      if (!this.panel.hidden && !wrap.contains(ev.target)) this.hide();
    });
  }

  show() {
    this.fill();
    this.panel.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
  }

  hide() {
    this.pinned = false;
    this.panel.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
  }

  /** Called on every render: an open "?" follows the game. */
  renderHelp() {
    if (this.panel && !this.panel.hidden) this.fill();
  }

  fill() {
    const table = this.table;
    const ruleset = table.ruleset;
    const now = this.nowLines();
    clear(this.panel).append(
      h("h2", { class: "help-title" }, "How this game scores"),
      h("ul", { class: "help-scoring" }, (SCORING[ruleset] || []).map((line) => h("li", {}, line))),
      h("h2", { class: "help-title" }, "What you can do now"),
      h("ul", { class: "help-now", "aria-live": "polite" }, now.map((line) => h("li", {}, line))),
      h("p", { class: "small-text" }, h("a", { href: `/rules/${ruleset}/`, target: "_blank", rel: "noopener" }, "The full rules, with pictures")),
    );
  }

  nowLines() {
    const table = this.table;
    if (table.isOver()) return ["The game is over: the result is above the board."];
    if (table.replay.at !== null) return ["You are looking back at an earlier move: go back to the live board to play."];
    if (table.yourSeat === null || table.yourSeat === undefined) return ["You are watching this table: the players' moves appear as they make them."];
    if (!table.view) return ["The game has not started yet."];
    const options = optionsNow(table.ruleset, table.currentLegal());
    if (options.length) return options;
    const names = table.names();
    const waiting = (table.view.to_act || []).filter((seat) => seat !== table.yourSeat).map((seat) => names[seat] || "another player");
    return [waiting.length ? `Nothing to do now: waiting for ${waiting.join(", ")}.` : "Nothing to do now."];
  }
}
