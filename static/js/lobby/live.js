// Live updates over /ws/lobby/, reconnecting with backoff.

import { socketMessage, wsUrl } from "../api.js";
import { ReconnectingSocket } from "../socket.js";
import { loadTables, renderTables, takeTableNews } from "./list.js";
import { lobbyReopened, takeCounts, takeMatched } from "./match.js";
import { myTurns } from "./state.js";

const live = document.getElementById("lobby-live");
let opened = 0;

function setLive(state, text) {
  live.dataset.state = state;
  live.textContent = text;
}

export function connect() {
  return new ReconnectingSocket(() => wsUrl("/ws/lobby/"), {
    first: 500,
    max: 10000,
    onConnecting: () => setLive("connecting", "connecting…"),
    onOpen: () => {
      setLive("live", "live");
      loadTables(); // catch up on what changed while the socket was down
      if (opened++) lobbyReopened(); // the server dropped a quick match with the old socket
    },
    onMessage: (ev) => {
      const message = socketMessage(ev);
      if (message === undefined) return;
      if (message.type === "table" && message.table) {
        takeTableNews(message.table);
      } else if (message.type === "turns") {
        myTurns.clear();
        for (const [id, yours] of Object.entries(message.turns || {})) myTurns.set(id, yours);
        renderTables();
      } else if (message.type === "turn") {
        myTurns.set(message.game, Boolean(message.yours));
        renderTables();
      } else if (message.type === "matched") {
        takeMatched(message.table);
      } else if (message.type === "counts") {
        takeCounts(message.counts);
      }
    },
    onClose: () => setLive("down", "reconnecting…"),
  }).open();
}
