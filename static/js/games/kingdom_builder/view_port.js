// Kingdom Builder: the board's view port. On a wide screen the whole board fits; on a
// phone it starts zoomed to a hex size a finger can hit, pans in its own box, and shows
// at its edges how many highlighted hexes lie beyond them. When the highlighted hexes
// change (a new step of a turn) they are brought into view once; the player's own
// panning is left alone after that. With none on opening, the player's settlements are.

import { h } from "../../dom.js";

const ZOOMS = [1, 1.3, 1.6, 2, 2.5];
const PHONE = 640; // below this width the board starts zoomed in

function defaultZoom(root) {
  const width = root.clientWidth || window.innerWidth;
  return width < PHONE ? 1.6 : 1;
}

/** The board in its box, with the zoom buttons and the edge cues. */
export function boardPort(root, svg, ctx) {
  if (!ZOOMS.includes(ctx.state.kbZoom)) ctx.state.kbZoom = defaultZoom(root);
  const zoom = ctx.state.kbZoom;
  svg.style.width = `${zoom * 100}%`;
  const wrap = h("div", { class: ["kb-board-wrap", zoom === 1 && "fit"], tabindex: "-1" }, svg);
  const cue = (side, arrow) => h("button", { type: "button", class: ["kb-edge", side], hidden: true, dataset: { side } }, arrow);
  const left = cue("left", "◀");
  const right = cue("right", "▶");
  const zoomTo = (next) => {
    ctx.state.kbZoom = next;
    ctx.state.kbShown = null; // show the highlighted hexes again at the new size
    ctx.rerender();
  };
  const at = ZOOMS.indexOf(zoom);
  const tools = h(
    "div",
    { class: "kb-zoom", role: "group", "aria-label": "Zoom the board" },
    h("button", { type: "button", class: "small", "aria-label": "Zoom out", disabled: at === 0, onclick: () => zoomTo(ZOOMS[at - 1]) }, "−"),
    h("button", { type: "button", class: "small", "aria-label": "Zoom in", disabled: at === ZOOMS.length - 1, onclick: () => zoomTo(ZOOMS[at + 1]) }, "+"),
    h("button", { type: "button", class: "small", disabled: at === 0, onclick: () => zoomTo(1) }, "Whole board"),
    zoom > 1 ? h("span", { class: "muted small-text" }, "Swipe the board to pan") : null,
  );
  const port = { el: h("div", { class: "kb-port" }, tools, h("div", { class: "kb-port-box" }, wrap, left, right)), wrap, left, right };
  for (const button of [left, right]) button.addEventListener("click", () => bringIn(port, button.dataset.side));
  wrap.addEventListener("scroll", () => updateCues(port), { passive: true });
  return port;
}

function targetsOf(port, selector = ".hex.target") {
  return [...port.wrap.querySelectorAll(selector)].map((g) => g.getBoundingClientRect());
}

/** Scroll the box so the highlighted hexes (those on one side, or all) come into view. */
function bringIn(port, side) {
  const box = port.wrap.getBoundingClientRect();
  const beyond = (rects) => rects.filter((r) => (side === "left" ? r.left < box.left : side === "right" ? r.right > box.right : true));
  let rects = beyond(targetsOf(port));
  // No highlighted hex that way: the last moves' pieces the cue points at.
  if (!rects.length && side) rects = beyond(targetsOf(port, ".hex.last-move"));
  if (!rects.length) return;
  const from = Math.min(...rects.map((r) => r.left));
  const to = Math.max(...rects.map((r) => r.right));
  // All of them if they fit, else the nearest edge's.
  const centre = to - from < box.width - 20 ? (from + to) / 2 : side === "left" ? to - box.width / 2 + 10 : from + box.width / 2 - 10;
  port.wrap.scrollLeft += centre - (box.left + box.width / 2);
  updateCues(port);
}

function updateCues(port) {
  const box = port.wrap.getBoundingClientRect();
  const outside = (rects) => ({ left: rects.filter((r) => r.right < box.left + 4).length, right: rects.filter((r) => r.left > box.right - 4).length });
  const count = outside(targetsOf(port));
  const moved = outside(targetsOf(port, ".hex.last-move"));
  for (const [side, button] of [["left", port.left], ["right", port.right]]) {
    const n = count[side];
    button.hidden = n === 0 && moved[side] === 0;
    button.dataset.lastMoves = String(moved[side]);
    // A cue with no highlighted hex that way points at the last moves' pieces.
    const what = n ? String(n) : "last move";
    button.textContent = side === "left" ? `◀ ${what}` : `${what} ▶`;
    const words = [n ? `${n} highlighted hex${n === 1 ? "" : "es"}` : null, moved[side] ? `${moved[side]} piece${moved[side] === 1 ? "" : "s"} placed since your last move` : null].filter(Boolean);
    button.setAttribute("aria-label", `${words.join(" and ")} to the ${side}: show`);
  }
}

/** Once per new set of highlighted hexes: pan them into the box, and into the window.
 * With none, on opening the table: pan to the player's own settlements (seat ``you``). */
export function showTargets(port, ctx, you = null) {
  const marked = [...port.wrap.querySelectorAll(".hex.target")];
  const key = marked.map((g) => `${g.dataset.row},${g.dataset.col}`).join(" ");
  if (key && key !== ctx.state.kbShown) {
    ctx.state.kbShown = key;
    const box = port.wrap.getBoundingClientRect();
    const rects = marked.map((g) => g.getBoundingClientRect());
    if (!rects.some((r) => r.left >= box.left && r.right <= box.right)) bringIn(port, null);
    const bar = document.getElementById("table-status") || document.getElementById("kb-turn-bar");
    const topLimit = bar ? bar.getBoundingClientRect().bottom : 0;
    const seen = marked.some((g) => {
      const r = g.getBoundingClientRect();
      return r.top >= topLimit && r.bottom <= window.innerHeight;
    });
    if (!seen && marked.length) {
      const r = marked[0].getBoundingClientRect();
      window.scrollBy({ top: r.top - (topLimit + (window.innerHeight - topLimit) / 2) });
    }
  } else if (!marked.length) {
    if (!ctx.state.kbOpened && you !== null && you !== undefined) showOwn(port, you);
    else showArrivals(port);
  }
  ctx.state.kbOpened = true;
  updateCues(port);
}

/** Pan the board's box to the middle of the player's settlements, when none is in it. */
function showOwn(port, you) {
  const own = [...port.wrap.querySelectorAll(`.hex[data-piece="settlement"][data-seat="${you}"]`)];
  if (!own.length) return;
  const box = port.wrap.getBoundingClientRect();
  const rects = own.map((g) => g.getBoundingClientRect());
  if (rects.some((r) => r.left >= box.left && r.right <= box.right)) return;
  const from = Math.min(...rects.map((r) => r.left));
  const to = Math.max(...rects.map((r) => r.right));
  port.wrap.scrollLeft += (from + to) / 2 - (box.left + box.width / 2);
}

/** With nothing to pick, pan the board's box to the pieces just placed (a bot's build on
 * a zoomed phone board), when none of them is in it. */
function showArrivals(port) {
  const arrived = [...port.wrap.querySelectorAll(".hex.last-move.arrived")];
  if (!arrived.length) return;
  const box = port.wrap.getBoundingClientRect();
  const rects = arrived.map((g) => g.getBoundingClientRect());
  if (rects.some((r) => r.left >= box.left && r.right <= box.right)) return;
  const last = rects[rects.length - 1];
  port.wrap.scrollLeft += (last.left + last.right) / 2 - (box.left + box.width / 2);
}
