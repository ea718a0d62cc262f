// "Play now against bots": a table of the game's usual options, the other seats filled
// with medium bots, started at once; the player lands on it.

import { post, showError } from "../api.js";
import { startingHere } from "./list.js";

async function quickStart(button) {
  const { ruleset, seats } = button.dataset;
  button.disabled = true;
  try {
    const table = await post("/api/tables/", { ruleset, seats: Number(seats), options: {}, join: true });
    for (let i = 1; i < Number(seats); i++) await post(`/api/tables/${table.id}/bots/`, { level: "medium" });
    startingHere(table.id);
    await post(`/api/tables/${table.id}/start/`);
    window.location.href = `/tables/${table.id}/`;
  } catch (err) {
    showError(err);
    button.disabled = false;
  }
}

export function wireQuickStart() {
  for (const button of document.querySelectorAll(".quick-start")) button.addEventListener("click", () => quickStart(button));
}
