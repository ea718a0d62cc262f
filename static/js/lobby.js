// The lobby: tables per game with filters, the create form from each ruleset's declared
// options, seat management (join, leave, bots, start), live over /ws/lobby/.

import { ApiError, del, get, post, showError, toast, wsUrl } from "./api.js";
import { clear, h } from "./dom.js";
import { timeControlText } from "./clock.js";
import { seatBadge } from "./players.js";

const root = document.getElementById("lobby");
const me = root.dataset.user || null;
const list = document.getElementById("table-list");
const empty = document.getElementById("table-empty");
const filters = document.getElementById("filters");
const live = document.getElementById("lobby-live");
const createForm = document.getElementById("create-form");

let rulesets = JSON.parse(document.getElementById("rulesets-data").textContent).map((r) => ({
  key: r.key,
  name: r.name,
  min_players: r.min,
  max_players: r.max,
  options: [],
}));
const tables = new Map(); // id -> summary
const busy = new Set(); // table ids with a request in flight
const botLevels = new Map(); // table id -> the bot level picked on its card
const STATUS_WORDS = { open: "open", active: "in progress", finished: "finished", aborted: "aborted" };

const rulesetOf = (key) => rulesets.find((r) => r.key === key);

// ---- filters ---------------------------------------------------------------------------
const FILTER_KEY = "kingdom.lobbyFilters";

function readFilters() {
  const data = new FormData(filters);
  return {
    ruleset: data.get("ruleset") || "",
    status: data.get("status") || "",
    mine: data.get("mine") === "on",
  };
}

function restoreFilters() {
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

function matches(table, f) {
  if (f.ruleset && table.ruleset !== f.ruleset) return false;
  if (f.status && table.status !== f.status) return false;
  if (f.mine && !table.seats.some((seat) => seat.user === me)) return false;
  return true;
}

async function loadTables() {
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
  try {
    const rows = await get(`/api/tables/?${query}`);
    tables.clear();
    for (const row of rows) tables.set(row.id, row);
    renderTables();
  } catch (err) {
    showError(err);
  }
}

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
      ["easy", "medium", "hard"].map((l) => h("option", { value: l, selected: l === picked }, l)),
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
      h("span", { class: ["status", `status-${table.status}`] }, STATUS_WORDS[table.status] || table.status),
    ),
    h(
      "p",
      { class: "muted small-text" },
      [`Host ${table.host || "—"}`, `${table.seats.length}/${table.seats_wanted} seats`, optionSummary(table), timeControlText(table.time_control), hardBotsText(table)].filter(Boolean).join(" · "),
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

function renderTables() {
  const f = readFilters();
  const rows = [...tables.values()].filter((t) => matches(t, f)).sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  const focusedId = document.activeElement?.closest?.(".table-card")?.dataset.tableId;
  clear(list);
  for (const table of rows) list.append(tableCard(table));
  empty.hidden = rows.length > 0;
  if (focusedId) list.querySelector(`[data-table-id="${focusedId}"] button, [data-table-id="${focusedId}"] a`)?.focus();
}

// ---- create form -----------------------------------------------------------------------
function optionField(option) {
  const id = `opt-${option.name}`;
  const label = option.name.replaceAll("_", " ");
  const help = h("small", { class: "help", id: `${id}-help` }, option.description);
  if (option.choices && option.choices.length) {
    const select = h(
      "select",
      { id, name: option.name, "aria-describedby": `${id}-help`, dataset: { kind: "choice" } },
      option.choices.map((choice, i) =>
        h("option", { value: String(i), selected: JSON.stringify(choice) === JSON.stringify(option.default) }, String(choice)),
      ),
    );
    select._choices = option.choices;
    return h("div", { class: "field" }, h("label", { for: id }, label), select, help);
  }
  if (option.type === "bool") {
    return h(
      "div",
      { class: "field check" },
      h("input", { id, name: option.name, type: "checkbox", checked: !!option.default, "aria-describedby": `${id}-help`, dataset: { kind: "bool" } }),
      h("label", { for: id }, label),
      help,
    );
  }
  if (option.type === "int" || option.type === "float") {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { id, name: option.name, type: "number", value: option.default, step: option.type === "int" ? 1 : "any", "aria-describedby": `${id}-help`, dataset: { kind: option.type } }),
      help,
    );
  }
  if (option.type === "str") {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, label),
      h("input", { id, name: option.name, type: "text", value: option.default ?? "", "aria-describedby": `${id}-help`, dataset: { kind: "str" } }),
      help,
    );
  }
  // list, dict, null default or anything else: JSON typed by hand (empty = the default).
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, `${label} (JSON)`),
    h("input", {
      id,
      name: option.name,
      type: "text",
      class: "mono",
      placeholder: option.default === null ? "default" : JSON.stringify(option.default),
      value: option.default === null ? "" : JSON.stringify(option.default),
      "aria-describedby": `${id}-help`,
      dataset: { kind: "json" },
    }),
    help,
  );
}

function renderOptions() {
  const box = document.getElementById("create-options");
  const rules = rulesetOf(createForm.ruleset.value);
  clear(box).append(h("legend", {}, "Options"));
  if (!rules) return;
  if (!rules.options.length) box.append(h("p", { class: "muted" }, "This game has no table options."));
  for (const option of rules.options) box.append(optionField(option));
  const seats = createForm.seats;
  seats.min = 1;
  seats.max = 8;
  const value = Number(seats.value);
  if (!(value >= rules.min_players && value <= rules.max_players)) seats.value = rules.min_players;
}

function readOptions(rules) {
  const options = {};
  for (const option of rules.options) {
    const el = createForm.querySelector(`[name="${CSS.escape(option.name)}"]`);
    if (!el) continue;
    const kind = el.dataset.kind;
    if (kind === "choice") options[option.name] = el._choices[Number(el.value)];
    else if (kind === "bool") options[option.name] = el.checked;
    else if (kind === "int") options[option.name] = parseInt(el.value, 10);
    else if (kind === "float") options[option.name] = parseFloat(el.value);
    else if (kind === "str") options[option.name] = el.value;
    else {
      const text = el.value.trim();
      if (!text) continue; // the declared default
      try {
        options[option.name] = JSON.parse(text);
      } catch {
        throw new Error(`Option ${option.name.replaceAll("_", " ")} must be valid JSON, for example ["a", "b"].`);
      }
    }
  }
  return options;
}

// ---- time control (a service setting, offered when the server declares its limits) -----
let timeControls = null;
const TIME_WORDS = { none: "No clocks (friendly)", realtime: "Real time: a bank of minutes plus an increment", turn: "Turn based: hours per move" };
const FIELD_WORDS = { minutes: "Minutes each", increment_seconds: "Seconds added per move", hours: "Hours per move" };

function hardBotsText(table) {
  return table.seats.some((seat) => seat.bot === "hard") ? `hard bots think ${table.bot_think_seconds} s` : "";
}

function renderTimeControl() {
  const box = document.getElementById("create-time");
  if (!box || !timeControls) return;
  const kinds = timeControls.kinds || [];
  const select = h(
    "select",
    { id: "time-kind", name: "time_kind" },
    kinds.map((k) => h("option", { value: k.kind }, TIME_WORDS[k.kind] || k.kind)),
  );
  const fields = h("div", { class: "time-fields" });
  const showFields = () => {
    const kind = kinds.find((k) => k.kind === select.value);
    clear(fields);
    for (const [name, limits] of Object.entries(kind?.fields || {})) {
      fields.append(
        h(
          "div",
          { class: "field" },
          h("label", { for: `time-${name}` }, FIELD_WORDS[name] || name.replaceAll("_", " ")),
          h("input", { id: `time-${name}`, name: `time_${name}`, type: "number", inputmode: "numeric", min: limits.min, max: limits.max, step: 1, value: limits.default, dataset: { timeField: name } }),
        ),
      );
    }
  };
  select.addEventListener("change", showFields);
  clear(box).append(h("legend", {}, "Time control"), h("div", { class: "field" }, h("label", { for: "time-kind" }, "Clocks"), select), fields);
  showFields();
  box.hidden = false;
}

function readTimeControl() {
  const select = document.getElementById("time-kind");
  if (!select || select.value === "none") return null;
  const control = { kind: select.value };
  for (const input of document.querySelectorAll("[data-time-field]")) control[input.dataset.timeField] = parseInt(input.value, 10);
  return control;
}

async function createTable(ev) {
  ev.preventDefault();
  const rules = rulesetOf(createForm.ruleset.value);
  const submit = document.getElementById("create-submit");
  let options;
  try {
    options = readOptions(rules);
  } catch (err) {
    showError(err);
    return;
  }
  const seats = parseInt(createForm.seats.value, 10);
  const bots = Math.max(0, parseInt(createForm.bots.value, 10) || 0);
  submit.disabled = true;
  try {
    const body = { ruleset: rules.key, seats, options, join: createForm.join.checked };
    const timeControl = readTimeControl();
    if (timeControl) body.time_control = timeControl;
    const think = parseFloat(createForm.bot_think_seconds?.value);
    if (Number.isFinite(think)) body.bot_think_seconds = think;
    let table = await post("/api/tables/", body);
    tables.set(table.id, table);
    for (let i = 0; i < bots; i++) {
      table = await post(`/api/tables/${table.id}/bots/`, { level: createForm.bot_level.value });
      tables.set(table.id, table);
    }
    // Show the new table even when the filters hid it.
    if (filters.status.value && filters.status.value !== "open") filters.status.value = "open";
    if (filters.ruleset.value && filters.ruleset.value !== table.ruleset) filters.ruleset.value = table.ruleset;
    renderTables();
    toast(`Table created: ${table.ruleset_name}.`, "info");
    list.querySelector(`[data-table-id="${table.id}"]`)?.scrollIntoView({ block: "nearest" });
  } catch (err) {
    showError(err instanceof ApiError ? err : err);
  } finally {
    submit.disabled = false;
  }
}

// ---- live updates ----------------------------------------------------------------------
let socket = null;
let backoff = 500;

function setLive(state, text) {
  live.dataset.state = state;
  live.textContent = text;
}

function connect() {
  setLive("connecting", "connecting…");
  socket = new WebSocket(wsUrl("/ws/lobby/"));
  socket.addEventListener("open", () => {
    backoff = 500;
    setLive("live", "live");
    loadTables(); // catch up on what changed while the socket was down
  });
  socket.addEventListener("message", (ev) => {
    let message;
    try {
      message = JSON.parse(ev.data);
    } catch {
      return;
    }
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

// ---- start -------------------------------------------------------------------------------
async function init() {
  restoreFilters();
  filters.addEventListener("change", loadTables);
  filters.addEventListener("submit", (ev) => ev.preventDefault());
  try {
    rulesets = await get("/api/rulesets/");
  } catch (err) {
    showError(err);
  }
  if (createForm) {
    try {
      timeControls = await get("/api/time-controls/");
      renderTimeControl();
    } catch {
      timeControls = null; // a server without clocks: no time control field
    }
    createForm.ruleset.addEventListener("change", renderOptions);
    createForm.addEventListener("submit", createTable);
    renderOptions();
  }
  await loadTables();
  connect();
}

init();
