// Kingdom Builder's chosen board: four slots (top-left, top-right, bottom-left,
// bottom-right), each filled by picking a section from drawn thumbnails, each with a 180°
// turn. The terrain grids come from /api/rulesets/kingdom-builder/sections/.

import { get } from "../api.js";
import { TERRAIN } from "../games/kingdom_builder/texts.js";
import { clear, h, s } from "../dom.js";

const SLOT_NAMES = ["Top left", "Top right", "Bottom left", "Bottom right"];
const R = 5; // hex radius in the thumbnail's units
const W = Math.sqrt(3) * R;
let grids = null; // name -> {label, rows}

async function loadGrids() {
  if (!grids) {
    const list = await get("/api/rulesets/kingdom-builder/sections/");
    grids = Object.fromEntries(list.map((sec) => [sec.name, sec]));
  }
  return grids;
}

/** A section's 10×10 hexes as a small SVG, upright or turned 180° (as the engine turns it). */
export function thumbnail(rows, rotated = false) {
  const letters = rotated ? rows.map((row) => [...row].reverse().join("")).reverse() : rows;
  const svg = s("svg", { viewBox: `0 0 ${W * 10.5} ${R * 1.5 * 9 + R * 2}`, class: "kb-thumb", "aria-hidden": "true" });
  letters.forEach((row, r) =>
    [...row].forEach((letter, c) => {
      const cx = W / 2 + c * W + (r % 2 ? W / 2 : 0);
      const cy = R + r * R * 1.5;
      const points = [30, 90, 150, 210, 270, 330]
        .map((deg) => [cx + R * Math.cos((deg * Math.PI) / 180), cy + R * Math.sin((deg * Math.PI) / 180)].map((v) => v.toFixed(2)).join(","))
        .join(" ");
      svg.append(s("polygon", { points, fill: (TERRAIN[letter] || TERRAIN["."]).fill, stroke: "#555", "stroke-width": 0.4 }));
    }),
  );
  return svg;
}

/** The control for the ``board_sections`` option; ``available(item)`` says whether an
 * expansion's section may be offered now. Returns {element, refresh, read}. */
export function boardSectionsControl(option, available) {
  const items = option.pick.items;
  const slots = items.slice(0, 4).map((item) => ({ name: item.value, rotated: false }));
  let active = 0;
  const board = h("div", { class: "kb-slots", role: "group", "aria-label": "The board's four sections" });
  const gallery = h("div", { class: "kb-gallery", role: "group", "aria-label": "Sections to pick from" });
  const element = h(
    "div",
    { class: "field kb-sections", id: "opt-sections", dataset: { option: option.name } },
    h("span", { class: "field-title" }, "Sections"),
    h("small", { class: "help" }, "Pick a slot, then the section for it; turn any section by 180°."),
    board,
    gallery,
  );

  function draw() {
    if (!grids) return;
    // Redrawing replaces the buttons: keep the keyboard's place.
    const focused = element.contains(document.activeElement) ? document.activeElement : null;
    const again = focused && (focused.id ? `#${focused.id}` : `.kb-pick[data-section="${focused.dataset.section}"]`);
    clear(board);
    slots.forEach((slot, i) => {
      const sec = grids[slot.name];
      const pick = h(
        "button",
        { type: "button", class: ["kb-slot", i === active && "active"], id: `kb-slot-${i}`, "aria-pressed": String(i === active), dataset: { section: slot.name || "" }, onclick: () => { active = i; draw(); } },
        sec ? thumbnail(sec.rows, slot.rotated) : h("span", { class: "kb-empty" }, "empty"),
        h("span", { class: "kb-name" }, `${SLOT_NAMES[i]}: ${sec ? sec.label : "pick a section"}`),
      );
      const turn = h("input", { type: "checkbox", id: `kb-rotate-${i}`, checked: slot.rotated, onchange: (ev) => { slot.rotated = ev.target.checked; draw(); } });
      board.append(h("div", { class: "kb-slot-box" }, pick, h("label", { class: "kb-rotate" }, turn, " turned 180°")));
    });
    clear(gallery);
    for (const item of items) {
      if (!available(item) || !grids[item.value]) continue;
      const used = slots.findIndex((slot) => slot.name === item.value);
      gallery.append(
        h(
          "button",
          {
            type: "button",
            class: ["kb-pick", used >= 0 && "used"],
            dataset: { section: item.value },
            "aria-pressed": String(used >= 0),
            title: used >= 0 ? `${item.label}: in the ${SLOT_NAMES[used].toLowerCase()} slot` : item.label,
            onclick: () => place(item.value),
          },
          thumbnail(grids[item.value].rows),
          h("span", { class: "kb-name" }, item.label),
        ),
      );
    }
    if (again) element.querySelector(again)?.focus();
  }

  function place(name) {
    const was = slots.findIndex((slot) => slot.name === name);
    if (was >= 0 && was !== active) slots[was] = { name: slots[active].name, rotated: slots[was].rotated }; // swap
    slots[active] = { name, rotated: slots[active].rotated };
    const empty = slots.findIndex((slot) => !slot.name);
    active = empty >= 0 ? empty : (active + 1) % 4;
    draw();
  }

  function refresh() {
    // A section whose expansion was switched off leaves its slot.
    for (const slot of slots) {
      const item = items.find((it) => it.value === slot.name);
      if (slot.name && (!item || !available(item))) slot.name = null;
    }
    draw();
  }

  function read() {
    if (slots.some((slot) => !slot.name)) throw new Error("Pick a section for each of the board's four slots.");
    return { sections: slots.map((slot) => slot.name), rotations: slots.map((slot) => slot.rotated) };
  }

  loadGrids().then(draw, () => board.append(h("p", { class: "muted" }, "The sections could not be loaded.")));
  return { element, refresh, read };
}
