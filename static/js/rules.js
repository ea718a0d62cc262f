// The rules pages' pictures, drawn by the tables' own renderers from real positions the
// server computed with the engine (the "rules-examples" JSON). Nothing here is
// interactive: every picture is drawn with no legal moves.

import { h } from "./dom.js";
import { shapesOn } from "./prefs.js";
import * as kingdomBuilder from "./games/kingdom_builder.js";
import { boardSvg } from "./games/kingdom_builder/board.js";
import { analyse } from "./games/kingdom_builder/commands.js";
import { locationIconSvg } from "./games/kingdom_builder/icons.js";
import { CARD_TEXT, TILE_TEXT } from "./games/kingdom_builder/texts.js";
import * as kingdomCards from "./games/kingdom_cards.js";
import * as kingdoms from "./games/kingdoms.js";

const RENDERERS = { "kingdom-builder": kingdomBuilder, "kingdoms": kingdoms, "kingdom-cards": kingdomCards };
const NAMES = { 0: "Orange", 1: "Sky blue", 2: "Green", 3: "Purple", 4: "Blue" };

function context() {
  return {
    seat: null,
    spectator: true,
    names: NAMES,
    send: () => {},
    pending: false,
    replay: true,
    over: true,
    shapes: shapesOn(),
    state: { kbZoom: 1 }, // the whole board: a picture is not panned
    rerender: () => {},
    gameId: "rules",
    bar: null,
    lastMoves: [],
    animatedUpTo: 0,
  };
}

function whole(root, key, view) {
  RENDERERS[key].render(root, view, [], context());
}

const DRAW = {
  board: (el, key, data) => whole(el, key, data.opening),
  worked: (el, key, data) => whole(el, key, data.worked.view),
  "kb-card": (el, key, data) => {
    const game = data.card_games[Number(el.dataset.game)];
    el.append(boardSvg(game.view, analyse([]), {}, context()));
  },
  "kb-tile": (el) => el.append(locationIconSvg(el.dataset.tile, 56) || h("span", {}, el.dataset.tile)),
  "kingdoms-tile": (el) => el.append(kingdoms.tileIcon(el.dataset.tile, 56)),
  "kingdoms-rule": (el, key, data) => el.append(kingdoms.rowSvg(data.scoring_rules[Number(el.dataset.rule)], 0, context())),
  "kingdoms-castle": (el) => el.append(kingdoms.castleIcon(Number(el.dataset.seat), Number(el.dataset.rank), shapesOn(), 56)),
  "kc-card": (el) => el.append(kingdomCards.cardEl(el.dataset.card)),
};

// The captions come from the tables' own texts, so the page and the table say the same.
const TEXTS = {
  "kingdom-builder": { tile: (t) => TILE_TEXT[t], card: (c) => CARD_TEXT[c] },
  "kingdoms": { tile: (t) => kingdoms.tileMeaning(t) },
  "kingdom-cards": { card: (c) => kingdomCards.cardMeaning(c) },
};

function caption(page, key) {
  const texts = TEXTS[key] || {};
  for (const el of page.querySelectorAll("[data-tile-text]")) el.textContent = texts.tile?.(el.dataset.tileText) || "";
  for (const el of page.querySelectorAll("[data-card-text]")) el.textContent = texts.card?.(el.dataset.cardText) || "";
}

const page = document.querySelector(".rules-page");
const source = document.getElementById("rules-examples");
if (page && source) {
  const key = page.dataset.ruleset;
  const data = JSON.parse(source.textContent);
  caption(page, key);
  for (const el of page.querySelectorAll("[data-picture]")) {
    DRAW[el.dataset.picture]?.(el, key, data);
    el.classList.add("drawn");
  }
}
