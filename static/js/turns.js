// Every page of a signed-in player but the lobby (whose own socket brings the same news):
// the navigation's "your turn" count, live. /ws/turns/ says on opening in which games in
// progress it is the player's turn, then each change. It is no visit to the lobby: the
// player is not counted there and a quick match is left alone.

import { socketMessage, wsUrl } from "./api.js";
import { showTurnCount } from "./nav_turns.js";
import { ReconnectingSocket } from "./socket.js";

const yours = new Set(); // the games waiting for the player's move

function show() {
  showTurnCount(yours.size);
}

new ReconnectingSocket(() => wsUrl("/ws/turns/"), {
  first: 1000,
  max: 30000,
  onMessage: (ev) => {
    const message = socketMessage(ev);
    if (message?.type === "turns") {
      yours.clear();
      for (const [id, mine] of Object.entries(message.turns || {})) if (mine) yours.add(id);
      show();
    } else if (message?.type === "turn") {
      if (message.yours) yours.add(message.game);
      else yours.delete(message.game);
      show();
    }
  },
}).open();
