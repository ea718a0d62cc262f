// "Learn to play": a guided first game of one of the games against an easy bot, dealt the
// same every time (the table's `guided` seed; Kingdom Builder's first-game board); the
// table page shows the guide's callouts (static/js/table/guide.js) while the address
// carries ?guide=1.
// New accounts are offered it once, above the games; "No thanks" puts the offer away.

import { post, showError } from "../api.js";
import { startingHere } from "./list.js";

// What each guided table is: two seats, the options its guide speaks of.
const GUIDED = {
  "kingdom-builder": { options: { board: "first_game" } },
  kingdoms: { options: {} },
  "kingdom-cards": { options: { allow_two_players: true } },
};
const OFFER_DISMISSED = "kingdom.guide-offer-dismissed";

async function learn(button) {
  const { ruleset } = button.dataset;
  button.disabled = true;
  try {
    const table = await post("/api/tables/", { ruleset, seats: 2, options: GUIDED[ruleset].options, join: true, guided: true });
    await post(`/api/tables/${table.id}/bots/`, { level: "easy" });
    startingHere(table.id);
    await post(`/api/tables/${table.id}/start/`);
    window.location.href = `/tables/${table.id}/?guide=1`;
  } catch (err) {
    showError(err);
    button.disabled = false;
  }
}

export function wireLearn() {
  for (const button of document.querySelectorAll(".learn-start")) button.addEventListener("click", () => learn(button));
  const offer = document.getElementById("guide-offer");
  if (!offer) return;
  let dismissed = false;
  try {
    dismissed = window.localStorage.getItem(OFFER_DISMISSED) === "1";
  } catch {
    // Storage refused (private mode): the offer shows each time until a game is played.
  }
  offer.hidden = dismissed;
  document.getElementById("guide-offer-dismiss")?.addEventListener("click", () => {
    offer.hidden = true;
    try {
      window.localStorage.setItem(OFFER_DISMISSED, "1");
    } catch {
      // As above.
    }
  });
}
