// Kingdom Builder: hex geometry and the glyphs drawn on a hex (settlements, stone walls,
// nomad spaces, warriors, wagons, ships, city halls, the warriors' guard). Every piece is
// a <g> with a class the tests count and a <title> a screen reader or a tooltip reads.

import { s } from "../../dom.js";
import { seatColour, seatShape, shapeElement } from "../../players.js";
import { locationIcon } from "./icons.js";

export const R = 14; // hex radius
export const W = Math.sqrt(3) * R;
export const PAD = 4;
export const AXIS = 11; // the margin that holds the row and column labels

export function centre(row, col) {
  return { x: PAD + AXIS + W / 2 + col * W + (row % 2 ? W / 2 : 0), y: PAD + AXIS + R + row * 1.5 * R };
}

export function hexPoints(cx, cy, r = R) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 90);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

const piece = (cls, title, ...children) => s("g", { class: ["piece", cls] }, s("title", {}, title), ...children);
const outline = { stroke: "#111", "stroke-width": 1.1 };

/** With shapes on, a small seat shape in the corner tells the owner without colour. */
function badge(cx, cy, seat, shapes) {
  return shapes ? shapeElement(seatShape(seat), cx + R * 0.5, cy - R * 0.45, R * 0.26, { fill: seatColour(seat), stroke: "#111", "stroke-width": 0.8 }) : null;
}

export function settlementGlyph(cx, cy, seat, shapes) {
  const colour = seatColour(seat);
  if (shapes) return shapeElement(seatShape(seat), cx, cy, R * 0.55, { fill: colour, stroke: "#111", "stroke-width": 1.3, class: "settlement" });
  const w = R * 0.9;
  const top = cy - R * 0.55;
  const d = `M${cx - w / 2},${cy + R * 0.45} V${cy - R * 0.05} L${cx},${top} L${cx + w / 2},${cy - R * 0.05} V${cy + R * 0.45} Z`;
  return s("path", { d, fill: colour, stroke: "#111", "stroke-width": 1.3, class: "settlement" });
}

export function wallGlyph(cx, cy) {
  const rows = [];
  for (let i = 0; i < 3; i++) {
    const y = cy - 6 + i * 4;
    const off = i % 2 ? 2.5 : 0;
    for (let j = 0; j < 3; j++) rows.push(s("rect", { x: cx - 8 + off + j * 5, y, width: 4.6, height: 3.6, fill: "#9a948a", stroke: "#3d3a35", "stroke-width": 0.6 }));
  }
  return piece("wall", "Stone wall", ...rows);
}

/** A nomad space: its tile's picture, as a location shows its own (icons.js), above a
 * small tent, the space's mark; once its tile is taken, the empty tent alone. */
export function nomadGlyph(cx, cy, tile) {
  if (!tile) {
    const empty = s("path", { d: `M${cx - 8},${cy + 4} L${cx},${cy - 8} L${cx + 8},${cy + 4} Z`, fill: "none", stroke: "#9b9181", "stroke-width": 1, "stroke-dasharray": "2 1.5" });
    return s("g", { class: ["nomad-space", "taken"], "data-tile": "" }, empty);
  }
  const tent = s("path", { d: `M${cx - 4.5},${cy + 10.5} L${cx},${cy + 5} L${cx + 4.5},${cy + 10.5} Z`, fill: "#c9a46a", stroke: "#5a3d16", "stroke-width": 0.8 });
  return s("g", { class: "nomad-space", "data-tile": tile }, locationIcon(tile, cx, cy - 3.5), tent);
}

export function warriorGlyph(cx, cy, seat, shapes, title) {
  const d = `M${cx - 5.5},${cy - 6} H${cx + 5.5} V${cy} Q${cx + 5.5},${cy + 5} ${cx},${cy + 7.5} Q${cx - 5.5},${cy + 5} ${cx - 5.5},${cy} Z`;
  const cross = s("path", { d: `M${cx},${cy - 4} V${cy + 4} M${cx - 3},${cy - 1} H${cx + 3}`, stroke: "#111", "stroke-width": 1.2 });
  return piece("warrior", title, s("path", { d, fill: seatColour(seat), ...outline }), cross, badge(cx, cy, seat, shapes));
}

export function wagonGlyph(cx, cy, seat, shapes, title) {
  const body = s("rect", { x: cx - 7, y: cy - 5, width: 14, height: 7, rx: 1.5, fill: seatColour(seat), ...outline });
  const wheels = [-4, 4].map((dx) => s("circle", { cx: cx + dx, cy: cy + 3.5, r: 2.4, fill: "#3b2a17", stroke: "#111", "stroke-width": 0.6 }));
  return piece("wagon", title, body, ...wheels, badge(cx, cy, seat, shapes));
}

export function shipGlyph(cx, cy, seat, shapes, title) {
  const hull = s("path", { d: `M${cx - 8},${cy + 1} H${cx + 8} L${cx + 5},${cy + 6} H${cx - 5} Z`, fill: "#6b4a2b", ...outline });
  const sail = s("path", { d: `M${cx},${cy - 9} V${cy} H${cx + 6} Z`, fill: seatColour(seat), ...outline });
  return piece("ship", title, hull, sail, badge(cx, cy, seat, shapes));
}

/** One of the 7 hexes of a city hall; the centre also carries the hall itself. */
export function cityHallGlyph(cx, cy, seat, shapes, centreHex, title) {
  const colour = seatColour(seat);
  const parts = [s("polygon", { points: hexPoints(cx, cy, R * 0.86), fill: colour, "fill-opacity": 0.55, stroke: colour, "stroke-width": 1.5 })];
  if (centreHex) {
    parts.push(s("path", { class: "city-hall", d: `M${cx - 7},${cy + 6} V${cy - 2} L${cx},${cy - 9} L${cx + 7},${cy - 2} V${cy + 6} Z M${cx - 2},${cy + 6} V${cy + 1} H${cx + 2} V${cy + 6}`, fill: colour, ...outline, "fill-rule": "evenodd" }));
  }
  if (shapes) parts.push(shapeElement(seatShape(seat), cx, cy, R * 0.3, { fill: colour, stroke: "#111", "stroke-width": 0.8 }));
  return piece("city-hall-hex", title, ...parts);
}

/** The subtle mark of a hex next to a warrior: nothing but wagons and ships goes there. */
export function guardGlyph(cx, cy) {
  return s("polygon", { class: "guard-mark", points: hexPoints(cx, cy, R * 0.72), fill: "none", stroke: "#7a1f1f", "stroke-width": 1, "stroke-dasharray": "2 2", opacity: 0.55, "pointer-events": "none" });
}
