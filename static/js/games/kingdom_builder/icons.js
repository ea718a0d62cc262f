// Kingdom Builder: a small picture for each location tile and each nomad tile, drawn
// where the board shows a location or a nomad space, in a box about 14 × 12 units around
// the origin (a hex's radius is 14). The printed boards show a picture, not a name: a
// player learns the board by these, and the full name and the tile's text stay in the
// hex's title and in the locations' list.

import { s } from "../../dom.js";
import { TERRAIN_BY_KEY } from "./texts.js";

const INK = "#3b2a17";
const line = { fill: "none", stroke: INK, "stroke-width": 1.1, "stroke-linecap": "round", "stroke-linejoin": "round" };
const solid = (fill) => ({ fill, stroke: INK, "stroke-width": 0.8, "stroke-linejoin": "round" });

// Each icon: a list of [tag, attributes] in the icon's own coordinates.
const ICONS = {
  // A house with a cross-barred window: the farm.
  farm: [["path", { d: "M-6,5 V-1 L0,-6 L6,-1 V5 Z", ...solid("#d9a35b") }], ["path", { d: "M-2,5 V1 H2 V5 M-6,-1 H6", ...line }]],
  // An eye: the oracle sees your card's terrain.
  oracle: [["path", { d: "M-7,0 Q0,-7 7,0 Q0,7 -7,0 Z", ...solid("#f4ecd8") }], ["circle", { cx: 0, cy: 0, r: 2.4, fill: INK }]],
  // A palm over sand: the oasis.
  oasis: [["path", { d: "M-6,5 Q0,2 6,5 Z", ...solid("#e8cf7a") }], ["path", { d: "M0,4 Q1,-1 0,-4 M0,-4 Q-4,-6 -6,-2 M0,-4 Q4,-6 6,-2 M0,-4 Q-2,-7 -4,-6 M0,-4 Q2,-7 4,-6", ...line }]],
  // A crenellated tower: the tower, on the board's edge.
  tower: [["path", { d: "M-3.5,5 V-3 H-4.5 V-6 H-2.5 V-4.5 H-0.8 V-6 H0.8 V-4.5 H2.5 V-6 H4.5 V-3 H3.5 V5 Z", ...solid("#b9b2a4") }], ["path", { d: "M-1,5 V2 H1 V5", ...line }]],
  // A mug: the tavern.
  tavern: [["path", { d: "M-5,-4 H3 V5 H-5 Z", ...solid("#e0b04c") }], ["path", { d: "M3,-2 H5.5 V2.5 H3 M-5,-4 Q-1,-7 3,-4", ...line }]],
  // A barn with its crossed door.
  barn: [["path", { d: "M-6,5 V-1 L-3,-5 H3 L6,-1 V5 Z", ...solid("#b5523b") }], ["path", { d: "M-2.5,5 V0 H2.5 V5 M-2.5,0 L2.5,5 M2.5,0 L-2.5,5", ...line, stroke: "#fff" }]],
  // An anchor: the harbor.
  harbor: [["path", { d: "M0,-5 V5 M-3,-2 H3 M-5,1 Q-5,5 0,5 Q5,5 5,1", ...line, "stroke-width": 1.4 }], ["circle", { cx: 0, cy: -5.5, r: 1.4, fill: "none", stroke: INK, "stroke-width": 1 }]],
  // A horseshoe: the paddock's jump.
  paddock: [["path", { d: "M-4,5 V-1 A4,4 0 0 1 4,-1 V5", ...line, "stroke-width": 2.4, stroke: "#6f6f6f" }]],
  // Stacked stones: the quarry's walls.
  quarry: [["rect", { x: -6, y: 0, width: 6, height: 4, rx: 1, ...solid("#9a948a") }], ["rect", { x: 0.5, y: 0, width: 6, height: 4, rx: 1, ...solid("#9a948a") }], ["rect", { x: -3, y: -4.5, width: 6, height: 4, rx: 1, ...solid("#b0aa9f") }]],
  // A covered wagon: the caravan rolls on until stopped.
  caravan: [["path", { d: "M-6,2 V-2 Q0,-8 6,-2 V2 Z", ...solid("#efe3c2") }], ["circle", { cx: -3.5, cy: 3.5, r: 1.8, ...solid("#6b4a2b") }], ["circle", { cx: 3.5, cy: 3.5, r: 1.8, ...solid("#6b4a2b") }]],
  // Three houses: the village, next to three of yours.
  village: [["path", { d: "M-7,5 V0 L-4.5,-3 L-2,0 V5 Z M2,5 V0 L4.5,-3 L7,0 V5 Z", ...solid("#d9a35b") }], ["path", { d: "M-2.5,5 V-2 L0,-5.5 L2.5,-2 V5 Z", ...solid("#e9c27d") }]],
  // A flower: the garden, on flower fields.
  garden: [["circle", { cx: 0, cy: -3.5, r: 2.2, ...solid("#e3a9d8") }], ["circle", { cx: -3.3, cy: -0.8, r: 2.2, ...solid("#e3a9d8") }], ["circle", { cx: 3.3, cy: -0.8, r: 2.2, ...solid("#e3a9d8") }], ["circle", { cx: -2, cy: 2.6, r: 2.2, ...solid("#e3a9d8") }], ["circle", { cx: 2, cy: 2.6, r: 2.2, ...solid("#e3a9d8") }], ["circle", { cx: 0, cy: 0, r: 1.6, fill: "#f0c419", stroke: INK, "stroke-width": 0.6 }]],
  // A fir: the forester's lodge, on forest.
  foresters_lodge: [["path", { d: "M0,-7 L5,1 H-5 Z M0,-3 L6,4 H-6 Z", ...solid("#2f7d3f") }], ["path", { d: "M0,4 V6.5", ...line, "stroke-width": 1.8 }]],
  // A bell tower with its cross: the monastery, on canyon.
  monastery: [["path", { d: "M-3,5 V-2 L0,-4.5 L3,-2 V5 Z", ...solid("#e6dcc6") }], ["path", { d: "M0,-4.5 V-7.5 M-1.3,-6.3 H1.3 M-1,5 V1.5 H1 V5", ...line }]],
  // A flag on a pole: the outpost.
  outpost: [["path", { d: "M-3,6 V-6", ...line, "stroke-width": 1.4 }], ["path", { d: "M-3,-6 L5,-3.5 L-3,-1 Z", ...solid("#c0392b") }]],
  // A signpost: the crossroads.
  crossroads: [["path", { d: "M0,6 V-6", ...line, "stroke-width": 1.4 }], ["path", { d: "M0,-5 H5 L6.5,-3.5 L5,-2 H0 Z M0,-1 H-5 L-6.5,0.5 L-5,2 H0 Z", ...solid("#d9a35b") }]],
  // A hall with columns: the city hall.
  city_hall: [["path", { d: "M-6,-2 L0,-6 L6,-2 Z M-6,4 H6 V5.5 H-6 Z", ...solid("#e6dcc6") }], ["path", { d: "M-4,-1 V4 M-1.3,-1 V4 M1.3,-1 V4 M4,-1 V4", ...line }]],
  // A shield: the barracks' warrior.
  barracks: [["path", { d: "M-5,-6 H5 V0 Q5,4 0,6.5 Q-5,4 -5,0 Z", ...solid("#8e2f2f") }], ["path", { d: "M0,-4 V4 M-3,-1 H3", ...line, stroke: "#fff" }]],
  // A wheel: the wagon.
  wagon: [["circle", { cx: 0, cy: 0, r: 5.5, ...solid("#c9a46a") }], ["path", { d: "M0,-5.5 V5.5 M-5.5,0 H5.5 M-3.9,-3.9 L3.9,3.9 M3.9,-3.9 L-3.9,3.9", ...line, "stroke-width": 0.8 }], ["circle", { cx: 0, cy: 0, r: 1.3, fill: INK }]],
  // A lighthouse with its light: the lighthouse's ship.
  lighthouse: [["path", { d: "M-2.5,6 L-1.5,-3 H1.5 L2.5,6 Z", ...solid("#f4ecd8") }], ["path", { d: "M-2.2,1 H2.2 M-2,-3 V-5.5 H2 V-3", ...line }], ["path", { d: "M3,-5 L6.5,-6.5 M3,-3.8 L6.5,-3", ...line, stroke: "#d8a000" }]],
  // Nomads' tiles, on their nomad spaces.
  // A sword: every opponent loses a settlement.
  sword: [["path", { d: "M-0.9,3.1 L-3.1,0.9 L3.9,-5.9 L6.8,-6.8 L5.9,-3.9 Z", ...solid("#e4e4e4"), "stroke-width": 0.6 }], ["path", { d: "M-4.6,-0.6 L0.6,4.6", ...line, "stroke-width": 1.8 }], ["path", { d: "M-2,2 L-5,5", ...line, "stroke-width": 1.6, stroke: "#6b4a2b" }], ["circle", { cx: -5.6, cy: 5.6, r: 1.1, fill: INK }]],
  // A stack of gold coins: the treasure's 3 gold.
  treasure: [["ellipse", { cx: 0, cy: 3.5, rx: 5.5, ry: 2, ...solid("#e0b04c") }], ["ellipse", { cx: 0, cy: 0.5, rx: 5.5, ry: 2, ...solid("#e8c15a") }], ["ellipse", { cx: 0, cy: -2.5, rx: 5.5, ry: 2, ...solid("#f0d070") }], ["ellipse", { cx: 0.5, cy: -5.5, rx: 4, ry: 1.6, ...solid("#f5dc86") }]],
  // A house and an arrow: resettlement moves your settlements.
  resettlement: [["path", { d: "M-7,5 V0 L-4,-3 L-1,0 V5 Z", ...solid("#d9a35b") }], ["path", { d: "M-2,-5 Q3,-8 5,-1", ...line }], ["path", { d: "M2.6,-2 L5,-0.5 L6.6,-3", ...line }], ["path", { d: "M2,5 V1.5 L4.5,-1 L7,1.5 V5 Z", fill: "none", stroke: INK, "stroke-width": 0.8, "stroke-dasharray": "1.2 1" }]],
  // A pennant reached by a leap: the outpost's build away from your settlements.
  nomad_outpost: [["path", { d: "M3,6 V-6", ...line, "stroke-width": 1.4 }], ["path", { d: "M3,-6 L-4,-3.5 L3,-1 Z", ...solid("#2f7d8f") }], ["path", { d: "M-7,6 Q-5,-1 1,3", ...line, "stroke-dasharray": "1.4 1.2" }]],
};

/** A donation: three settlements on a patch of its terrain. */
function donation(terrain) {
  const fill = TERRAIN_BY_KEY[terrain]?.fill || "#c9a46a";
  const house = (x, y) => ["path", { d: `M${x - 2.2},${y + 2} V${y - 0.5} L${x},${y - 2.7} L${x + 2.2},${y - 0.5} V${y + 2} Z`, ...solid("#f4ecd8"), "stroke-width": 0.6 }];
  return [["path", { d: "M0,-7 L6.5,-3.5 V3.5 L0,7 L-6.5,3.5 V-3.5 Z", ...solid(fill) }], house(-2.7, 0.5), house(2.7, 0.5), house(0, -3.2)];
}

function partsOf(tile) {
  return tile?.startsWith("donation_") ? donation(tile.slice(9)) : ICONS[tile];
}

/** The tile's picture (a location's or a nomad tile's) at (x, y), or null for a tile
 * without one. */
export function locationIcon(tile, x, y) {
  const parts = partsOf(tile);
  if (!parts) return null;
  return s("g", { class: "loc-icon", "data-icon": tile, transform: `translate(${x} ${y})`, "pointer-events": "none" }, ...parts.map(([tag, attrs]) => s(tag, attrs)));
}

/** The picture alone, as a small inline SVG (the locations' list beside the board). */
export function locationIconSvg(tile, size = 22) {
  const icon = locationIcon(tile, 0, 0);
  if (!icon) return null;
  return s("svg", { class: "loc-icon-svg", width: size, height: size, viewBox: "-8 -8 16 16", "aria-hidden": "true" }, icon);
}
