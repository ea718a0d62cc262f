// The table list: one card per table with its seats, options and actions (join, leave,
// bots, start), filtered as the filters say.

import { del, get, post, showError } from "../api.js";
import { BOT_LEVELS, THINKING_LEVELS } from "../bot_levels.js";
import { timeControlText } from "../clock.js";
import { clear, h } from "../dom.js";
import { seatBadge } from "../players.js";
import { showTurnCount } from "../nav_turns.js";
import { FILTER_KEY, matches, readFilters } from "./filters.js";
import { list, me, myGames, myTurns, rulesetOf, tables } from "./state.js";

const empty = document.getElementById("table-empty");
const myList = document.getElementById("my-game-list");
const more = document.getElementById("table-more");
const busy = new Set(); // table ids with a request in flight
const starting = new Set(); // tables we are starting ourselves: the Start button goes there

/** This page starts the table itself and goes there: the lobby's news of its start must
 * not open it a second time (two navigations, the first one aborted). */
export function startingHere(tableId) {
  starting.add(tableId);
}
const botLevels = new Map(); // table id -> the bot level picked on its card
const STATUS_WORDS = { open: "open", active: "in progress", finished: "finished", aborted: "aborted" };
let nextPage = null; // the address of the next (older) page of tables, if any
let loads = 0; // a page asked for under filters since changed is dropped

export async function loadTables() {
  const f = readFilters();
  try {
    sessionStorage.setItem(FILTER_KEY, JSON.stringify(f));
  } catch {
    /* ignore */
  }
  const query = new URLSearchParams();
  if (f.ruleset) query.set("ruleset", f.ruleset);
  if (f.status) query.set("status", f.status);
  if (f.mine) query.set("mine", "1");
  const load = ++loads;
  // The next page of the filters being left is not the next of these: no "More" until
  // this page has come.
  nextPage = null;
  if (more) more.hidden = true;
  loadMyGames();
  try {
    const page = await get(`/api/tables/?${query}`);
    if (load !== loads) return;
    tables.clear();
    showPage(page);
  } catch (err) {
    showError(err);
  }
}

/** Our games in progress, whatever the filters say (a returning player finds them first). */
async function loadMyGames() {
  if (!me || !myList) return;
  try {
    const page = await get("/api/tables/?mine=1&status=active");
    myGames.clear();
    for (const row of page.results) myGames.set(row.id, row);
    renderTables();
  } catch (err) {
    showError(err);
  }
}

/** A table's news from the lobby stream: kept where it belongs; a game we sit at that
 * someone else just started opens for us. */
export function takeTableNews(table) {
  const before = tables.get(table.id) || myGames.get(table.id);
  tables.set(table.id, table);
  const seated = me && table.seats.some((seat) => seat.user === me && !seat.bot && !seat.resigned);
  if (seated && table.status === "active") myGames.set(table.id, table);
  else myGames.delete(table.id);
  renderTables();
  if (seated && before?.status === "open" && table.status === "active" && !starting.has(table.id)) {
    window.location.href = `/tables/${table.id}/`;
  }
}

// The next page's address is absolute; asked for by its path, it stays on this origin.
async function loadMore() {
  if (!nextPage) return;
  const url = new URL(nextPage, window.location.href);
  const load = loads;
  more.disabled = true;
  try {
    const page = await get(url.pathname + url.search);
    if (load === loads) showPage(page);
  } catch (err) {
    showError(err);
  } finally {
    more.disabled = false;
  }
}

function showPage(page) {
  for (const row of page.results) tables.set(row.id, row);
  nextPage = page.next;
  if (more) more.hidden = !nextPage;
  renderTables();
}

more?.addEventListener("click", loadMore);

// ---- table cards -----------------------------------------------------------------------
function optionSummary(table) {
  const rules = rulesetOf(table.ruleset);
  const declared = new Map((rules?.options || []).map((o) => [o.name, o]));
  const parts = [];
  for (const [name, value] of Object.entries(table.options || {})) {
    const option = declared.get(name);
    if (option && JSON.stringify(option.default) === JSON.stringify(value)) continue;
    if (value === null || value === false) continue;
    parts.push(value === true ? name.replaceAll("_", " ") : `${name.replaceAll("_", " ")}: ${Array.isArray(value) ? value.join(", ") : value}`);
  }
  return parts.length ? parts.join(" · ") : "standard rules";
}

async function act(table, label, fn) {
  if (busy.has(table.id)) return;
  busy.add(table.id);
  renderTables();
  try {
    const result = await fn();
    if (result && result.id) tables.set(result.id, result);
    return result;
  } catch (err) {
    showError(err);
    return null;
  } finally {
    busy.delete(table.id);
    renderTables();
  }
}

function seatLine(table, seat, isHost) {
  const canRemove = isHost && table.status === "open" && seat.bot && !seat.user;
  return h(
    "li",
    { class: "seat-line" },
    seat.seat !== null && seat.seat !== undefined ? seatBadge(seat.seat) : null,
    h("span", { class: "seat-name" }, seat.name),
    seat.resigned ? h("span", { class: "tag" }, "resigned") : null,
    canRemove
      ? h(
          "button",
          {
            type: "button",
            class: "small",
            "aria-label": `Remove ${seat.name}`,
            onclick: () => act(table, "remove", () => del(`/api/tables/${table.id}/bots/${seat.id}/`)),
          },
          "Remove",
        )
      : null,
  );
}

function tableCard(table) {
  const rules = rulesetOf(table.ruleset);
  const seated = me && table.seats.some((seat) => seat.user === me && !seat.bot);
  const isHost = me && table.host === me;
  const isOpen = table.status === "open";
  const room = table.seats.length < table.seats_wanted;
  // Options may lower the minimum (e.g. a two-player variant): the server has the last word.
  const enough = table.seats.length >= Math.min(2, rules ? rules.min_players : 2);
  const pending = busy.has(table.id);
  const actions = [];
  if (isOpen && me && !seated && room) {
    actions.push(h("button", { type: "button", class: "primary", disabled: pending, onclick: () => act(table, "join", () => post(`/api/tables/${table.id}/join/`)) }, "Join"));
  }
  if (isOpen && seated) {
    actions.push(h("button", { type: "button", disabled: pending, onclick: () => act(table, "leave", () => post(`/api/tables/${table.id}/leave/`)) }, "Leave"));
  }
  if (isOpen && isHost && room) {
    const picked = botLevels.get(table.id) || "medium";
    const level = h(
      "select",
      { "aria-label": "Bot level", class: "bot-level", onchange: (ev) => botLevels.set(table.id, ev.target.value) },
      BOT_LEVELS.map((l) => h("option", { value: l, selected: l === picked }, l)),
    );
    actions.push(
      h(
        "span",
        { class: "add-bot" },
        level,
        h(
          "button",
          {
            type: "button",
            disabled: pending,
            onclick: () => act(table, "bot", () => post(`/api/tables/${table.id}/bots/`, { level: level.value })),
          },
          "Add bot",
        ),
      ),
    );
  }
  if (isOpen && isHost) {
    actions.push(
      h(
        "button",
        {
          type: "button",
          class: "primary",
          disabled: pending || !enough,
          title: enough ? "Start the game with the players seated now" : "Needs more players",
          onclick: async () => {
            starting.add(table.id);
            const started = await act(table, "start", () => post(`/api/tables/${table.id}/start/`));
            if (started) window.location.href = `/tables/${table.id}/`;
          },
        },
        "Start",
      ),
    );
  }
  const verb = table.status === "open" ? "Open" : table.status === "active" ? (seated ? "Play" : "Watch") : "Replay";
  actions.push(h("a", { class: "button-link", href: `/tables/${table.id}/` }, verb));

  return h(
    "li",
    { class: ["table-card", `status-${table.status}`], dataset: { tableId: table.id, ruleset: table.ruleset } },
    h(
      "div",
      { class: "table-card-head" },
      h("h3", {}, h("a", { href: `/tables/${table.id}/` }, table.ruleset_name || rules?.name || table.ruleset)),
      seated && table.status === "active" && myTurns.get(table.id) ? h("span", { class: "tag tag-turn", dataset: { testid: "your-turn" } }, "your turn") : null,
      h("span", { class: ["status", `status-${table.status}`] }, STATUS_WORDS[table.status] || table.status),
    ),
    h(
      "p",
      { class: "muted small-text" },
      [`Host ${table.host || "—"}`, `${table.seats.length}/${table.seats_wanted} seats`, optionSummary(table), timeControlText(table.time_control), thinkingBotsText(table)].filter(Boolean).join(" · "),
    ),
    h("ul", { class: "seat-list" }, table.seats.map((seat) => seatLine(table, seat, isHost))),
    table.outcome && table.status === "finished" ? h("p", { class: "small-text" }, winnersLine(table)) : null,
    h("div", { class: "actions" }, actions),
  );
}

function winnersLine(table) {
  const names = new Map(table.seats.map((seat) => [seat.seat, seat.name]));
  const winners = (table.outcome.winners || []).map((w) => names.get(w) || `seat ${w}`);
  return `Won by ${winners.join(", ")}`;
}

export function renderTables() {
  const f = readFilters();
  const newest = (a, b) => (a.created_at < b.created_at ? 1 : -1);
  // A game in progress of ours is shown once, at the top.
  const rows = [...tables.values()].filter((t) => matches(t, f) && !myGames.has(t.id)).sort(newest);
  const focusedId = document.activeElement?.closest?.(".table-card")?.dataset.tableId;
  if (myList) {
    clear(myList);
    // Where it is our turn first, then the newest.
    const turnFirst = (a, b) => Number(Boolean(myTurns.get(b.id))) - Number(Boolean(myTurns.get(a.id))) || newest(a, b);
    for (const table of [...myGames.values()].sort(turnFirst)) myList.append(tableCard(table));
    myList.parentElement.hidden = myGames.size === 0;
  }
  showWaiting();
  clear(list);
  for (const table of rows) list.append(tableCard(table));
  empty.hidden = rows.length > 0;
  empty.textContent = myGames.size ? "No other tables here." : "No tables here yet.";
  if (focusedId) list.parentElement.querySelector(`[data-table-id="${focusedId}"] button, [data-table-id="${focusedId}"] a`)?.focus();
}

/** The number of our games waiting for our move, beside the navigation's lobby link. */
function showWaiting() {
  showTurnCount([...myTurns.entries()].filter(([id, yours]) => yours && myGames.has(id)).length);
}

/** The thinking time, where a seat's bot searches for it (hard, expert). */
function thinkingBotsText(table) {
  return table.seats.some((seat) => THINKING_LEVELS.includes(seat.bot)) ? `search bots think ${table.bot_think_seconds} s` : "";
}
