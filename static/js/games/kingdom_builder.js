// Kingdom Builder with the Nomads and Crossroads expansions: the entry module (table.js
// and the tests import it by this path). The board and its pieces live in
// kingdom_builder/board.js and pieces.js, the reading of the legal commands in
// commands.js, the turn bar and the panel in panel.js, names and texts in texts.js,
// zoom and panning in view_port.js.
// Click a highlighted hex to build; to use a tile, pick the tile, then (for a move) the
// settlement or piece to move, then where it goes. Choices that are no hex are buttons.

import { clear, focusKeyOf, h, restoreFocus } from "../dom.js";
import { boardSvg, placedAt } from "./kingdom_builder/board.js";
import { analyse, checkSelection } from "./kingdom_builder/commands.js";
import { panel, seatSummary, turnBar } from "./kingdom_builder/panel.js";
import { TERRAIN, TERRAIN_BY_KEY } from "./kingdom_builder/texts.js";
import { boardPort, showTargets } from "./kingdom_builder/view_port.js";

export { TERRAIN, placedAt, seatSummary };

export function render(root, view, legal, ctx) {
  if (!view.board) {
    clear(root).append(h("p", { class: "muted" }, "The board is not laid out yet."));
    return;
  }
  const slot = ctx.bar || null;
  const focusKey = focusKeyOf(root) || (slot && focusKeyOf(slot));
  const can = analyse(legal);
  const sel = checkSelection(can, ctx.state.kb || {});
  ctx.state.kb = sel;
  const old = root.querySelector(".kb-board-wrap");
  const [left, top] = old ? [old.scrollLeft, old.scrollTop] : [0, 0];
  const port = boardPort(root, boardSvg(view, can, sel, ctx), ctx);
  // Once the game is over there is no turn to show: the banner and the result say it all.
  const bar = view.finished || ctx.over ? null : turnBar(view, can, sel, ctx);
  if (slot) {
    clear(slot);
    if (bar) slot.append(bar);
  }
  const over = view.finished || ctx.over;
  clear(root).append(h("div", { class: ["kb", legal.length && "has-moves", over && "is-over"] }, slot ? null : bar, port.el, panel(view, can, sel, ctx)));
  port.wrap.scrollLeft = left;
  port.wrap.scrollTop = top;
  showTargets(port, ctx, view.you);
  restoreFocus(root, focusKey);
  if (slot) restoreFocus(slot, focusKey);
}

/** A seat's gold so far: its score when the game ends early (the others left). */
export const scoreOf = (view, seat) => view?.players?.[seat]?.score?.total;

export function breakdownLabel(key) {
  return key === "total" ? "total" : key.replaceAll("_", " ");
}

// What a seat held hidden, shown to everyone once the game is over (view.revealed).
export function revealedText(key, value) {
  if (key !== "terrain_cards") return `${key}: ${value}`;
  const names = (value || []).map((t) => TERRAIN_BY_KEY[t]?.name || t);
  return `terrain card${names.length === 1 ? "" : "s"} in hand: ${names.join(", ") || "none"}`;
}
