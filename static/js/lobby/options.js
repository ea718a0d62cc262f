// The create form's options field set, built from the ruleset's declared options.

import { clear, h } from "../dom.js";
import { createForm, rulesetOf } from "./state.js";

function optionField(option) {
  const id = `opt-${option.name}`;
  const label = option.name.replaceAll("_", " ");
  const help = h("small", { class: "help", id: `${id}-help` }, option.description);
  if (option.choices && option.choices.length) {
    const select = h(
      "select",
      { id, name: option.name, "aria-describedby": `${id}-help`, dataset: { kind: "choice" } },
      option.choices.map((choice, i) =>
        h("option", { value: String(i), selected: JSON.stringify(choice) === JSON.stringify(option.default) }, String(choice)),
      ),
    );
    select._choices = option.choices;
    return h("div", { class: "field" }, h("label", { for: id }, label), select, help);
  }
  if (option.type === "bool") {
    return h(
      "div",
      { class: "field check" },
      h("input", { id, name: option.name, type: "checkbox", checked: !!option.default, "aria-describedby": `${id}-help`, dataset: { kind: "bool" } }),
      h("label", { for: id }, label),
      help,
    );
  }
  if (option.type === "int" || option.type === "float") {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { id, name: option.name, type: "number", value: option.default, step: option.type === "int" ? 1 : "any", "aria-describedby": `${id}-help`, dataset: { kind: option.type } }),
      help,
    );
  }
  if (option.type === "str") {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { id, name: option.name, type: "text", value: option.default ?? "", "aria-describedby": `${id}-help`, dataset: { kind: "str" } }),
      help,
    );
  }
  // list, dict, null default or anything else: JSON typed by hand (empty = the default).
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, `${label} (JSON)`),
    h("input", {
      id,
      name: option.name,
      type: "text",
      class: "mono",
      placeholder: option.default === null ? "default" : JSON.stringify(option.default),
      value: option.default === null ? "" : JSON.stringify(option.default),
      "aria-describedby": `${id}-help`,
      dataset: { kind: "json" },
    }),
    help,
  );
}

export function renderOptions() {
  const box = document.getElementById("create-options");
  const rules = rulesetOf(createForm.ruleset.value);
  clear(box).append(h("legend", {}, "Options"));
  if (!rules) return;
  if (!rules.options.length) box.append(h("p", { class: "muted" }, "This game has no table options."));
  for (const option of rules.options) box.append(optionField(option));
  const seats = createForm.seats;
  seats.min = 1;
  seats.max = 8;
  const value = Number(seats.value);
  if (!(value >= rules.min_players && value <= rules.max_players)) seats.value = rules.min_players;
}

export function readOptions(rules) {
  const options = {};
  for (const option of rules.options) {
    const el = createForm.querySelector(`[name="${CSS.escape(option.name)}"]`);
    if (!el) continue;
    const kind = el.dataset.kind;
    if (kind === "choice") options[option.name] = el._choices[Number(el.value)];
    else if (kind === "bool") options[option.name] = el.checked;
    else if (kind === "int") options[option.name] = parseInt(el.value, 10);
    else if (kind === "float") options[option.name] = parseFloat(el.value);
    else if (kind === "str") options[option.name] = el.value;
    else {
      const text = el.value.trim();
      if (!text) continue; // the declared default
      try {
        options[option.name] = JSON.parse(text);
      } catch {
        throw new Error(`Option ${option.name.replaceAll("_", " ")} must be valid JSON, for example ["a", "b"].`);
      }
    }
  }
  return options;
}
