// Kingdom Builder: the panel beside the board (terrain cards, the buttons for choices that
// are not hexes, your location and nomad tiles, your Crossroads pieces, stone walls left,
// the cards and tasks in play) and the line under each seat.

import { h } from "../../dom.js";
import { choiceLabel, movesFor } from "./commands.js";
import { locationIconSvg } from "./icons.js";
import { CARD_TEXT, PIECES, TASK_TEXT, TERRAIN, TERRAIN_BY_KEY, nameOf, textOf, terrainName, where } from "./texts.js";

function terrainChip(key, extra) {
  return h("span", { class: "terrain-card", style: { background: TERRAIN_BY_KEY[key]?.fill || "#eee", color: key === "forest" ? "#fff" : "#111" } }, terrainName(key), extra || null);
}

const button = (attrs, ...children) => h("button", { type: "button", ...attrs }, ...children);

function tileRow(me, can, sel, ctx) {
  const tileButtons = (me.tiles || []).map((t, i) => {
    const usable = can.tiles.has(t.tile);
    const pressed = sel.tile === t.tile;
    const passive = t.tile === "crossroads";
    const state = passive ? "acts at the end of your turn" : t.used ? "used this turn" : t.fresh ? "taken this turn" : usable ? "ready" : "";
    const onclick = () => {
      ctx.state.kb = pressed ? {} : { tile: t.tile };
      ctx.rerender();
    };
    return button(
      { class: ["piece-button", pressed && "selected"], "aria-pressed": String(pressed), disabled: !usable, "data-focus-key": `tile-${i}`, dataset: { tile: t.tile }, title: textOf(t.tile), onclick },
      h("strong", {}, nameOf(t.tile)),
      state ? h("small", {}, ` (${state})`) : null,
    );
  });
  return h(
    "div",
    { class: "piece-row", role: "group", "aria-label": "Your location tiles" },
    h("span", { class: "piece-row-label" }, "Your tiles"),
    tileButtons.length ? tileButtons : h("span", { class: "muted" }, "none yet: build next to a location to take one"),
  );
}

/** Nomad tiles: each usable one is a button that starts its action at once. */
function nomadRow(me, can, ctx) {
  const seen = new Set();
  const items = [];
  const offer = (key, command, state) => {
    if (seen.has(key)) return;
    seen.add(key);
    const text = textOf(key);
    items.push(
      button(
        { class: ["piece-button", command && "primary"], disabled: !command, "data-focus-key": `nomad-${key}`, dataset: { nomadTile: key }, title: text, "aria-label": `${command ? "Use " : ""}${nameOf(key)}: ${text}${state ? ` (${state})` : ""}`, onclick: () => { ctx.state.kb = {}; ctx.send(command); } },
        h("strong", {}, command ? `Use ${nameOf(key)}` : nameOf(key)),
        h("small", {}, ` — ${text}${state ? ` (${state})` : ""}`),
      ),
    );
  };
  for (const c of can.nomads) offer(c.tile, c, "");
  for (const t of me?.nomad_tiles || []) offer(t.tile, null, t.fresh ? "for your next turn" : "nothing to do now");
  if (!items.length) return null;
  return h("div", { class: "piece-row", role: "group", "aria-label": "Your nomad tiles" }, h("span", { class: "piece-row-label" }, "Nomad tiles"), items);
}

function piecesLine(p) {
  const parts = [`Warriors: ${(p.warriors || []).length} on the board, ${p.warriors_left ?? 0} in reserve`];
  parts.push(p.wagon ? `wagon on ${where(p.wagon)}` : "wagon in reserve");
  parts.push(p.ship ? `ship on ${where(p.ship)}` : "ship in reserve");
  parts.push(p.city_hall ? `city hall on ${where(p.city_hall[0])}` : "city hall not built");
  return parts.join(" · ");
}

function actionHint(action, can, sel, names) {
  const tile = nameOf(action.tile);
  if (action.kind === "donation") return `${tile}: build on a highlighted hex (${action.left} to build).`;
  if (action.kind === "sword") return `Sword: pick the settlement of ${names[action.victim] || `seat ${action.victim}`} to remove.`;
  if (action.kind === "quarry") return "Quarry: place a second stone wall on a highlighted hex, or finish.";
  if (sel.from) return `Resettlement: pick where that settlement steps (${action.left} steps left).`;
  return `Resettlement: pick a highlighted settlement to move one step (${action.left} steps left), or finish.`;
}

function hintFor(view, can, sel, names) {
  const action = view.turn?.action;
  if (action) return actionHint(action, can, sel, names);
  if (can.discards.length) return "You hold two alike tiles: click the highlighted location whose tile you give up.";
  if (sel.tile) {
    const name = nameOf(sel.tile);
    const piece = PIECES[sel.tile];
    if (sel.from) return piece ? `${name}: pick where your ${piece} goes, or click it again to take it back.` : `${name}: pick where the settlement goes.`;
    if (piece) return `${name}: pick a highlighted hex for your ${piece}, or one of yours to move or take back.`;
    if (movesFor(can, sel).length) return `${name}: pick the highlighted settlement to move.`;
    if (sel.tile === "quarry") return "Quarry: pick a highlighted hex for the first stone wall.";
    if (sel.tile === "city_hall") return "City Hall: pick the highlighted hex your city hall is centred on.";
    return `${name}: pick a highlighted hex to build on.`;
  }
  if (can.builds.length) return `Build on a highlighted ${terrainName(view.turn?.terrain).toLowerCase()} hex${can.tiles.size || can.nomads.length ? ", or use a tile" : ""}.`;
  if (can.tiles.size || can.nomads.length) return "Use a tile, or end your turn.";
  if (can.endTurn && can.undo) return "All built: end your turn, or undo your last move.";
  if (can.endTurn) return "End your turn.";
  return "";
}

/** The turn's essentials in one bar that stays in view above the board: whose terrain
 * card, settlements built, the prompt, and every action open now (tiles, choices, end). */
export function turnBar(view, can, sel, ctx) {
  const you = view.you;
  const me = you !== null && you !== undefined ? view.players[you] : null;
  const bar = h("div", { class: ["kb-turn-bar", !ctx.over && view.turn && view.turn.seat === you && "is-yours"], id: "kb-turn-bar" });
  const status = h("div", { class: "kb-turn-status" });
  // Once the game is over (its last turn, or a resignation that ended it) no turn is shown.
  if (view.finished || ctx.over) status.append(h("span", {}, "The game is over."));
  else if (view.turn) {
    const active = view.turn.seat;
    status.append(
      h("span", { class: "kb-card-label" }, you === active ? "Your card" : `${ctx.names[active] || "The player"}'s card`),
      view.turn.terrain ? terrainChip(view.turn.terrain) : h("em", {}, "not chosen yet"),
      h("span", { class: "kb-built", id: "kb-built" }, `${view.turn.placed} of 3 built`),
    );
    if (view.turn.outpost_armed) status.append(h("span", {}, "Outpost armed: your next build ignores the adjacency rule"));
  }
  const hint = hintFor(view, can, sel, ctx.names);
  if (hint) status.append(h("span", { class: "hint", id: "kb-hint" }, hint));
  bar.append(status);

  if (can.choices.length) {
    const label = view.hand?.length > 1 ? "Choose the terrain card for this turn" : "Terrain for this turn";
    bar.append(h("div", { class: "actions", role: "group", "aria-label": label }, can.choices.map((c, i) => button({ class: "primary", "data-focus-key": `choice-${i}`, onclick: () => ctx.send(c) }, choiceLabel(c)))));
  }
  if (me?.tiles?.length) bar.append(tileRow(me, can, sel, ctx));
  const nomads = nomadRow(me, can, ctx);
  if (nomads) bar.append(nomads);
  const extra = turnActions(view, can, sel, ctx);
  if (extra.length) bar.append(h("div", { class: "actions kb-turn-actions" }, extra));
  return bar;
}

function turnActions(view, can, sel, ctx) {
  const extra = [];
  const action = view.turn?.action;
  if (can.finish) {
    const what = action?.kind === "quarry" ? "Finish: no second wall" : `Finish ${nameOf(action?.tile) || "the action"}`;
    extra.push(button({ id: "finish-action", class: "primary", "data-focus-key": "finish-action", onclick: () => { ctx.state.kb = {}; ctx.send(can.finish); } }, what));
  }
  for (const [i, c] of can.other.entries()) extra.push(button({ "data-focus-key": `other-${i}`, onclick: () => ctx.send(c) }, choiceLabel(c)));
  // The one way on (nothing left to build or use): End turn is the main button.
  const onlyEnd = !can.builds.length && !can.tiles.size && !can.nomads.length && !can.finish && !can.other.length;
  if (can.endTurn) extra.push(button({ id: "end-turn", class: onlyEnd && "primary", "data-focus-key": "end-turn", onclick: () => { ctx.state.kb = {}; ctx.send({ type: "end_turn" }); } }, "End turn"));
  if (can.undo) extra.push(button({ id: "undo", "data-focus-key": "undo", title: "Take back your last build or tile move of this turn", onclick: () => { ctx.state.kb = {}; ctx.send({ type: "undo" }); } }, "Undo"));
  if (sel.tile || sel.from) extra.push(button({ "data-focus-key": "cancel", onclick: () => { ctx.state.kb = {}; ctx.rerender(); } }, sel.tile ? "Cancel tile" : "Cancel"));
  return extra;
}

/** Everything else, below the board: the decks, your hand, the cards and tasks in play. */
export function panel(view, can, sel, ctx) {
  const you = view.you;
  const me = you !== null && you !== undefined ? view.players[you] : null;
  const options = view.options || {};
  const box = h("div", { class: "kb-controls" });
  const terrain = view.terrain;
  const info = h("div", { class: "kb-panel" });
  info.append(h("span", { class: "muted" }, `Draw pile ${terrain.draw_pile} · discards ${terrain.discard_size}`));
  if (terrain.face_up?.length) info.append(h("span", {}, "Face up: "), ...terrain.face_up.map((t) => terrainChip(t)));
  if (view.hand && view.hand.length) info.append(h("span", {}, "Your hand: "), ...view.hand.map((t) => terrainChip(t)));
  if (terrain.removed?.length) info.append(h("span", { class: "muted" }, `Removed: ${terrain.removed.map(terrainName).join(", ")}`));
  if (options.nomads) info.append(h("span", { class: "walls-left" }, `Stone walls left: ${view.board.walls_left}`));
  box.append(info);
  if (me && options.crossroads) box.append(h("p", { class: "kb-pieces muted" }, piecesLine(me)));

  box.append(h("div", { class: "kb-cards", "aria-label": "Kingdom Builder cards in play" }, (view.cards || []).map((card) => h("div", { class: "kb-card", dataset: { card } }, h("strong", {}, nameOf(card)), h("br"), CARD_TEXT[card] || ""))));
  // The locations on this board, by their full names and what their tiles do.
  const kinds = [...new Set(view.board.locations.map((l) => l.tile))];
  if (kinds.length) {
    box.append(
      h(
        "div",
        { class: "kb-cards kb-locations", "aria-label": "Locations on this board" },
        kinds.map((tile) => h("div", { class: "kb-card kb-location", dataset: { location: tile }, title: textOf(tile) }, h("strong", { class: "kb-location-name" }, locationIconSvg(tile), nameOf(tile)), h("br"), textOf(tile))),
      ),
    );
  }
  const tasks = view.board.tasks || [];
  if (tasks.length) {
    const earners = (task) => view.players.filter((p) => (p.score?.[task] || 0) > 0).map((p) => ctx.names[p.seat] || `seat ${p.seat}`);
    box.append(
      h(
        "div",
        { class: "kb-cards kb-tasks", "aria-label": "Crossroads tasks in play" },
        tasks.map((t) => {
          const who = earners(t.task);
          return h("div", { class: "kb-card kb-task", dataset: { task: t.task } }, h("strong", {}, `${nameOf(t.task)} · ${t.gold} gold`), h("br"), TASK_TEXT[t.task] || "", h("br"), h("small", { class: "muted" }, who.length ? `${view.finished ? "Earned" : "Met now"} by ${who.join(", ")}` : view.finished ? "Earned by nobody" : "Met by nobody yet"));
        }),
      ),
    );
  }
  box.append(h("div", { class: "legend", "aria-hidden": "true" }, ["G", "C", "D", "F", "T", "W", "M"].map((l) => h("span", {}, h("span", { class: "legend-swatch", style: { background: TERRAIN[l].fill } }), TERRAIN[l].name))));
  return box;
}

export function seatSummary(view, seat) {
  const p = view.players?.[seat];
  if (!p) return null;
  const tiles = (p.tiles || []).map((t) => nameOf(t.tile));
  const nomads = (p.nomad_tiles || []).map((t) => nameOf(t.tile));
  const earned = Object.values(p.gold || {}).reduce((a, b) => a + b, 0);
  const crossroads = view.options?.crossroads;
  return h(
    "span",
    { class: "seat-line-detail" },
    h("span", {}, `${p.supply} settlements left`),
    h("span", {}, `${p.score?.total ?? 0} gold so far`),
    earned ? h("span", {}, `${earned} gold earned in play`) : null,
    tiles.length ? h("span", {}, `tiles: ${tiles.join(", ")}`) : null,
    nomads.length ? h("span", {}, `nomad tiles: ${nomads.join(", ")}`) : null,
    crossroads ? h("span", { class: "seat-pieces" }, `warriors ${(p.warriors || []).length}/${(p.warriors || []).length + (p.warriors_left ?? 0)}${p.wagon ? " · wagon out" : ""}${p.ship ? " · ship out" : ""}${p.city_hall ? " · city hall" : ""}`) : null,
    // Once the game is over the cards are listed with the result, not hidden.
    view.you !== seat && p.hand_size && !view.revealed?.[seat] ? h("span", { class: "muted" }, `${p.hand_size} hidden card${p.hand_size > 1 ? "s" : ""}`) : null,
  );
}
