// The game boardgame.io's server plays for the bench: two players take turns putting one
// piece on a free square of a 20 x 20 board. The server checks every move (a square on the
// board, not yet taken; otherwise INVALID_MOVE), a turn is one move, and boardgame.io
// appends each accepted move to the match's log. A full board (400 moves) is a draw; the
// bench plays at most 399, so every match is still running when it is checked.
//
// The move runs on the server only (`client: false`): a player sees the new state when the
// server sends it, as a player of ours sees the new head on its socket.

const { INVALID_MOVE } = require('boardgame.io/core');

const SIDE = 20;
const SQUARES = SIDE * SIDE;

function place({ G, playerID }, square) {
  const onBoard = Number.isInteger(square) && square >= 0 && square < SQUARES;
  if (!onBoard || G.cells[square] !== null) return INVALID_MOVE;
  G.cells[square] = playerID;
  G.placed += 1;
}

const Grid = {
  name: 'grid',
  minPlayers: 2,
  maxPlayers: 2,
  setup: () => ({ cells: new Array(SQUARES).fill(null), placed: 0 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: { place: { move: place, client: false } },
  endIf: ({ G }) => (G.placed >= SQUARES ? { draw: true } : undefined),
};

module.exports = { Grid, SQUARES };
