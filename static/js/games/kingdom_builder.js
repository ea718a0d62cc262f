// Kingdom Builder with the Nomads and Crossroads expansions: the entry module (table.js
// and the tests import it by this path). The board and its pieces live in
// kingdom_builder/board.js and pieces.js, the reading of the legal commands in
// commands.js, the panel in panel.js, names and texts in texts.js.
// Click a highlighted hex to build; to use a tile, pick the tile, then (for a move) the
// settlement or piece to move, then where it goes. Choices that are no hex are buttons.

import { clear, focusKeyOf, h, restoreFocus } from "../dom.js";
import { boardSvg } from "./kingdom_builder/board.js";
import { analyse, checkSelection } from "./kingdom_builder/commands.js";
import { panel, seatSummary } from "./kingdom_builder/panel.js";
import { TERRAIN } from "./kingdom_builder/texts.js";

export { TERRAIN, seatSummary };

export function render(root, view, legal, ctx) {
  if (!view.board) {
    clear(root).append(h("p", { class: "muted" }, "The board is not laid out yet."));
    return;
  }
  const focusKey = focusKeyOf(root);
  const can = analyse(legal);
  const sel = checkSelection(can, ctx.state.kb || {});
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

export function breakdownLabel(key) {
  return key === "total" ? "total" : key.replaceAll("_", " ");
}
