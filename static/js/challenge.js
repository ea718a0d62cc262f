// Challenging a player (docs/bot-api.md), from the lobby and from a profile.

import { post } from "./api.js";

/** Challenge ``username`` to a game of ``ruleset``: a table for two where the game allows
 * it (Kingdom Cards' two-player variant), else the fewest seats it takes. */
export function challengePlayer(username, ruleset) {
  const body = { ruleset };
  if (ruleset === "kingdom-cards") body.options = { allow_two_players: true };
  return post(`/api/challenge/${encodeURIComponent(username)}/`, body);
}
