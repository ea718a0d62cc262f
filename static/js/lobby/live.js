// Live updates over /ws/lobby/, reconnecting with backoff.

import { socketMessage, wsUrl } from "../api.js";
import { loadTables, renderTables } from "./list.js";
import { tables } from "./state.js";

const live = document.getElementById("lobby-live");
let socket = null;
let backoff = 500;

function setLive(state, text) {
  live.dataset.state = state;
  live.textContent = text;
}

export function connect() {
  setLive("connecting", "connecting…");
  socket = new WebSocket(wsUrl("/ws/lobby/"));
  socket.addEventListener("open", () => {
    backoff = 500;
    setLive("live", "live");
    loadTables(); // catch up on what changed while the socket was down
  });
  socket.addEventListener("message", (ev) => {
    const message = socketMessage(ev);
    if (message === undefined) return;
    if (message.type === "table" && message.table) {
      tables.set(message.table.id, message.table);
      renderTables();
    }
  });
  socket.addEventListener("close", () => {
    setLive("down", "reconnecting…");
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  });
}
