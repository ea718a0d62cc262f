// The create form's options field set, built from the ruleset's declared options: a real
// control for each (select, checkbox, stepper, named picks, Kingdom Builder's board), shown
// only when the option applies (its ``applies_when``).

import { clear, h } from "../dom.js";
import { boardSectionsControl } from "./sections.js";
import { createForm, rulesetOf } from "./state.js";

// The usual table of each game, so the form starts where most games are played: all three
// play best at 4 (Kingdoms' and Kingdom Builder's boards are made for 4, Kingdom Cards
// is 3-5 and 4 is its common count).
const USUAL_SEATS = { kingdoms: 4, "kingdom-builder": 4, "kingdom-cards": 4 };

let controls = []; // {option, wrap, read(): value | undefined, refresh?()}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const help = (id, option) => h("small", { class: "help", id: `${id}-help` }, option.description);

/** The value an option has now (for ``applies_when`` and ``needs``), or its default. */
function currentValue(name) {
  const control = controls.find((c) => c.option.name === name);
  if (!control) return undefined;
  try {
    const value = control.read();
    return value === undefined ? control.option.default : value;
  } catch {
    return control.option.default;
  }
}

const available = (item) => !item.needs || currentValue(item.needs) === true;

function contiguousInts(choices) {
  return choices.length > 1 && choices.every((c, i) => Number.isInteger(c) && (i === 0 || c === choices[i - 1] + 1));
}

function choiceControl(option, id) {
  if (contiguousInts(option.choices)) {
    // Sizes: a number stepper within the allowed range.
    const input = h("input", { id, name: option.name, type: "number", inputmode: "numeric", min: option.choices[0], max: option.choices.at(-1), step: 1, value: option.default, "aria-describedby": `${id}-help` });
    const wrap = h("div", { class: "field" }, h("label", { for: id }, option.label), input, help(id, option));
    return { wrap, read: () => {
      const value = parseInt(input.value, 10);
      if (!option.choices.includes(value)) throw new Error(`${option.label}: from ${option.choices[0]} to ${option.choices.at(-1)}.`);
      return value;
    } };
  }
  const labels = option.labels || option.choices.map(String);
  const select = h(
    "select",
    { id, name: option.name, "aria-describedby": `${id}-help` },
    option.choices.map((choice, i) => h("option", { value: String(i), selected: same(choice, option.default) }, labels[i])),
  );
  const wrap = h("div", { class: "field" }, h("label", { for: id }, option.label), select, help(id, option));
  return { wrap, read: () => option.choices[Number(select.value)] };
}

function pickControl(option, id) {
  // "At random" (the default, null) or tick exactly ``count`` of the named items.
  const { count, items } = option.pick;
  const random = h("input", { type: "radio", name: `${option.name}-mode`, id: `${id}-random`, value: "random", checked: true });
  const choose = h("input", { type: "radio", name: `${option.name}-mode`, id: `${id}-choose`, value: "choose" });
  const boxes = items.map((item) => ({
    item,
    input: h("input", { type: "checkbox", id: `${id}-${item.value}`, value: item.value, dataset: { pick: item.value } }),
  }));
  const status = h("small", { class: "help pick-status", id: `${id}-status`, "aria-live": "polite" });
  const list = h("div", { class: "pick-list", role: "group", "aria-label": option.label }, boxes.map(({ item, input }) => h("label", { class: "pick-item", dataset: { value: item.value } }, input, ` ${item.label}`)));
  const wrap = h(
    "fieldset",
    { class: "field pick", id },
    h("legend", {}, option.label),
    h("div", { class: "pick-mode" }, h("label", {}, random, ` ${option.pick.default_label || "the default"}`), h("label", {}, choose, ` choose ${count}`)),
    list,
    status,
  );
  const ticked = () => boxes.filter((b) => b.input.checked && !b.input.closest("[hidden]"));
  const refresh = () => {
    list.hidden = !choose.checked;
    status.hidden = !choose.checked;
    for (const { item, input } of boxes) {
      input.closest(".pick-item").hidden = !available(item);
      if (!available(item)) input.checked = false;
    }
    const n = ticked().length;
    for (const { input } of boxes) input.disabled = !input.checked && n >= count;
    status.textContent = `${n} of ${count} ticked`;
  };
  wrap.addEventListener("change", refresh);
  const read = () => {
    if (!choose.checked) return undefined; // at random: the default
    const values = ticked().map((b) => b.item.value);
    if (values.length !== count) throw new Error(`${option.label}: tick exactly ${count} (${values.length} ticked).`);
    return values;
  };
  return { wrap, read, refresh };
}

function optionControl(option) {
  const id = `opt-${option.name}`;
  if (option.control === "board_rotations") return null; // drawn with the sections
  if (option.control === "board_sections") {
    const board = boardSectionsControl(option, available);
    return { wrap: board.element, read: () => board.read().sections, readAll: board.read, refresh: board.refresh };
  }
  if (option.pick) return pickControl(option, id);
  if (option.choices && option.choices.length) return choiceControl(option, id);
  if (option.type === "bool") {
    const input = h("input", { id, name: option.name, type: "checkbox", checked: !!option.default, "aria-describedby": `${id}-help` });
    return { wrap: h("div", { class: "field check" }, input, h("label", { for: id }, option.label), help(id, option)), read: () => input.checked };
  }
  if (option.type === "int" || option.type === "float") {
    const input = h("input", { id, name: option.name, type: "number", value: option.default, step: option.type === "int" ? 1 : "any", "aria-describedby": `${id}-help` });
    const parse = option.type === "int" ? (v) => parseInt(v, 10) : parseFloat;
    return { wrap: h("div", { class: "field" }, h("label", { for: id }, option.label), input, help(id, option)), read: () => parse(input.value) };
  }
  const input = h("input", { id, name: option.name, type: "text", value: option.default ?? "", "aria-describedby": `${id}-help` });
  return { wrap: h("div", { class: "field" }, h("label", { for: id }, option.label), input, help(id, option)), read: () => input.value };
}

const applies = (option) => !option.applies_when || Object.entries(option.applies_when).every(([name, value]) => same(currentValue(name), value));

/** Show each option only when it applies; re-filter the picks by the expansions on. */
export function refreshOptions() {
  for (const control of controls) {
    control.wrap.hidden = !applies(control.option);
    control.refresh?.();
  }
}

export function renderOptions() {
  const box = document.getElementById("create-options");
  const rules = rulesetOf(createForm.ruleset.value);
  clear(box).append(h("legend", {}, "Options"));
  controls = [];
  if (!rules) return;
  if (!rules.options.length) box.append(h("p", { class: "muted" }, "This game has no table options."));
  for (const option of rules.options) {
    const control = optionControl(option);
    if (!control) continue;
    control.option = option;
    control.wrap.dataset.option = option.name;
    controls.push(control);
    box.append(control.wrap);
  }
  box.onchange = refreshOptions;
  refreshOptions();
  const seats = createForm.seats;
  seats.min = Math.min(2, rules.min_players); // some options allow two
  seats.max = rules.max_players;
  seats.value = USUAL_SEATS[rules.key] ?? rules.min_players;
}

/** The options that apply, as the API takes them (an option left out keeps its default). */
export function readOptions(rules) {
  const options = {};
  for (const control of controls) {
    if (!rules.options.includes(control.option) || !applies(control.option)) continue;
    if (control.readAll) Object.assign(options, control.readAll());
    else {
      const value = control.read();
      if (value !== undefined) options[control.option.name] = value;
    }
  }
  return options;
}
