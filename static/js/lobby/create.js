// Creating a table from the form: ruleset, seats, options, time control, then the bots
// that fill the empty seats (through the per-seat bots endpoint).

import { post, showError, toast } from "../api.js";
import { THINKING_LEVELS } from "../bot_levels.js";
import { renderTables } from "./list.js";
import { readOptions } from "./options.js";
import { createForm, filters, list, rulesetOf, tables } from "./state.js";
import { readTimeControl } from "./time.js";

export async function createTable(ev) {
  ev.preventDefault();
  const rules = rulesetOf(createForm.ruleset.value);
  const submit = document.getElementById("create-submit");
  let options;
  try {
    options = readOptions(rules);
  } catch (err) {
    showError(err);
    return;
  }
  const seats = parseInt(createForm.seats.value, 10);
  // Bots take every seat the host does not.
  const bots = createForm.fill_bots.checked ? Math.max(0, seats - (createForm.join.checked ? 1 : 0)) : 0;
  submit.disabled = true;
  try {
    const body = { ruleset: rules.key, seats, options, join: createForm.join.checked };
    const timeControl = readTimeControl();
    if (timeControl) body.time_control = timeControl;
    const think = parseFloat(createForm.bot_think_seconds?.value);
    if (Number.isFinite(think)) body.bot_think_seconds = think;
    let table = await post("/api/tables/", body);
    tables.set(table.id, table);
    for (let i = 0; i < bots; i++) {
      table = await post(`/api/tables/${table.id}/bots/`, { level: createForm.bot_level.value });
      tables.set(table.id, table);
    }
    // Show the new table even when the filters hid it.
    if (filters.status.value && filters.status.value !== "open") filters.status.value = "open";
    if (filters.ruleset.value && filters.ruleset.value !== table.ruleset) filters.ruleset.value = table.ruleset;
    renderTables();
    toast(`Table created: ${table.ruleset_name}.`, "info");
    list.querySelector(`[data-table-id="${table.id}"]`)?.scrollIntoView({ block: "nearest" });
  } catch (err) {
    if (!pointAtSeatOption(err, rules, seats)) showError(err);
  } finally {
    submit.disabled = false;
  }
}

/** Too few seats where a table option allows them (Kingdom Cards' "Allow two players"):
 * say which option, and take the player to it. Whether it did. */
function pointAtSeatOption(err, rules, seats) {
  if (err?.code !== "bad_seats") return false;
  const option = (rules?.options || []).find((o) => o.name === "allow_two_players");
  const box = option && document.getElementById(`opt-${option.name}`);
  if (!box || box.checked || seats !== 2) return false;
  toast(`${err.message} For two, tick “${option.label}” below.`, "error");
  box.closest(".field")?.classList.add("needs-attention");
  box.focus();
  box.addEventListener("change", () => box.closest(".field")?.classList.remove("needs-attention"), { once: true });
  return true;
}

/** The think time matters only for the searching bots: shown with their levels. */
export function showThinkField() {
  document.getElementById("create-think-field").hidden = !THINKING_LEVELS.includes(createForm.bot_level.value);
}
