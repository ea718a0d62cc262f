// The create form's time control (a service setting, offered when the server declares
// its limits).

import { get } from "../api.js";
import { clear, h } from "../dom.js";

let timeControls = null;
const TIME_WORDS = { none: "No clocks (friendly)", realtime: "Real time: a bank of minutes plus an increment", turn: "Turn based: hours per move" };
const FIELD_WORDS = { minutes: "Minutes each", increment_seconds: "Seconds added per move", hours: "Hours per move" };

/** Ask the server for its time controls and offer them; a server without clocks has none. */
export async function loadTimeControl() {
  try {
    timeControls = await get("/api/time-controls/");
    renderTimeControl();
  } catch {
    timeControls = null; // a server without clocks: no time control field
  }
}

function renderTimeControl() {
  const box = document.getElementById("create-time");
  if (!box || !timeControls) return;
  const kinds = timeControls.kinds || [];
  const select = h(
    "select",
    { id: "time-kind", name: "time_kind" },
    kinds.map((k) => h("option", { value: k.kind }, TIME_WORDS[k.kind] || k.kind)),
  );
  const fields = h("div", { class: "time-fields" });
  const showFields = () => {
    const kind = kinds.find((k) => k.kind === select.value);
    clear(fields);
    for (const [name, limits] of Object.entries(kind?.fields || {})) {
      fields.append(
        h(
          "div",
          { class: "field" },
          h("label", { for: `time-${name}` }, FIELD_WORDS[name] || name.replaceAll("_", " ")),
          h("input", { id: `time-${name}`, name: `time_${name}`, type: "number", inputmode: "numeric", min: limits.min, max: limits.max, step: 1, value: limits.default, dataset: { timeField: name } }),
        ),
      );
    }
  };
  select.addEventListener("change", showFields);
  clear(box).append(h("legend", {}, "Time control"), h("div", { class: "field" }, h("label", { for: "time-kind" }, "Clocks"), select), fields);
  showFields();
  box.hidden = false;
}

export function readTimeControl() {
  const select = document.getElementById("time-kind");
  if (!select || select.value === "none") return null;
  const control = { kind: select.value };
  for (const input of document.querySelectorAll("[data-time-field]")) control[input.dataset.timeField] = parseInt(input.value, 10);
  return control;
}
