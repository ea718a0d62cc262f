// Quick match: "Find me a game" puts the player in the queue of that game and seat count;
// the next people who ask sit down together, or the service's bots fill the empty seats
// after the wait chosen. The lobby socket says "matched" (and the waiting page asks every
// few seconds too, which also settles a wait that is over); the player is taken to the
// table. Closing the lobby (its socket) stops looking; a page whose socket reopens asks
// again. The counts under each game (playing, looking) come with every change.

import { del, get, post, showError } from "../api.js";

const POLL_MS = 3000;
const COUNTS_MS = 30000;
let polling = null;
let asked = 0; // a look answered after a newer request or cancel is stale: dropped
let looking = null; // the request this page waits with: asked again if the socket reopens
let leaving = false; // the socket's news and a poll can both say "matched": go once

function forms() {
  return [...document.querySelectorAll("form.quick-match")];
}

function statusOf(form) {
  return form.parentElement.querySelector(".match-status");
}

function goTo(table) {
  // A second assignment to location.href would abort the first navigation.
  if (leaving) return;
  leaving = true;
  window.location.href = `/tables/${table}/`;
}

/** Show the player's request as the server holds it. */
function show(state) {
  for (const form of forms()) {
    const status = statusOf(form);
    const mine = state.status === "waiting" && state.ruleset === form.dataset.ruleset;
    form.hidden = state.status === "waiting";
    status.hidden = !mine;
    if (!mine) continue;
    looking = { ruleset: state.ruleset, seats: state.seats, bots_after: state.bots_after };
    const wait = state.bots_after === null ? "no bots" : `bots after ${state.bots_after} s`;
    status.replaceChildren(
      `Looking for a ${state.seats}-player game (${state.waiting} waiting, ${wait})… `,
      Object.assign(document.createElement("button"), { type: "button", className: "small cancel-match", textContent: "Cancel", onclick: cancel }),
    );
  }
  if (state.status === "matched") goTo(state.table);
  if (state.status === "waiting" && polling === null) polling = setInterval(poll, POLL_MS);
  // (An "idle" read between a dropped socket and its reopening keeps the request to ask.)
  if (state.status === "matched") looking = null;
  if (state.status !== "waiting" && polling !== null) {
    clearInterval(polling);
    polling = null;
  }
}

async function poll() {
  const at = asked;
  try {
    const state = await get("/api/quick-match/");
    if (at === asked) show(state);
  } catch (err) {
    showError(err);
  }
}

async function cancel() {
  asked += 1;
  looking = null;
  try {
    await del("/api/quick-match/");
    show({ status: "idle" });
  } catch (err) {
    showError(err);
  }
}

async function find(form) {
  const seats = Number(form.elements.seats.value);
  const wait = form.elements.bots_after.value;
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  asked += 1;
  try {
    show(await post("/api/quick-match/", { ruleset: form.dataset.ruleset, seats, bots_after: wait === "" ? null : Number(wait) }));
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
}

/** The lobby socket reopened: the server dropped this page's request when the old one
 * closed (a page that leaves the lobby stops looking), so the page asks again. */
export async function lobbyReopened() {
  if (looking === null) return;
  const at = ++asked;
  try {
    const state = await post("/api/quick-match/", looking);
    if (at === asked) show(state);
  } catch (err) {
    showError(err);
  }
}

/** The lobby socket's news: a table found, or new counts. */
export function takeMatched(table) {
  goTo(table);
}

export function takeCounts(counts) {
  const present = document.getElementById("lobby-present");
  if (present) present.textContent = counts.in_lobby ? `· ${counts.in_lobby} in the lobby` : "";
  for (const [ruleset, n] of Object.entries(counts.games || {})) {
    const line = document.querySelector(`[data-counts="${ruleset}"]`);
    if (line) line.textContent = `${n.playing} playing · ${n.looking} looking for a game`;
  }
}

async function loadCounts() {
  try {
    takeCounts(await get("/api/lobby/counts/"));
  } catch {
    // The counts are a nicety: the next round tries again.
  }
}

export function wireQuickMatch() {
  loadCounts();
  setInterval(loadCounts, COUNTS_MS);
  const all = forms();
  if (!all.length) return;
  for (const form of all) {
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      find(form);
    });
  }
  poll(); // a request made before this page (another tab, a reload) is shown
}
