// The table page: the live connection (events by seq, gap recovery, reconnection), the
// seat panels, the move log, results with breakdowns, resign, and the replay slider.
// The rules are never re-implemented here: the server sends the view and legal commands,
// and each game's renderer (static/js/games/*.js) draws them.
// The parts live in static/js/table/.

import { TableClient } from "./table/client.js";

const config = JSON.parse(document.getElementById("table-config").textContent);
const client = new TableClient(config);
// Exposed for debugging in the console and for the browser tests.
window.kingdomTable = client;
client.start();
