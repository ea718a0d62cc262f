// Kingdom Builder: what the player may do, read from the legal commands, and which hexes
// to highlight for the current selection (a tile picked, then maybe a piece to move).

import { PIECES, hexKey, nameOf, same, terrainName, where } from "./texts.js";

/** The legal commands sorted by how the page offers them. */
export function analyse(legal) {
  const can = { builds: [], tiles: new Map(), nomads: [], walls: [], removals: [], steps: [], finish: null, choices: [], discards: [], other: [], endTurn: false };
  for (const c of legal) {
    if (c.type === "build") can.builds.push(c);
    else if (c.type === "use_tile" || c.type === "take_back_piece") {
      if (!can.tiles.has(c.tile)) can.tiles.set(c.tile, []);
      can.tiles.get(c.tile).push(c);
    } else if (c.type === "use_nomad_tile") can.nomads.push(c);
    else if (c.type === "place_wall") can.walls.push(c);
    else if (c.type === "remove_settlement") can.removals.push(c);
    else if (c.type === "move_settlement") can.steps.push(c);
    else if (c.type === "finish_action") can.finish = c;
    else if (c.type === "discard_tile") can.discards.push(c);
    else if (c.type === "end_turn") can.endTurn = true;
    else if (c.type === "undo") can.undo = true; // take back this turn's last build or tile move
    else if (["play_terrain_card", "take_terrain_card", "choose_terrain", "draw_terrain_card", "swap_terrain_card"].includes(c.type)) can.choices.push(c);
    else can.other.push(c);
  }
  return can;
}

/** The moves (with ``from``) open for the selection: a tile's, or the Resettlement steps. */
export function movesFor(can, sel) {
  if (sel.tile) return (can.tiles.get(sel.tile) || []).filter((c) => c.type === "use_tile" && c.from);
  return can.steps;
}

/** Drop a selection the legal commands no longer support. */
export function checkSelection(can, sel) {
  if (sel.tile && !can.tiles.has(sel.tile)) return {};
  if (sel.from && !movesFor(can, sel).some((c) => same(c.from, sel.from))) return sel.tile ? { tile: sel.tile } : {};
  return sel;
}

function placeLabel(tile, hex) {
  const piece = PIECES[tile];
  if (piece) return `Place your ${piece} on ${where(hex)} with the ${nameOf(tile)} tile`;
  if (tile === "quarry") return `Place a stone wall on ${where(hex)} with the Quarry tile`;
  if (tile === "city_hall") return `Build your city hall centred on ${where(hex)}, covering it and its 6 neighbours`;
  return `Build with the ${nameOf(tile)} tile on ${where(hex)}`;
}

/** The hexes to highlight and the command each one sends (or the piece it picks). */
export function targets(can, sel, view, names) {
  const out = new Map();
  const moves = movesFor(can, sel);
  if (sel.tile) {
    const uses = can.tiles.get(sel.tile) || [];
    const piece = PIECES[sel.tile];
    const backs = uses.filter((c) => c.type === "take_back_piece");
    if (sel.from) {
      for (const c of moves) if (same(c.from, sel.from)) out.set(hexKey(c.to), { command: c, label: piece ? `Move your ${piece} to ${where(c.to)}` : `Move it to ${where(c.to)}` });
      for (const c of backs) if (same(c.hex, sel.from)) out.set(hexKey(c.hex), { command: c, label: `Take your ${piece} on ${where(c.hex)} back` });
      return out;
    }
    for (const c of uses) if (c.type === "use_tile" && !c.from) out.set(hexKey(c.to), { command: c, label: placeLabel(sel.tile, c.to) });
    for (const c of backs) out.set(hexKey(c.hex), { command: c, label: `Take your ${piece} on ${where(c.hex)} back` });
    for (const c of moves) {
      const what = piece ? `your ${piece}` : "the settlement";
      out.set(hexKey(c.from), { pick: c.from, label: `Move ${what} on ${where(c.from)} with the ${nameOf(sel.tile)} tile${backs.some((b) => same(b.hex, c.from)) ? ", or take it back" : ""}` });
    }
    return out;
  }
  if (sel.from) {
    for (const c of moves) if (same(c.from, sel.from)) out.set(hexKey(c.to), { command: c, label: `Move it one step to ${where(c.to)}` });
    return out;
  }
  for (const c of moves) out.set(hexKey(c.from), { pick: c.from, label: `Move the settlement on ${where(c.from)} one step` });
  for (const c of can.discards) out.set(hexKey(c.location), { command: c, label: `Give up the tile taken from ${where(c.location)}` });
  const action = view.turn?.action;
  for (const c of can.builds) {
    const how = action?.kind === "donation" ? ` with the ${nameOf(action.tile)} tile` : "";
    out.set(hexKey(c.hex), { command: c, label: `Build a settlement on ${where(c.hex)}${how}` });
  }
  for (const c of can.walls) out.set(hexKey(c.hex), { command: c, label: `Place the second stone wall on ${where(c.hex)}` });
  const owner = new Map();
  for (const p of view.players) for (const hex of p.settlements) owner.set(hexKey(hex), p.seat);
  for (const c of can.removals) {
    const seat = owner.get(hexKey(c.hex));
    out.set(hexKey(c.hex), { command: c, label: `Remove ${names[seat] || `seat ${seat}`}'s settlement on ${where(c.hex)} with the Sword` });
  }
  return out;
}

export function choiceLabel(c) {
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
