// Kingdom Builder: terrain, names and the short texts of every tile, card and task (base
// game, Nomads, Crossroads), with the small helpers the other modules share.

export const TERRAIN = {
  G: { key: "grass", name: "Grass", fill: "#a6d36b" },
  C: { key: "canyon", name: "Canyon", fill: "#b7794a" },
  D: { key: "desert", name: "Desert", fill: "#f0dc8c" },
  F: { key: "flower_field", name: "Flower field", fill: "#e3a9d8" },
  T: { key: "forest", name: "Forest", fill: "#2f7d3f" },
  W: { key: "water", name: "Water", fill: "#5fa8dc" },
  M: { key: "mountain", name: "Mountain", fill: "#8b8680" },
  S: { key: "castle", name: "Castle", fill: "#d8d2c4" },
  L: { key: "location", name: "Location", fill: "#f7f3e8" },
  N: { key: "nomad_space", name: "Nomad space", fill: "#efe6d2" },
  ".": { key: "plain", name: "Plain", fill: "#eeeeee" },
};
export const TERRAIN_BY_KEY = Object.fromEntries(Object.values(TERRAIN).map((t) => [t.key, t]));
export const TERRAIN_INITIAL = { grass: "G", canyon: "C", desert: "D", flower_field: "F", forest: "T" };

export const TILE_TEXT = {
  oracle: "build on the terrain of your card",
  farm: "build on grass",
  oasis: "build on desert",
  tower: "build on the edge of the board",
  tavern: "build at either end of a line of 3 of yours",
  barn: "move a settlement onto the terrain of your card",
  harbor: "move a settlement onto water",
  paddock: "move a settlement 2 hexes in a straight line",
  // Nomads
  quarry: "place 1 or 2 stone walls on your card's terrain, each next to your settlements",
  caravan: "move a settlement in a straight line until something stops it",
  village: "build next to 3 or more of your settlements",
  garden: "build on flower field",
  // Crossroads
  foresters_lodge: "build on forest",
  monastery: "build on canyon",
  outpost: "build on any buildable terrain",
  crossroads: "draw a second terrain card at the end of your turn; next turn choose which to play",
  city_hall: "once: place your city hall over 7 empty hexes next to your settlements",
  barracks: "place a warrior (nobody builds next to it) or take one back",
  wagon: "place your wagon, move it up to 3 hexes, or take it back",
  lighthouse: "place your ship on water, move it up to 3 water hexes, or take it back",
};
export const NOMAD_TEXT = {
  resettlement: "move your settlements up to 4 single steps in total",
  nomad_outpost: "your next build this turn ignores the adjacency rule",
  sword: "every opponent loses one settlement of your choosing",
  treasure: "3 gold at once",
};
export const CARD_TEXT = {
  fishermen: "1 gold per settlement next to water",
  miners: "1 gold per settlement next to a mountain",
  workers: "1 gold per settlement next to a castle or location",
  merchants: "4 gold per location/castle linked to another by your settlements",
  discoverers: "1 gold per horizontal line with a settlement of yours",
  knights: "2 gold per settlement in your fullest horizontal line",
  hermits: "1 gold per separate settlement area",
  citizens: "1 gold per 2 settlements in your largest area",
  farmers: "3 gold per settlement in your emptiest sector",
  lords: "12 / 6 gold for the most / second most settlements in each sector",
  // Nomads: paid during play, for settlements built (never moved)
  families: "2 gold each turn your 3 mandatory settlements stand in a straight line",
  ambassadors: "1 gold per settlement built next to another player's settlement",
  shepherds: "2 gold per settlement built with no empty hex of its terrain next to it",
};
export const TASK_TEXT = {
  home_country: "a whole terrain area filled only by your settlements",
  fortress: "a settlement of yours ringed by 6 of yours",
  place_of_refuge: "a location, castle or nomad space ringed by your settlements",
  advance: "7 or more of your settlements on one edge of the board",
  road: "7 or more of your settlements in one diagonal line (not horizontal)",
  compass_points: "a settlement on each of the 4 edges (a corner counts for both)",
};
const NAMES = {
  foresters_lodge: "Forester's Lodge",
  city_hall: "City Hall",
  nomad_outpost: "Outpost",
  home_country: "Home Country",
  place_of_refuge: "Place of Refuge",
  compass_points: "Compass Points",
};
// Three letters on a location hex whose tile has no picture (icons.js).
const SHORT = { barracks: "Brk", city_hall: "CHa", crossroads: "Xrd", foresters_lodge: "Lod", lighthouse: "Lgh" };
export const PIECES = { barracks: "warrior", wagon: "wagon", lighthouse: "ship" };

export const cap = (word) => (word ? word[0].toUpperCase() + word.slice(1) : "");
export const terrainName = (key) => TERRAIN_BY_KEY[key]?.name || (key ? key.replaceAll("_", " ") : "—");
export const hexKey = (hex) => `${hex[0]},${hex[1]}`;
export const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
// The board's labels: columns A–T, rows 1–20; the move log speaks the same ("F8").
export const colLabel = (col) => String.fromCharCode(65 + col);
export const where = (hex) => `${colLabel(hex[1])}${hex[0] + 1}`;

/** The printed name of a location tile, nomad tile, card or task. */
export function nameOf(key) {
  if (!key) return "";
  if (key.startsWith("donation_")) return `Donation (${terrainName(key.slice(9))})`;
  return NAMES[key] || cap(key.replaceAll("_", " "));
}

export function shortOf(key) {
  return SHORT[key] || cap(key).slice(0, 3);
}

/** What a location or nomad tile does, in a few words. */
export function textOf(key) {
  if (key?.startsWith("donation_")) return `build 3 settlements on ${terrainName(key.slice(9)).toLowerCase()}, adjacent if possible`;
  return TILE_TEXT[key] || NOMAD_TEXT[key] || "";
}
