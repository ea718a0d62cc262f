// Kingdom Builder: the 20×20 hex board (pointy-top, odd rows shifted right half a hex) with
// terrain, castles, locations and their tiles left, nomad spaces, stone walls, settlements,
// city halls, warriors (and the hexes they guard), wagons and ships. Highlighted hexes are
// the legal targets; clicking one sends its command or picks the piece to move.

import { actionable, s } from "../../dom.js";
import { targets } from "./commands.js";
import { locationIcon } from "./icons.js";
import { AXIS, PAD, R, W, centre, cityHallGlyph, guardGlyph, hexPoints, nomadGlyph, settlementGlyph, shipGlyph, wagonGlyph, wallGlyph, warriorGlyph } from "./pieces.js";
import { TERRAIN, TERRAIN_INITIAL, colLabel, hexKey, nameOf, shortOf, textOf, where } from "./texts.js";

/** Everything standing on the board, by hex. */
function occupants(view, ctx) {
  const who = (seat) => ctx.names[seat] || `seat ${seat}`;
  const at = new Map();
  const put = (hex, item) => at.set(hexKey(hex), item);
  for (const hex of view.board.walls || []) put(hex, { kind: "wall", label: "stone wall" });
  for (const p of view.players) {
    for (const hex of p.settlements) put(hex, { kind: "settlement", seat: p.seat, label: `settlement of ${who(p.seat)}` });
    (p.city_hall || []).forEach((hex, i) => put(hex, { kind: "city_hall", seat: p.seat, centre: i === 0, label: `${i === 0 ? "centre of the " : ""}city hall of ${who(p.seat)}` }));
    for (const hex of p.warriors || []) put(hex, { kind: "warrior", seat: p.seat, label: `warrior of ${who(p.seat)}` });
    if (p.wagon) put(p.wagon, { kind: "wagon", seat: p.seat, label: `wagon of ${who(p.seat)}` });
    if (p.ship) put(p.ship, { kind: "ship", seat: p.seat, label: `ship of ${who(p.seat)}` });
  }
  return at;
}

function occupantGlyph(item, x, y, shapes) {
  const title = item.label[0].toUpperCase() + item.label.slice(1);
  switch (item.kind) {
    case "wall":
      return wallGlyph(x, y);
    case "settlement":
      return settlementGlyph(x, y, item.seat, shapes);
    case "city_hall":
      return cityHallGlyph(x, y, item.seat, shapes, item.centre, title);
    case "warrior":
      return warriorGlyph(x, y, item.seat, shapes, title);
    case "wagon":
      return wagonGlyph(x, y, item.seat, shapes, title);
    default:
      return shipGlyph(x, y, item.seat, shapes, title);
  }
}

/** Column letters above and below, row numbers left and right (the log's "F8"). */
function axisLabels(rows, cols, width, height) {
  const g = s("g", { class: "kb-axis", "aria-hidden": "true" });
  for (let c = 0; c < cols; c++) {
    g.append(s("text", { x: centre(0, c).x, y: PAD + AXIS - 3, "text-anchor": "middle", class: "axis-col" }, colLabel(c)));
    g.append(s("text", { x: centre(rows - 1, c).x, y: height - PAD - 1, "text-anchor": "middle", class: "axis-col" }, colLabel(c)));
  }
  for (let r = 0; r < rows; r++) {
    const { y } = centre(r, 0);
    g.append(s("text", { x: PAD + AXIS - 2, y: y + 3, "text-anchor": "end", class: "axis-row" }, String(r + 1)));
    g.append(s("text", { x: width - PAD - AXIS + 2, y: y + 3, "text-anchor": "start", class: "axis-row" }, String(r + 1)));
  }
  return g;
}

export function boardSvg(view, can, sel, ctx) {
  const grid = view.board.grid;
  const rows = grid.length;
  const cols = grid[0].length;
  const width = (PAD + AXIS) * 2 + W * cols + W / 2;
  const height = (PAD + AXIS) * 2 + R * 2 + (rows - 1) * 1.5 * R;
  const svg = s("svg", {
    class: "kb-board",
    viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`,
    role: "group",
    "aria-label": "Kingdom Builder board, 20 by 20 hexes",
  });
  const on = occupants(view, ctx);
  const locations = new Map(view.board.locations.map((l) => [hexKey(l.hex), l]));
  const nomadSpaces = new Map((view.board.nomad_spaces || []).map((n) => [hexKey(n.hex), n]));
  const guarded = new Set((view.board.guarded || []).map(hexKey));
  const marks = targets(can, sel, view, ctx.names);
  const lastMoves = lastMoveMarks(ctx);
  const pickedFrom = sel.from ? hexKey(sel.from) : null;
  const layer = [];
  svg.append(axisLabels(rows, cols, width, height));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const letter = grid[r][c];
      const terrain = TERRAIN[letter] || TERRAIN["."];
      const key = `${r},${c}`;
      const { x, y } = centre(r, c);
      const mark = marks.get(key);
      const item = on.get(key);
      const moved = item ? lastMoves.get(key) : null;
      const g = s("g", {
        class: ["hex", `terrain-${terrain.key}`, mark && "target", key === pickedFrom && "picked", guarded.has(key) && "guarded", moved && "last-move", moved?.fresh && "arrived"],
        "data-row": r,
        "data-col": c,
        "data-terrain": terrain.key,
        "data-focus-key": `hex-${r}-${c}`,
      });
      g.append(s("polygon", { class: "hex-shape", points: hexPoints(x, y), fill: terrain.fill }));
      const location = locations.get(key);
      const nomad = nomadSpaces.get(key);
      let label = `${terrain.name}, ${where([r, c])}`;
      if (letter === "S") {
        g.append(s("path", { d: `M${x - 6},${y + 5} v-9 h3 v3 h2 v-3 h2 v3 h2 v-3 h3 v9 z`, fill: "#6d6455", stroke: "#222", "stroke-width": 0.6 }));
      } else if (location) {
        g.append(locationIcon(location.tile, x, y - 3.5) || s("text", { x, y: y - 1, "text-anchor": "middle", class: "hex-label", fill: "#222" }, shortOf(location.tile)));
        g.append(s("text", { x, y: y + 8, "text-anchor": "middle", class: "loc-count", fill: location.tiles_left ? "#7a2e00" : "#999" }, `×${location.tiles_left}`));
        g.dataset.location = location.tile;
        // The full name and what its tile does, on hover and to a screen reader.
        label = `${nameOf(location.tile)} location, ${location.tiles_left} tiles left, ${where([r, c])}. Its tile: ${textOf(location.tile)}`;
      } else if (nomad) {
        g.append(nomadGlyph(x, y, nomad.tile));
        label = nomad.tile ? `Nomad space with the ${nameOf(nomad.tile)} nomad tile, ${where([r, c])}` : `Nomad space, its tile taken, ${where([r, c])}`;
      } else if (ctx.shapes && TERRAIN_INITIAL[terrain.key] && !item) {
        // Colour-blind aid: the terrain's initial on every buildable hex.
        g.append(s("text", { x, y: y + 2.5, "text-anchor": "middle", class: "hex-label", fill: terrain.key === "forest" ? "#fff" : "#222", opacity: 0.55 }, TERRAIN_INITIAL[terrain.key]));
      }
      if (guarded.has(key)) {
        g.append(guardGlyph(x, y));
        label += ", next to a warrior: nothing but wagons and ships may go here";
      }
      if (item) {
        g.append(occupantGlyph(item, x, y, ctx.shapes));
        if (item.seat !== undefined) g.dataset.seat = String(item.seat);
        g.dataset.piece = item.kind;
        label += `, ${item.label}`;
      }
      if (moved) {
        g.append(s("polygon", { class: "last-ring", points: hexPoints(x, y, R - 1.5) }));
        label += moved.latest ? ", the last move" : ", placed since your last move";
      }
      if (mark) {
        g.append(s("circle", { class: "target-dot", cx: x, cy: y + (item ? R * 0.6 : 0), r: 2.6 }));
        actionable(g, mark.label, () => {
          if (mark.command) {
            ctx.state.kb = {};
            ctx.send(mark.command);
          } else {
            ctx.state.kb = { ...sel, from: mark.pick };
            ctx.rerender();
          }
        });
        g.append(s("title", {}, mark.label));
        layer.push(g);
      } else {
        g.append(s("title", {}, label));
        svg.append(g);
      }
    }
  }
  // Targets last, so their outline draws over the neighbours'; the last moves' rings too.
  for (const g of [...svg.querySelectorAll(".hex.last-move")]) svg.append(g);
  for (const g of layer) svg.append(g);
  return svg;
}

const PLACING = { settlement_built: "hex", wall_placed: "hex", piece_placed: "hex", settlement_moved: "to", piece_moved: "to" };

/** Where a placing event put its piece (the table marks the last moves), or null. */
export function placedAt(event) {
  const at = event.data?.[PLACING[event.type]];
  return Array.isArray(at) ? at : null;
}

/** The hexes the last moves filled: "row,col" -> {fresh, latest}. */
function lastMoveMarks(ctx) {
  const marks = new Map();
  const moves = ctx.lastMoves || [];
  moves.forEach((e, i) => {
    const at = placedAt(e);
    if (at) marks.set(hexKey(at), { fresh: e.seq > ctx.animatedUpTo, latest: i === moves.length - 1 });
  });
  return marks;
}
