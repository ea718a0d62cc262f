// The audit page's board: the public (spectator) view after any event, drawn by the
// game's own renderer (or as JSON when it has none). The timeline's numbers jump to it.

import { get, showError } from "./api.js";
import { clear, h } from "./dom.js";
import { shapesOn } from "./prefs.js";

const RENDERERS = {
  kingdoms: "./games/kingdoms.js",
  "kingdom-builder": "./games/kingdom_builder.js",
  "kingdom-cards": "./games/kingdom_cards.js",
};

const config = JSON.parse(document.getElementById("audit-config").textContent);
const board = document.getElementById("audit-board");
const slider = document.getElementById("audit-seq");
const label = document.getElementById("audit-at");
let renderer = null;
let current = null;
let request = 0;

function context() {
  return {
    seat: null,
    spectator: true,
    names: config.names,
    send: () => {},
    pending: false,
    replay: true,
    over: true,
    shapes: shapesOn(),
    state: {},
    rerender: () => draw(current),
    gameId: config.game_id,
  };
}

function draw(view) {
  current = view;
  if (!view) {
    clear(board).append(h("p", { class: "muted" }, "No board at this point."));
    return;
  }
  try {
    renderer.render(board, view, [], context());
  } catch (err) {
    console.error(err);
    clear(board).append(h("pre", { class: "mono view-json" }, JSON.stringify(view, null, 2)));
  }
}

async function show(seq) {
  const mine = ++request;
  label.textContent = String(seq);
  if (slider) slider.value = String(seq);
  for (const row of document.querySelectorAll(".audit-timeline tr.is-current")) row.classList.remove("is-current");
  const row = document.querySelector(`.audit-timeline tr[data-seq="${seq}"]`);
  if (row) row.classList.add("is-current");
  try {
    const view = await get(`/api/tables/${config.game_id}/view/?at=${seq}&spectator=1`);
    if (mine === request) draw(view.state);
  } catch (err) {
    showError(err);
  }
}

async function start() {
  try {
    renderer = await import(RENDERERS[config.ruleset] || "./games/generic.js");
  } catch (err) {
    console.error(err);
    renderer = await import("./games/generic.js");
  }
  if (!config.head_seq) return draw(null);
  let pause = null;
  if (slider) {
    slider.addEventListener("input", () => {
      // Each position is a replay on the server: wait until the slider rests.
      label.textContent = slider.value;
      clearTimeout(pause);
      pause = setTimeout(() => show(Number(slider.value)), 150);
    });
  }
  for (const button of document.querySelectorAll(".audit-jump")) {
    button.addEventListener("click", () => show(Number(button.dataset.seq)));
  }
  window.addEventListener("kingdom:prefs", () => draw(current));
  show(config.head_seq);
}

start();
