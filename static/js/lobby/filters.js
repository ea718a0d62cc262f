// The filters above the table list, remembered for the session (the address wins).

import { filters, me } from "./state.js";

export const FILTER_KEY = "kingdom.lobbyFilters";

export function readFilters() {
  const data = new FormData(filters);
  return {
    ruleset: data.get("ruleset") || "",
    status: data.get("status") || "",
    mine: data.get("mine") === "on",
  };
}

export function restoreFilters() {
  const params = new URLSearchParams(window.location.search);
  let saved = {};
  try {
    saved = JSON.parse(sessionStorage.getItem(FILTER_KEY) || "{}");
  } catch {
    saved = {};
  }
  const pick = (name) => (params.has(name) ? params.get(name) : saved[name]);
  if (pick("ruleset") !== undefined) filters.ruleset.value = pick("ruleset");
  if (pick("status") !== undefined) filters.status.value = pick("status");
  if (filters.mine && pick("mine") !== undefined) filters.mine.checked = pick("mine") === true || pick("mine") === "1";
}

export function matches(table, f) {
  if (f.ruleset && table.ruleset !== f.ruleset) return false;
  if (f.status && table.status !== f.status) return false;
  if (f.mine && !table.seats.some((seat) => seat.user === me)) return false;
  return true;
}
