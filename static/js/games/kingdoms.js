// Kingdoms: the 5×6 grid, castles ranks 1–4, tiles, the drawn tile and the player's
// pieces. Pick a piece (a castle rank, your starting tile, a face-up tile in No Luck),
// or draw a tile, then pick a highlighted empty space.

import { actionable, clear, focusKeyOf, h, restoreFocus, s } from "../dom.js";
import { seatColour, seatShape, shapeElement } from "../players.js";

const ROWS = 5;
const COLUMNS = 6;
const CELL = 84;
const GAP = 6;
const MARGIN = 26;

const SPECIAL = {
  mountain: { label: "Mountain", short: "▲", fill: "#8c8c8c", ink: "#fff", does: "cuts its row and column in two: each part is scored on its own" },
  dragon: { label: "Dragon", short: "Dragon", fill: "#6b1d1d", ink: "#fff", does: "cancels the resources (the + tiles) in its part of the row and of the column" },
  gold_mine: { label: "Gold Mine", short: "Gold ×2", fill: "#c9a227", ink: "#1b1b1b", does: "doubles the total of its part of the row and of the column" },
  wizard: { label: "Wizard", short: "Wizard", fill: "#3b2f6b", ink: "#fff", does: "each castle next to it counts one rank more" },
};

/** What a tile does, in a sentence (its hover and its button's label). */
export function tileMeaning(tile) {
  const { kind, value } = kindOf(tile);
  if (SPECIAL[kind]) return `${SPECIAL[kind].label}: ${SPECIAL[kind].does}.`;
  return value > 0 ? `Resource +${value}: adds ${value} to its row and its column.` : `Hazard −${-value}: takes ${-value} from its row and its column.`;
}

export function tileName(tile) {
  if (!tile) return "";
  const kind = kindOf(tile);
  if (SPECIAL[kind.kind]) return SPECIAL[kind.kind].label;
  return kind.value > 0 ? `+${kind.value}` : `−${-kind.value}`;
}

function kindOf(tile) {
  if (tile[0] === "+") return { kind: "resource", value: Number(tile[1]) };
  if (tile[0] === "-") return { kind: "hazard", value: -Number(tile[1]) };
  return { kind: tile.startsWith("mountain") ? "mountain" : tile, value: null };
}

const where = (space) => `row ${space[0] + 1}, column ${space[1] + 1}`;
const sameSpace = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

// ---- what the player may do, from the legal commands ----------------------------------
function choices(legal) {
  const ranks = new Set();
  const faceUp = new Set();
  let start = false;
  let draw = false;
  let drawn = false;
  let pass = false;
  for (const c of legal) {
    if (c.type === "place_castle") ranks.add(c.rank);
    else if (c.type === "place_starting_tile") start = true;
    else if (c.type === "draw_tile") draw = true;
    else if (c.type === "place_tile" && c.tile) faceUp.add(c.tile);
    else if (c.type === "place_tile") drawn = true;
    else if (c.type === "pass") pass = true;
  }
  return { ranks, faceUp, start, draw, drawn, pass };
}

function selectionValid(sel, can) {
  if (!sel) return false;
  if (sel.kind === "castle") return can.ranks.has(sel.rank);
  if (sel.kind === "start") return can.start;
  if (sel.kind === "tile") return can.faceUp.has(sel.tile);
  return false;
}

function commandFor(sel, can, legal, space) {
  const match = (c) => sameSpace(c.space, space);
  if (can.drawn) return legal.find((c) => c.type === "place_tile" && !c.tile && match(c));
  if (!sel) return null;
  if (sel.kind === "castle") return legal.find((c) => c.type === "place_castle" && c.rank === sel.rank && match(c));
  if (sel.kind === "start") return legal.find((c) => c.type === "place_starting_tile" && match(c));
  if (sel.kind === "tile") return legal.find((c) => c.type === "place_tile" && c.tile === sel.tile && match(c));
  return null;
}

function describeSelection(sel, view) {
  if (!sel) return "";
  if (sel.kind === "castle") return `a rank-${sel.rank} castle`;
  if (sel.kind === "start") return `your starting tile (${tileName(view.starting_tiles?.[view.viewer]?.tile)})`;
  if (sel.kind === "tile") return tileName(sel.tile);
  return "";
}

// ---- drawing pieces -----------------------------------------------------------------------
export function castleGlyph(x, y, size, seat, rank, shapes) {
  const g = s("g", { class: "castle", "data-seat": seat, "data-rank": rank });
  const w = size * 0.74;
  const left = x + (size - w) / 2;
  const top = y + size * 0.2;
  const body = size * 0.62;
  const colour = seatColour(seat);
  // Battlements: a body with three merlons.
  const m = w / 5;
  const path = [
    `M${left},${top + body}`,
    `V${top}`,
    `h${m}v${m * 0.8}h${m}v${-m * 0.8}h${m}v${m * 0.8}h${m}v${-m * 0.8}h${m}`,
    `V${top + body}Z`,
  ].join(" ");
  g.append(s("path", { d: path, fill: colour, stroke: "#1b1b1b", "stroke-width": 2 }));
  g.append(
    s(
      "text",
      { x: x + size / 2, y: top + body * 0.72, "text-anchor": "middle", class: "castle-rank", fill: "#111" },
      String(rank),
    ),
  );
  if (shapes) {
    g.append(shapeElement(seatShape(seat), x + size * 0.16, y + size * 0.14, size * 0.1, { fill: "#fff", stroke: "#111", "stroke-width": 1.5 }));
  }
  return g;
}

export function tileGlyph(x, y, size, tile) {
  const { kind, value } = kindOf(tile);
  const g = s("g", { class: ["tile", `tile-${kind}`], "data-tile": tile }, s("title", {}, tileMeaning(tile)));
  const pad = size * 0.08;
  let fill;
  let ink = "#111";
  let label;
  if (kind === "resource") {
    fill = "#d8ecc9";
    label = `+${value}`;
  } else if (kind === "hazard") {
    fill = "#f6d0c4";
    label = `−${-value}`;
  } else {
    fill = SPECIAL[kind].fill;
    ink = SPECIAL[kind].ink;
    label = SPECIAL[kind].short;
  }
  g.append(
    s("rect", {
      x: x + pad,
      y: y + pad,
      width: size - 2 * pad,
      height: size - 2 * pad,
      rx: 6,
      fill,
      stroke: kind === "hazard" ? "#9b2d12" : "#3c3c3c",
      "stroke-width": kind === "hazard" ? 2.5 : 1.5,
      "stroke-dasharray": kind === "hazard" ? "6 3" : null,
    }),
  );
  const big = kind === "resource" || kind === "hazard" || kind === "mountain";
  g.append(
    s(
      "text",
      { x: x + size / 2, y: y + size / 2 + (big ? 10 : 5), "text-anchor": "middle", class: big ? "tile-value" : "tile-label", fill: ink },
      label,
    ),
  );
  return g;
}

/** A small inline SVG of a tile, for buttons and panels. */
export function tileIcon(tile, size = 40) {
  const svg = s("svg", { width: size, height: size, viewBox: `0 0 ${CELL} ${CELL}`, class: "tile-icon", "aria-hidden": "true" });
  svg.append(tileGlyph(0, 0, CELL, tile));
  return svg;
}

export function castleIcon(seat, rank, shapes, size = 40) {
  const svg = s("svg", { width: size, height: size, viewBox: `0 0 ${CELL} ${CELL}`, class: "castle-icon", "aria-hidden": "true" });
  svg.append(castleGlyph(0, 0, CELL, seat, rank, shapes));
  return svg;
}

function pieceGlyph(cell, x, y, shapes) {
  if (cell?.piece === "castle") return castleGlyph(x, y, CELL, cell.seat, cell.rank, shapes);
  if (cell?.piece === "tile") return tileGlyph(x, y, CELL, cell.tile);
  return null;
}

/** One row of a position with what it pays each castle's owner (the engine's
 * line_values), drawn as the board draws it: the rules page's picture of a scoring rule. */
export function rowSvg(view, r, ctx) {
  const top = 4;
  // The gains beside it drawn larger than on the board: the picture is shown small.
  const zoom = 1.8;
  const svg = s("svg", { class: "kingdoms-board kingdoms-row", viewBox: `0 0 ${COLUMNS * (CELL + GAP) + 40 * zoom} ${CELL + 2 * top}`, "aria-hidden": "true" });
  for (let c = 0; c < COLUMNS; c++) {
    const x = c * (CELL + GAP);
    const cell = view.grid[r][c];
    svg.append(s("g", { class: ["cell", cell ? "cell-full" : "cell-empty"], "data-row": r, "data-col": c }, s("rect", { class: "cell-bg", x, y: top, width: CELL, height: CELL, rx: 8 }), pieceGlyph(cell, x, top, ctx.shapes)));
  }
  const gains = (view.line_values || []).find((l) => l.line === "row" && l.index === r)?.gains;
  if (gains) svg.append(s("g", { transform: `translate(${COLUMNS * (CELL + GAP) + 2} ${top + CELL / 2}) scale(${zoom})` }, lineMark(0, 0, gains, true, "row", r, ctx)));
  return svg;
}

// ---- the board ------------------------------------------------------------------------------
function board(view, legal, can, sel, ctx) {
  const width = MARGIN + COLUMNS * (CELL + GAP) + 52;
  const height = MARGIN + ROWS * (CELL + GAP) + 46; // two lines of column gains
  const svg = s("svg", {
    class: "kingdoms-board",
    viewBox: `0 0 ${width} ${height}`,
    role: "group",
    "aria-label": `Kingdoms board, ${ROWS} rows by ${COLUMNS} columns`,
  });
  for (let c = 0; c < COLUMNS; c++) {
    svg.append(s("text", { x: MARGIN + c * (CELL + GAP) + CELL / 2, y: 18, "text-anchor": "middle", class: "axis" }, String(c + 1)));
  }
  for (let r = 0; r < ROWS; r++) {
    svg.append(s("text", { x: 10, y: MARGIN + r * (CELL + GAP) + CELL / 2 + 5, "text-anchor": "middle", class: "axis" }, String(r + 1)));
  }
  const lineGains = new Map((view.lines || []).map((l) => [`${l.line}:${l.index}`, l.gains]));
  const marked = lastMoveMarks(ctx);
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLUMNS; c++) {
      const x = MARGIN + c * (CELL + GAP);
      const y = MARGIN + r * (CELL + GAP);
      const cell = view.grid[r][c];
      const space = [r, c];
      const command = cell ? null : commandFor(sel, can, legal, space);
      const mark = cell ? marked.get(`${r},${c}`) : null;
      const g = s("g", {
        class: ["cell", cell ? "cell-full" : "cell-empty", command && "target", mark && "last-move", mark?.fresh && "arrived"],
        "data-row": r,
        "data-col": c,
        "data-focus-key": `cell-${r}-${c}`,
      });
      g.append(s("rect", { class: "cell-bg", x, y, width: CELL, height: CELL, rx: 8 }));
      const glyph = pieceGlyph(cell, x, y, ctx.shapes);
      if (glyph) g.append(glyph);
      if (mark) g.append(s("rect", { class: "last-ring", x: x - 2, y: y - 2, width: CELL + 4, height: CELL + 4, rx: 10 }));
      if (command) {
        g.append(s("rect", { class: "target-ring", x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 7 }));
        const what = can.drawn ? tileName(view.drawn_tile?.tile) : describeSelection(sel, view);
        actionable(g, `Place ${what} on ${where(space)}`, () => ctx.send(command));
      } else {
        let label = `${where(space)}: `;
        if (!cell) label += "empty";
        else if (cell.piece === "castle") label += `rank-${cell.rank} castle of ${ctx.names[cell.seat] || `seat ${cell.seat}`}`;
        else label += tileMeaning(cell.tile);
        if (mark) label += mark.latest ? ", the last move" : ", placed since your last move";
        g.setAttribute("aria-label", label);
      }
      svg.append(g);
    }
  }
  // Each row's and column's gains: those scored this epoch (Score as You Go, or at the
  // epoch's scoring) in bold, the others as they would pay now (the engine's line_values).
  const valueOf = new Map((view.line_values || []).map((l) => [`${l.line}:${l.index}`, l.gains]));
  for (let r = 0; r < ROWS; r++) {
    const scored = lineGains.get(`row:${r}`);
    const gains = scored || valueOf.get(`row:${r}`);
    if (gains) svg.append(lineMark(MARGIN + COLUMNS * (CELL + GAP) + 2, MARGIN + r * (CELL + GAP) + CELL / 2, gains, !!scored, "row", r, ctx));
  }
  for (let c = 0; c < COLUMNS; c++) {
    const scored = lineGains.get(`column:${c}`);
    const gains = scored || valueOf.get(`column:${c}`);
    if (gains) svg.append(lineMark(MARGIN + c * (CELL + GAP) - 2, MARGIN + ROWS * (CELL + GAP) + 4, gains, !!scored, "column", c, ctx));
  }
  return svg;
}

/** The spaces the last moves filled: "row,col" -> {fresh, latest}. */
function lastMoveMarks(ctx) {
  const marks = new Map();
  const moves = ctx.lastMoves || [];
  moves.forEach((e, i) => {
    const space = placedAt(e);
    if (space) marks.set(`${space[0]},${space[1]}`, { fresh: e.seq > ctx.animatedUpTo, latest: i === moves.length - 1 });
  });
  return marks;
}

const PLACING = new Set(["castle_placed", "tile_placed", "starting_tile_placed"]);

/** Where a placing event put its piece (the table marks the last moves), or null. */
export function placedAt(event) {
  return PLACING.has(event.type) && Array.isArray(event.data?.space) ? event.data.space : null;
}

/** A new epoch starts on an empty board: no earlier move is on it. */
export function clearsBoard(event) {
  return event.type === "epoch_started";
}

/** A line's gain per seat: a seat-coloured dot and the number, for every seat it pays. */
function lineMark(x, y, gains, scored, kind, index, ctx) {
  const paid = gains.map((g, seat) => ({ g, seat })).filter((p) => p.g !== 0);
  const signed = (g) => `${g > 0 ? "+" : ""}${g}`;
  const who = paid.map((p) => `${ctx.names[p.seat] || `seat ${p.seat}`} ${signed(p.g)}`).join(", ") || "nobody";
  const title = `${kind === "row" ? "Row" : "Column"} ${index + 1} ${scored ? "scored" : "would pay now"}: ${who}`;
  const g = s("g", { class: ["line-mark", scored ? "scored" : "open"], dataset: { line: kind, index: String(index), gains: gains.join(",") } }, s("title", {}, title));
  if (!paid.length) {
    if (scored) g.append(s("text", { x: x + 6, y: kind === "row" ? y + 5 : y + 12, class: "gain-text" }, "0"));
    return g;
  }
  paid.forEach((p, i) => {
    // Rows: stacked beside the row; columns: two to a line under the column, the second
    // 46 units on, midway in the 90-unit column pitch (at 44 a wide number met the first
    // label, at 48 the next column's). A line every 20 units: at 17 (16) labels touched.
    const px = kind === "row" ? x : x + (i % 2) * 46;
    const py = kind === "row" ? y + (i - (paid.length - 1) / 2) * 20 : y + 10 + Math.floor(i / 2) * 20;
    g.append(s("circle", { cx: px + 5, cy: py - 4, r: 4.5, fill: seatColour(p.seat), stroke: "#222", "stroke-width": 1 }));
    g.append(s("text", { x: px + 12, y: py + 1, class: "gain-text" }, signed(p.g)));
  });
  return g;
}

/** The table pauses on the scored board (the page shows it with each player's gain
 * before the next epoch wipes it). */
export function interludeAfter(event) {
  return event.type === "epoch_scored";
}

export function interludeSummary(event, names) {
  const data = event.data || {};
  const gains = data.gains || [];
  const signed = (g) => `${g > 0 ? "+" : g < 0 ? "−" : ""}${Math.abs(g)}`;
  const lineName = (l) => `${l.line === "row" ? "row" : "column"} ${l.index + 1}`;
  return {
    title: `Epoch ${data.epoch} scored`,
    lines: gains.map((g, seat) => {
      // Each row and column that paid this seat, in the board's order.
      const paid = (data.lines || []).filter((l) => l.gains?.[seat]).map((l) => `${lineName(l)} ${signed(l.gains[seat])}`);
      return {
        seat,
        text: `${names[seat] || `seat ${seat}`} ${signed(g)} gold`,
        detail: paid.length ? paid.join(", ") : "no row or column paid",
        total: data.gold?.[seat],
      };
    }),
  };
}

// ---- the controls ----------------------------------------------------------------------------
function controls(view, legal, can, sel, ctx) {
  const box = h("div", { class: "kingdoms-controls" });
  const me = view.viewer;
  if (me === null || me === undefined) return box;
  const store = ctx.state;
  const choose = (next) => {
    store.kingdomsSel = next;
    ctx.rerender();
  };
  const hand = view.castles?.[me] || [0, 0, 0, 0];

  const castleButtons = [1, 2, 3, 4].map((rank) => {
    const count = hand[rank - 1] || 0;
    const legalRank = can.ranks.has(rank);
    const pressed = sel?.kind === "castle" && sel.rank === rank;
    return h(
      "button",
      {
        type: "button",
        class: ["piece-button", pressed && "selected"],
        "aria-pressed": String(pressed),
        disabled: !legalRank,
        "data-focus-key": `castle-${rank}`,
        dataset: { castleRank: String(rank) },
        "aria-label": `Rank-${rank} castle, ${count} in hand`,
        onclick: () => choose(pressed ? null : { kind: "castle", rank }),
      },
      castleIcon(me, rank, ctx.shapes, 36),
      h("span", { class: "piece-count" }, `×${count}`),
    );
  });
  box.append(h("div", { class: "piece-row", role: "group", "aria-label": "Your castles" }, h("span", { class: "piece-row-label" }, "Castles"), castleButtons));

  const mine = view.starting_tiles?.[me];
  if (mine?.held && mine.tile) {
    const pressed = sel?.kind === "start";
    box.append(
      h(
        "div",
        { class: "piece-row", role: "group", "aria-label": "Your starting tile" },
        h("span", { class: "piece-row-label" }, "Starting tile"),
        h(
          "button",
          {
            type: "button",
            class: ["piece-button", pressed && "selected"],
            "aria-pressed": String(pressed),
            disabled: !can.start,
            "data-focus-key": "starting-tile",
            id: "starting-tile-button",
            "aria-label": `Your starting tile: ${tileName(mine.tile)}`,
            title: tileMeaning(mine.tile),
            onclick: () => choose(pressed ? null : { kind: "start" }),
          },
          tileIcon(mine.tile, 36),
          h("span", {}, tileName(mine.tile)),
        ),
      ),
    );
  }

  if (view.supply?.face_up) {
    // Copies of a tile are alike: one button per kind, using a legal copy when there is one.
    const kinds = new Map();
    for (const tile of view.supply.face_up) {
      const name = tileName(tile);
      if (!kinds.has(name)) kinds.set(name, []);
      kinds.get(name).push(tile);
    }
    const buttons = [];
    for (const [name, tiles] of kinds) {
      const tile = tiles.find((t) => can.faceUp.has(t)) || tiles[0];
      const pressed = sel?.kind === "tile" && tiles.includes(sel.tile);
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: ["piece-button", pressed && "selected"],
            "aria-pressed": String(pressed),
            disabled: !can.faceUp.has(tile),
            "data-focus-key": `tile-${name}`,
            dataset: { tile },
            "aria-label": `Face-up tile ${name}${tiles.length > 1 ? `, ${tiles.length} copies` : ""}`,
            onclick: () => choose(pressed ? null : { kind: "tile", tile }),
          },
          tileIcon(tile, 32),
          tiles.length > 1 ? h("span", { class: "piece-count" }, `×${tiles.length}`) : null,
        ),
      );
    }
    box.append(h("div", { class: "piece-row wrap", role: "group", "aria-label": "Face-up tiles" }, h("span", { class: "piece-row-label" }, "Face-up supply"), buttons));
  }

  return box;
}

/** The step's prompt and its buttons (draw, pass), in the bar that stays in view above
 * the board; empty when there is nothing to do. */
function turnBar(view, legal, can, sel, ctx) {
  const bar = h("div", { class: "kingdoms-turn-bar", id: "kingdoms-turn-bar" });
  if (can.drawn && view.drawn_tile) {
    bar.append(
      h(
        "div",
        { class: "drawn-tile", role: "status" },
        tileIcon(view.drawn_tile.tile, 40),
        h("span", { id: "kingdoms-hint", class: "hint" }, `You drew ${tileName(view.drawn_tile.tile)}. Choose a highlighted space for it.`),
      ),
    );
  }
  let hint = "";
  if (!legal.length) hint = ctx.replay ? "" : ctx.pending ? "Sending…" : "";
  else if (can.drawn) hint = "";
  else if (sel) hint = `Now choose a highlighted space for ${describeSelection(sel, view)}.`;
  else hint = "Choose a castle" + (can.start ? ", your starting tile" : "") + (can.faceUp.size ? ", a face-up tile" : "") + (can.draw ? ", or draw a tile" : "") + ".";
  if (hint) bar.append(h("p", { class: "hint", id: "kingdoms-hint" }, hint));
  const extra = [];
  if (can.draw) {
    extra.push(h("button", { type: "button", class: "primary", id: "draw-tile", "data-focus-key": "draw", onclick: () => ctx.send({ type: "draw_tile" }) }, "Draw a tile"));
  }
  if (can.pass) extra.push(h("button", { type: "button", id: "pass", "data-focus-key": "pass", onclick: () => ctx.send({ type: "pass" }) }, "Pass"));
  if (extra.length) bar.append(h("div", { class: "actions" }, extra));
  return bar.childNodes.length ? bar : null;
}

// ---- the exports ------------------------------------------------------------------------------
export function render(root, view, legal, ctx) {
  if (!view.grid) {
    clear(root).append(h("p", { class: "muted" }, "The board is not laid out yet."));
    return;
  }
  const slot = ctx.bar || null;
  const focusKey = focusKeyOf(root) || (slot && focusKeyOf(slot));
  const can = choices(legal);
  let sel = ctx.state.kingdomsSel || null;
  if (!selectionValid(sel, can)) sel = null;
  // One kind of piece only (e.g. the last castle rank): select it for the player.
  if (!sel && !can.drawn && legal.length) {
    const kinds = [...[...can.ranks].map((rank) => ({ kind: "castle", rank })), ...(can.start ? [{ kind: "start" }] : []), ...[...can.faceUp].map((tile) => ({ kind: "tile", tile }))];
    if (kinds.length === 1 && !can.draw) sel = kinds[0];
  }
  ctx.state.kingdomsSel = sel;

  const info = h(
    "div",
    { class: "kingdoms-info" },
    h("span", {}, `Epoch ${view.epoch} of ${view.final_epoch ? view.epoch : view.epochs}`),
    h("span", {}, view.supply?.face_up ? `${view.supply.count} tiles face up` : `${view.supply?.count ?? 0} tiles in the supply`),
    view.drawn_tile && !can.drawn
      ? h("span", { class: "drawn-public" }, `${ctx.names[view.drawn_tile.seat] || "A player"} drew `, h("strong", {}, tileName(view.drawn_tile.tile)))
      : null,
  );
  const bar = turnBar(view, legal, can, sel, ctx);
  if (slot) {
    clear(slot);
    if (bar) slot.append(bar);
  }
  clear(root).append(
    h(
      "div",
      { class: ["kingdoms", legal.length && "has-moves"] },
      info,
      slot ? null : bar,
      h("div", { class: "kingdoms-table" }, board(view, legal, can, sel, ctx), controls(view, legal, can, sel, ctx)),
    ),
  );
  restoreFocus(root, focusKey);
  if (slot) restoreFocus(slot, focusKey);
}

/** A line under each player's name: gold, castles in hand, starting tile. */
export function seatSummary(view, seat, ctx) {
  const gold = view.gold?.[seat];
  const hand = view.castles?.[seat] || [];
  const start = view.starting_tiles?.[seat];
  const parts = [h("span", { class: "gold" }, `${gold ?? "?"} gold`)];
  const castles = hand.map((n, i) => (n ? `${n}×r${i + 1}` : null)).filter(Boolean);
  parts.push(h("span", { class: "castles-left", title: "castles in hand by rank" }, castles.length ? castles.join(" ") : "no castles"));
  if (start?.held) {
    if (start.tile) {
      parts.push(h("span", { class: "starting-tile mine", "data-testid": "my-starting-tile", dataset: { tile: start.tile } }, "starting tile: ", h("strong", {}, tileName(start.tile))));
    } else if (view.revealed?.[seat]?.starting_tile) {
      // The game is over: nothing is hidden any more.
      parts.push(h("span", { class: "starting-tile revealed-tile" }, "starting tile: ", h("strong", {}, tileName(view.revealed[seat].starting_tile))));
    } else {
      parts.push(h("span", { class: "starting-tile hidden-tile" }, "holds a hidden starting tile"));
    }
  }
  return h("span", { class: "seat-line-detail" }, parts);
}

/** A seat's gold: its score when the game ends early (the others left). */
export const scoreOf = (view, seat) => view?.gold?.[seat];

const LABELS = { start: "start", gold: "total" };

export function breakdownLabel(key) {
  if (LABELS[key]) return LABELS[key];
  const epoch = /^epoch_(\d+)$/.exec(key);
  return epoch ? `epoch ${epoch[1]}` : key.replaceAll("_", " ");
}

// What a seat held hidden, shown to everyone once the game is over (view.revealed).
export const revealedText = (key, value) => (key === "starting_tile" ? `starting tile: ${tileName(value)}` : `${key}: ${value}`);
