// The count beside the navigation's lobby link: how many of the player's games wait for
// their move. The lobby fills it from its own socket (lobby/list.js), every other page
// from /ws/turns/ (turns.js).

/** Show `waiting` games waiting for the player's move (none: the count is hidden). */
export function showTurnCount(waiting) {
  const badge = document.getElementById("nav-turns");
  if (!badge) return;
  badge.hidden = waiting === 0;
  badge.textContent = String(waiting);
  badge.title = waiting === 1 ? "1 game waits for your move" : `${waiting} games wait for your move`;
}
