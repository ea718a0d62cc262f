// A picture of each game beside its sentence in the lobby, drawn by the games' own board
// code: a Kingdom Builder board section with settlements, a corner of a Kingdoms grid with
// castles and tiles, a Kingdom Cards kingdom. Decoration: hidden from screen readers.

import { get } from "../api.js";
import { s } from "../dom.js";
import { locationIcon } from "../games/kingdom_builder/icons.js";
import { R, W, hexPoints, settlementGlyph } from "../games/kingdom_builder/pieces.js";
import { TERRAIN } from "../games/kingdom_builder/texts.js";
import { cardEl } from "../games/kingdom_cards.js";
import { castleGlyph, tileGlyph } from "../games/kingdoms.js";

// Where the picture puts a few settlements of two players on the section (row, column).
const SETTLED = [[[2, 3], [2, 4], [3, 4]], [[6, 6], [6, 7], [7, 6]]];

async function kingdomBuilder(box) {
  const sections = await get("/api/rulesets/kingdom-builder/sections/");
  const rows = sections[0].rows;
  const width = rows[0].length * W + W / 2 + 2;
  const height = rows.length * 1.5 * R + R / 2 + 2;
  const svg = s("svg", { class: "game-picture-svg", viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true" });
  const centreOf = (r, c) => ({ x: 1 + W / 2 + c * W + (r % 2 ? W / 2 : 0), y: 1 + R + r * 1.5 * R });
  rows.forEach((row, r) => {
    [...row].forEach((letter, c) => {
      const { x, y } = centreOf(r, c);
      svg.append(s("polygon", { points: hexPoints(x, y), fill: (TERRAIN[letter] || TERRAIN["."]).fill, stroke: "#5f5a4d", "stroke-width": 0.8 }));
      if (letter === "L") svg.append(locationIcon(sections[0].name, x, y) || s("g"));
    });
  });
  SETTLED.forEach((hexes, seat) => {
    for (const [r, c] of hexes) {
      const { x, y } = centreOf(r, c);
      svg.append(settlementGlyph(x, y, seat, false));
    }
  });
  box.append(svg);
}

function kingdoms(box) {
  const CELL = 84;
  const svg = s("svg", { class: "game-picture-svg", viewBox: `0 0 ${4 * CELL} ${3 * CELL}`, "aria-hidden": "true" });
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 4; c++) svg.append(s("rect", { x: c * CELL + 2, y: r * CELL + 2, width: CELL - 4, height: CELL - 4, rx: 6, fill: "#f3efe3", stroke: "#c9c1ad" }));
  }
  const put = [
    [0, 0, () => castleGlyph(0, 0, CELL, 0, 3, false)],
    [0, 2, () => tileGlyph(0, 0, CELL, "+5a")],
    [1, 1, () => tileGlyph(0, 0, CELL, "gold_mine")],
    [1, 3, () => castleGlyph(0, 0, CELL, 1, 2, false)],
    [2, 0, () => tileGlyph(0, 0, CELL, "-3a")],
    [2, 2, () => castleGlyph(0, 0, CELL, 0, 1, false)],
    [2, 3, () => tileGlyph(0, 0, CELL, "dragon")],
  ];
  for (const [r, c, draw] of put) svg.append(s("g", { transform: `translate(${c * CELL} ${r * CELL})` }, draw()));
  box.append(svg);
}

function kingdomCards(box) {
  // A people under one flag (red, blue, yellow), and a treasure.
  const cards = ["R1a", "B2a", "Y3a", "T1"];
  box.append(...cards.map((card) => cardEl(card, { class: "kc-card-mini" })));
  box.classList.add("kc-picture");
}

const DRAW = { "kingdom-builder": kingdomBuilder, kingdoms, "kingdom-cards": kingdomCards };

export function drawGamePictures() {
  for (const box of document.querySelectorAll(".game-picture[data-picture]")) {
    const draw = DRAW[box.dataset.picture];
    if (!draw) continue;
    Promise.resolve(draw(box)).catch(() => box.remove()); // a picture that fails is left out
  }
}
