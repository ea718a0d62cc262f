// A profile's "Challenge" form: the challenge is made here, then the lobby shows it and
// takes both players to the table when it starts.

import { showError } from "./api.js";
import { challengePlayer } from "./challenge.js";

const form = document.getElementById("profile-challenge");
if (form) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      await challengePlayer(form.dataset.player, form.ruleset.value);
      window.location.assign("/#challenges");
    } catch (err) {
      showError(err);
    }
  });
}
