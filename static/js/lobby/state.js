// What the lobby's parts share: the page's elements, who is looking, the rulesets and
// the tables shown.

const root = document.getElementById("lobby");
export const me = root.dataset.user || null;
export const list = document.getElementById("table-list");
export const filters = document.getElementById("filters");
export const createForm = document.getElementById("create-form");

let rulesets = JSON.parse(document.getElementById("rulesets-data").textContent).map((r) => ({
  key: r.key,
  name: r.name,
  min_players: r.min,
  max_players: r.max,
  options: [],
}));
export const tables = new Map(); // id -> summary, as the filters asked
export const myGames = new Map(); // id -> summary: our games in progress, shown first
export const myTurns = new Map(); // id -> whether it is our turn there (the lobby socket's word)

export function setRulesets(value) {
  rulesets = value;
}

export const rulesetOf = (key) => rulesets.find((r) => r.key === key);
