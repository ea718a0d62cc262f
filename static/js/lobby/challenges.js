// The lobby's challenges: the players to challenge, the challenges to you (accept,
// decline) and yours (cancel), kept live by the account's NDJSON event stream
// (GET /api/stream/event/). When a game a challenge was for starts, its players are
// taken to the table.

import { get, post, showError, toast } from "../api.js";
import { challengePlayer } from "../challenge.js";
import { h } from "../dom.js";

const panel = document.getElementById("challenges");
const list = document.getElementById("challenge-list");
const empty = document.getElementById("challenge-empty");
const form = document.getElementById("challenge-form");
const players = document.getElementById("player-list");
// Open challenges by id; the tables they are for (a gameStart for one: go there).
const open = new Map();
const tables = new Set();

function render() {
  list.replaceChildren(...[...open.values()].map(item));
  empty.hidden = open.size > 0;
}

function name(player) {
  return [player.name, player.bot ? h("span", { class: "bot-badge" }, "BOT") : null];
}

function item(challenge) {
  const incoming = challenge.direction === "in";
  const act = (what) => async () => {
    try {
      await post(`/api/challenge/${challenge.id}/${what}/`);
      open.delete(challenge.id);
      render();
    } catch (err) {
      showError(err);
    }
  };
  return h(
    "li",
    { class: "challenge", dataset: { challenge: challenge.id, direction: challenge.direction } },
    incoming ? ["From ", ...name(challenge.challenger)] : ["To ", ...name(challenge.dest_user)],
    ` · ${challenge.ruleset} · ${challenge.seats} seats `,
    incoming
      ? [
          h("button", { type: "button", class: "primary", onclick: act("accept") }, "Accept"),
          h("button", { type: "button", onclick: act("decline") }, "Decline"),
        ]
      : h("button", { type: "button", onclick: act("cancel") }, "Cancel"),
  );
}

function remember(challenge) {
  tables.add(challenge.table);
  if (challenge.status === "created") open.set(challenge.id, challenge);
  else open.delete(challenge.id);
  render();
}

function onLine(line) {
  if (line.type === "challenge") remember(line.challenge);
  else if (line.type === "challengeCanceled" || line.type === "challengeDeclined") {
    open.delete(line.challenge.id);
    render();
    if (line.type === "challengeDeclined" && line.challenge.direction === "out") {
      toast(`${line.challenge.dest_user.name} declined your challenge.`, "status");
    }
  } else if (line.type === "gameStart" && tables.has(line.game.id)) {
    window.location.assign(line.game.url);
  }
}

/** Follow the event stream, one JSON object a line (empty lines keep it alive). */
async function follow() {
  for (;;) {
    try {
      const response = await fetch("/api/stream/event/", { credentials: "same-origin" });
      if (!response.ok) return;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n")) >= 0) {
          const text = buffer.slice(0, end);
          buffer = buffer.slice(end + 1);
          if (text) onLine(JSON.parse(text));
        }
      }
    } catch {
      // the connection dropped: open it again after a pause
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function send(username, ruleset) {
  try {
    remember({ ...(await challengePlayer(username, ruleset)), direction: "out" });
    toast(`Challenge sent to ${username}.`, "status");
  } catch (err) {
    showError(err);
  }
}

async function loadPlayers() {
  const me = document.getElementById("lobby")?.dataset.user;
  const { players: found } = await get("/api/players/");
  players.replaceChildren(
    ...found
      .filter((p) => p.username !== me)
      .map((p) =>
        h(
          "li",
          { class: "player", dataset: { player: p.username } },
          h("a", { href: `/players/${encodeURIComponent(p.username)}/` }, p.username),
          p.bot ? h("span", { class: "bot-badge" }, "BOT") : null,
          " ",
          h(
            "button",
            { type: "button", onclick: () => send(p.username, form.ruleset.value) },
            "Challenge",
          ),
        ),
      ),
  );
}

export async function wireChallenges() {
  if (!panel) return;
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const username = form.username.value.trim();
    if (username) send(username, form.ruleset.value);
  });
  const hash = new URLSearchParams(window.location.search);
  if (hash.get("ruleset")) form.ruleset.value = hash.get("ruleset");
  try {
    const mine = await get("/api/challenge/");
    [...mine.in, ...mine.out].forEach(remember);
    await loadPlayers();
  } catch (err) {
    showError(err);
  }
  follow();
}
