// Kingdom Builder: the 20×20 hex board (pointy-top, odd rows shifted right half a hex),
// terrain, castles, locations with their remaining tiles, settlements in player colours,
// your terrain card, the tiles you hold. Click a highlighted hex to build; to use a tile,
// pick the tile, then (for a move) the settlement to move, then where it goes.

import { actionable, clear, focusKeyOf, h, restoreFocus, s } from "../dom.js";
import { seatColour, seatShape, shapeElement } from "../players.js";

const R = 14; // hex radius
const W = Math.sqrt(3) * R;
const PAD = 4;

export const TERRAIN = {
  G: { key: "grass", name: "Grass", fill: "#a6d36b" },
  C: { key: "canyon", name: "Canyon", fill: "#b7794a" },
  D: { key: "desert", name: "Desert", fill: "#f0dc8c" },
  F: { key: "flower_field", name: "Flower field", fill: "#e3a9d8" },
  T: { key: "forest", name: "Forest", fill: "#2f7d3f" },
  W: { key: "water", name: "Water", fill: "#5fa8dc" },
  M: { key: "mountain", name: "Mountain", fill: "#8b8680" },
  S: { key: "castle", name: "Castle", fill: "#d8d2c4" },
  L: { key: "location", name: "Location", fill: "#f7f3e8" },
  N: { key: "nomad_space", name: "Nomad space", fill: "#efe6d2" },
  ".": { key: "plain", name: "Plain", fill: "#eeeeee" },
};
const TERRAIN_BY_KEY = Object.fromEntries(Object.values(TERRAIN).map((t) => [t.key, t]));
const TERRAIN_INITIAL = { grass: "G", canyon: "C", desert: "D", flower_field: "F", forest: "T" };

const TILE_TEXT = {
  oracle: "build on the terrain of your card",
  farm: "build on grass",
  oasis: "build on desert",
  tower: "build on the edge of the board",
  tavern: "build at either end of a line of 3 of yours",
  barn: "move a settlement onto the terrain of your card",
  harbor: "move a settlement onto water",
  paddock: "move a settlement 2 hexes in a straight line",
};
const CARD_TEXT = {
  fishermen: "1 gold per settlement next to water",
  miners: "1 gold per settlement next to a mountain",
  workers: "1 gold per settlement next to a castle or location",
  merchants: "4 gold per location/castle linked to another by your settlements",
  discoverers: "1 gold per horizontal line with a settlement of yours",
  knights: "2 gold per settlement in your fullest horizontal line",
  hermits: "1 gold per separate settlement area",
  citizens: "1 gold per 2 settlements in your largest area",
  farmers: "3 gold per settlement in your emptiest sector",
  lords: "12 / 6 gold for the most / second most settlements in each sector",
};

const terrainName = (key) => TERRAIN_BY_KEY[key]?.name || (key ? key.replaceAll("_", " ") : "—");
const cap = (word) => (word ? word[0].toUpperCase() + word.slice(1) : "");
const hexKey = (hex) => `${hex[0]},${hex[1]}`;
const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
const where = (hex) => `row ${hex[0] + 1}, column ${hex[1] + 1}`;

function centre(row, col) {
  return { x: PAD + W / 2 + col * W + (row % 2 ? W / 2 : 0), y: PAD + R + row * 1.5 * R };
}

function hexPoints(cx, cy, r = R) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 90);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

function settlementGlyph(cx, cy, seat, shapes) {
  const colour = seatColour(seat);
  if (shapes) return shapeElement(seatShape(seat), cx, cy, R * 0.55, { fill: colour, stroke: "#111", "stroke-width": 1.3, class: "settlement" });
  const w = R * 0.9;
  const top = cy - R * 0.55;
  const d = `M${cx - w / 2},${cy + R * 0.45} V${cy - R * 0.05} L${cx},${top} L${cx + w / 2},${cy - R * 0.05} V${cy + R * 0.45} Z`;
  return s("path", { d, fill: colour, stroke: "#111", "stroke-width": 1.3, class: "settlement" });
}

// ---- what the player may do, from the legal commands ----------------------------------
function analyse(legal) {
  const builds = [];
  const tiles = new Map(); // tile -> [{from, to}]
  const choices = [];
  const discards = [];
  let endTurn = false;
  for (const c of legal) {
    if (c.type === "build") builds.push(c);
    else if (c.type === "use_tile") {
      if (!tiles.has(c.tile)) tiles.set(c.tile, []);
      tiles.get(c.tile).push(c);
    } else if (c.type === "discard_tile") discards.push(c);
    else if (c.type === "end_turn") endTurn = true;
    else choices.push(c);
  }
  return { builds, tiles, choices, discards, endTurn };
}

/** The hexes to highlight and the command each one sends, for the current selection. */
function targets(can, sel) {
  const out = new Map();
  if (sel.tile && can.tiles.has(sel.tile)) {
    const uses = can.tiles.get(sel.tile);
    const moves = uses.some((c) => c.from);
    if (!moves) for (const c of uses) out.set(hexKey(c.to), { command: c, label: `Build with the ${cap(sel.tile)} tile on ${where(c.to)}` });
    else if (!sel.from) {
      for (const c of uses) if (!out.has(hexKey(c.from))) out.set(hexKey(c.from), { pick: c.from, label: `Move the settlement on ${where(c.from)} with the ${cap(sel.tile)} tile` });
    } else {
      for (const c of uses) if (same(c.from, sel.from)) out.set(hexKey(c.to), { command: c, label: `Move it to ${where(c.to)}` });
    }
    return out;
  }
  for (const c of can.discards) out.set(hexKey(c.location), { command: c, label: `Give up the tile taken from ${where(c.location)}` });
  for (const c of can.builds) out.set(hexKey(c.hex), { command: c, label: `Build a settlement on ${where(c.hex)}` });
  return out;
}

function boardSvg(view, can, sel, ctx) {
  const grid = view.board.grid;
  const rows = grid.length;
  const cols = grid[0].length;
  const width = PAD * 2 + W * cols + W / 2;
  const height = PAD * 2 + R * 2 + (rows - 1) * 1.5 * R;
  const svg = s("svg", {
    class: "kb-board",
    viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`,
    role: "group",
    "aria-label": "Kingdom Builder board, 20 by 20 hexes",
  });
  const owner = new Map();
  for (const p of view.players) for (const hex of p.settlements) owner.set(hexKey(hex), p.seat);
  const locations = new Map(view.board.locations.map((l) => [hexKey(l.hex), l]));
  const marks = targets(can, sel);
  const pickedFrom = sel.from ? hexKey(sel.from) : null;
  const layer = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const letter = grid[r][c];
      const terrain = TERRAIN[letter] || TERRAIN["."];
      const key = `${r},${c}`;
      const { x, y } = centre(r, c);
      const mark = marks.get(key);
      const g = s("g", {
        class: ["hex", `terrain-${terrain.key}`, mark && "target", key === pickedFrom && "picked"],
        "data-row": r,
        "data-col": c,
        "data-terrain": terrain.key,
        "data-focus-key": `hex-${r}-${c}`,
      });
      g.append(s("polygon", { class: "hex-shape", points: hexPoints(x, y), fill: terrain.fill }));
      const seat = owner.get(key);
      const location = locations.get(key);
      let label = `${terrain.name}, ${where([r, c])}`;
      if (letter === "S") {
        g.append(s("path", { d: `M${x - 6},${y + 5} v-9 h3 v3 h2 v-3 h2 v3 h2 v-3 h3 v9 z`, fill: "#6d6455", stroke: "#222", "stroke-width": 0.6 }));
      } else if (location) {
        g.append(s("text", { x, y: y - 1, "text-anchor": "middle", class: "hex-label", fill: "#222" }, cap(location.tile).slice(0, 3)));
        g.append(s("text", { x, y: y + 8, "text-anchor": "middle", class: "loc-count", fill: location.tiles_left ? "#7a2e00" : "#999" }, `×${location.tiles_left}`));
        label = `${cap(location.tile)} location, ${location.tiles_left} tiles left, ${where([r, c])}`;
      } else if (ctx.shapes && TERRAIN_INITIAL[terrain.key] && seat === undefined) {
        // Colour-blind aid: the terrain's initial on every buildable hex.
        g.append(s("text", { x, y: y + 2.5, "text-anchor": "middle", class: "hex-label", fill: terrain.key === "forest" ? "#fff" : "#222", opacity: 0.55 }, TERRAIN_INITIAL[terrain.key]));
      }
      if (seat !== undefined) {
        g.append(settlementGlyph(x, y, seat, ctx.shapes));
        g.dataset.seat = String(seat);
        label += `, settlement of ${ctx.names[seat] || `seat ${seat}`}`;
      }
      if (mark) {
        g.append(s("circle", { class: "target-dot", cx: x, cy: y + (seat !== undefined ? R * 0.6 : 0), r: 2.6 }));
        actionable(g, mark.label, () => {
          if (mark.command) {
            ctx.state.kb = {};
            ctx.send(mark.command);
          } else {
            ctx.state.kb = { ...sel, from: mark.pick };
            ctx.rerender();
          }
        });
        layer.push(g);
      } else {
        g.append(s("title", {}, label));
        svg.append(g);
      }
    }
  }
  // Targets last, so their outline draws over the neighbours'.
  for (const g of layer) svg.append(g);
  return svg;
}

function terrainChip(key, extra) {
  return h("span", { class: "terrain-card", style: { background: TERRAIN_BY_KEY[key]?.fill || "#eee", color: key === "forest" ? "#fff" : "#111" } }, terrainName(key), extra || null);
}

function choiceLabel(c) {
  switch (c.type) {
    case "play_terrain_card":
      return `Play ${terrainName(c.terrain)}`;
    case "take_terrain_card":
      return `Take ${terrainName(c.terrain)}`;
    case "choose_terrain":
      return `Choose ${terrainName(c.terrain)}`;
    case "draw_terrain_card":
      return "Draw the top card";
    case "swap_terrain_card":
      return "Swap for the top card";
    default:
      return c.type.replaceAll("_", " ");
  }
}

function panel(view, can, sel, ctx) {
  const you = view.you;
  const me = you !== null && you !== undefined ? view.players[you] : null;
  const box = h("div", { class: "kb-controls" });
  const terrain = view.terrain;
  const info = h("div", { class: "kb-panel" });
  if (view.turn) {
    const active = view.turn.seat;
    info.append(
      h("span", {}, you === active ? "Your terrain card: " : `${ctx.names[active] || "The player"}'s terrain card: `),
      view.turn.terrain ? terrainChip(view.turn.terrain) : h("em", {}, "not chosen yet"),
      h("span", { class: "muted" }, `${view.turn.placed} of 3 settlements built`),
    );
  }
  info.append(h("span", { class: "muted" }, `Draw pile ${terrain.draw_pile} · discards ${terrain.discard_size}`));
  if (terrain.face_up?.length) info.append(h("span", {}, "Face up: "), ...terrain.face_up.map((t) => terrainChip(t)));
  if (view.hand && view.hand.length) info.append(h("span", {}, "Your hand: "), ...view.hand.map((t) => terrainChip(t)));
  if (terrain.removed?.length) info.append(h("span", { class: "muted" }, `Removed: ${terrain.removed.map(terrainName).join(", ")}`));
  box.append(info);

  if (can.choices.length) {
    box.append(
      h(
        "div",
        { class: "actions", role: "group", "aria-label": "Terrain for this turn" },
        can.choices.map((c, i) => h("button", { type: "button", class: "primary", "data-focus-key": `choice-${i}`, onclick: () => ctx.send(c) }, choiceLabel(c))),
      ),
    );
  }

  if (me) {
    const held = me.tiles || [];
    const tileButtons = held.map((t, i) => {
      const usable = can.tiles.has(t.tile);
      const pressed = sel.tile === t.tile;
      const state = t.used ? "used this turn" : t.fresh ? "taken this turn" : usable ? "ready" : "";
      return h(
        "button",
        {
          type: "button",
          class: ["piece-button", pressed && "selected"],
          "aria-pressed": String(pressed),
          disabled: !usable,
          "data-focus-key": `tile-${i}`,
          dataset: { tile: t.tile },
          title: TILE_TEXT[t.tile] || "",
          onclick: () => {
            ctx.state.kb = pressed ? {} : { tile: t.tile };
            ctx.rerender();
          },
        },
        h("strong", {}, cap(t.tile)),
        state ? h("small", {}, ` (${state})`) : null,
      );
    });
    box.append(
      h(
        "div",
        { class: "piece-row", role: "group", "aria-label": "Your location tiles" },
        h("span", { class: "piece-row-label" }, "Your tiles"),
        tileButtons.length ? tileButtons : h("span", { class: "muted" }, "none yet: build next to a location to take one"),
      ),
    );
  }
  const extra = [];
  if (can.endTurn) extra.push(h("button", { type: "button", id: "end-turn", "data-focus-key": "end-turn", onclick: () => { ctx.state.kb = {}; ctx.send({ type: "end_turn" }); } }, "End turn"));
  if (sel.tile) extra.push(h("button", { type: "button", "data-focus-key": "cancel", onclick: () => { ctx.state.kb = {}; ctx.rerender(); } }, "Cancel tile"));
  if (extra.length) box.append(h("div", { class: "actions" }, extra));

  let hint = "";
  if (can.discards.length) hint = "You hold two alike tiles: click the highlighted location whose tile you give up.";
  else if (sel.tile && !sel.from && [...(can.tiles.get(sel.tile) || [])].some((c) => c.from)) hint = `${cap(sel.tile)}: pick the highlighted settlement to move.`;
  else if (sel.tile && sel.from) hint = `${cap(sel.tile)}: pick where the settlement goes.`;
  else if (sel.tile) hint = `${cap(sel.tile)}: pick a highlighted hex to build on.`;
  else if (can.builds.length) hint = `Build on a highlighted ${terrainName(view.turn?.terrain).toLowerCase()} hex${can.tiles.size ? ", or use a tile" : ""}.`;
  else if (can.tiles.size) hint = "Use a tile, or end your turn.";
  else if (can.endTurn) hint = "End your turn.";
  if (hint) box.append(h("p", { class: "hint", id: "kb-hint" }, hint));

  box.append(
    h(
      "div",
      { class: "kb-cards", "aria-label": "Kingdom Builder cards in play" },
      (view.cards || []).map((card) => h("div", { class: "kb-card" }, h("strong", {}, cap(card)), h("br"), CARD_TEXT[card] || "")),
    ),
  );
  box.append(
    h(
      "div",
      { class: "legend", "aria-hidden": "true" },
      ["G", "C", "D", "F", "T", "W", "M"].map((l) => h("span", {}, h("span", { class: "legend-swatch", style: { background: TERRAIN[l].fill } }), TERRAIN[l].name)),
    ),
  );
  return box;
}

export function render(root, view, legal, ctx) {
  if (!view.board) {
    clear(root).append(h("p", { class: "muted" }, "The board is not laid out yet."));
    return;
  }
  const focusKey = focusKeyOf(root);
  const can = analyse(legal);
  let sel = ctx.state.kb || {};
  if (sel.tile && !can.tiles.has(sel.tile)) sel = {};
  if (sel.from && !(can.tiles.get(sel.tile) || []).some((c) => same(c.from, sel.from))) sel = { tile: sel.tile };
  ctx.state.kb = sel;
  // On a phone the board keeps a usable hex size and scrolls sideways in its own box.
  const wrap = h("div", { class: "kb-board-wrap", tabindex: "-1" }, boardSvg(view, can, sel, ctx));
  const scroll = root.querySelector(".kb-board-wrap");
  const [left, top] = scroll ? [scroll.scrollLeft, scroll.scrollTop] : [0, 0];
  clear(root).append(h("div", { class: ["kb", legal.length && "has-moves"] }, wrap, panel(view, can, sel, ctx)));
  wrap.scrollLeft = left;
  wrap.scrollTop = top;
  restoreFocus(root, focusKey);
}

export function seatSummary(view, seat) {
  const p = view.players?.[seat];
  if (!p) return null;
  const tiles = (p.tiles || []).map((t) => cap(t.tile));
  return h(
    "span",
    { class: "seat-line-detail" },
    h("span", {}, `${p.supply} settlements left`),
    h("span", {}, `${p.score?.total ?? 0} gold so far`),
    tiles.length ? h("span", {}, `tiles: ${tiles.join(", ")}`) : null,
    view.you !== seat && p.hand_size ? h("span", { class: "muted" }, `${p.hand_size} hidden card${p.hand_size > 1 ? "s" : ""}`) : null,
  );
}

export function breakdownLabel(key) {
  return key === "total" ? "total" : key.replaceAll("_", " ");
}
