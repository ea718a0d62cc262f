// The moves the board marks: what the others did since the viewer's own last move (or
// the viewer's own move when nobody has moved since); in a replay, the move shown. Each
// game's renderer says which events put a piece somewhere (``placedAt``) and which clear
// the board (``clearsBoard``); it draws the marks itself.

/** The placing events to mark, oldest first. */
export function movesToMark(events, renderer, seat, at) {
  if (!renderer?.placedAt) return [];
  let shown = at === null ? events : events.filter((e) => e.seq <= at);
  const cleared = renderer.clearsBoard ? shown.findLastIndex((e) => renderer.clearsBoard(e)) : -1;
  if (cleared >= 0) shown = shown.slice(cleared + 1);
  const placed = shown.filter((e) => renderer.placedAt(e));
  if (!placed.length) return [];
  if (at !== null || seat === null || seat === undefined) {
    // A replay step or a spectator: the last move of each seat since the last of the first
    // seat to repeat, i.e. one round of moves at most.
    const seen = new Set();
    const round = [];
    for (const e of [...placed].reverse()) {
      if (seen.has(e.data?.seat) && round.length) break;
      seen.add(e.data?.seat);
      round.unshift(e);
    }
    return at !== null ? round.slice(-1) : round;
  }
  const mine = placed.findLastIndex((e) => e.data?.seat === seat);
  const since = placed.slice(mine + 1);
  if (since.length) return since;
  // Nobody moved since our own move: our own placements of that turn.
  const ours = [];
  for (const e of [...placed].reverse()) {
    if (e.data?.seat !== seat) break;
    ours.unshift(e);
  }
  return ours;
}
