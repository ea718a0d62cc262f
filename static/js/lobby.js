// The lobby: tables per game with filters, the create form from each ruleset's declared
// options, seat management (join, leave, bots, start), live over /ws/lobby/; challenges
// to and from players, live over the account's event stream.
// The parts live in static/js/lobby/.

import { get, showError } from "./api.js";
import { wireChallenges } from "./lobby/challenges.js";
import { createTable, showThinkField } from "./lobby/create.js";
import { restoreFilters } from "./lobby/filters.js";
import { loadTables } from "./lobby/list.js";
import { connect } from "./lobby/live.js";
import { wireLearn } from "./lobby/learn.js";
import { wireQuickMatch } from "./lobby/match.js";
import { drawGamePictures } from "./lobby/pictures.js";
import { wireQuickStart } from "./lobby/quick.js";
import { renderOptions } from "./lobby/options.js";
import { createForm, filters, setRulesets } from "./lobby/state.js";
import { loadTimeControl } from "./lobby/time.js";

async function init() {
  wireQuickStart();
  wireLearn();
  wireQuickMatch();
  drawGamePictures();
  restoreFilters();
  filters.addEventListener("change", loadTables);
  filters.addEventListener("submit", (ev) => ev.preventDefault());
  try {
    setRulesets(await get("/api/rulesets/"));
  } catch (err) {
    showError(err);
  }
  if (createForm) {
    await loadTimeControl();
    createForm.ruleset.addEventListener("change", renderOptions);
    createForm.addEventListener("submit", createTable);
    createForm.bot_level.addEventListener("change", showThinkField);
    showThinkField();
    renderOptions();
    createForm.dataset.ready = "1"; // the game's usual table is set: a player's edits stay
  }
  await loadTables();
  connect();
  await wireChallenges();
  // The first tables and players are in: the page stops moving under the pointer (the
  // browser tests wait for this before they click).
  document.getElementById("lobby").dataset.loaded = "1";
}

init();
