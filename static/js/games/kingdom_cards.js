// Kingdom Cards: your hand (reorder by drag or buttons, kept in localStorage), every
// kingdom with its flag and bonus, the centre card, the battle as it unfolds. Lay and
// return groups, challenge, bid, raise and give up by clicking.
// Preferences: a short tutorial prompt, highlighting of playable cards, and shapes on
// cards for colour-blind players.

import { clear, focusKeyOf, h, restoreFocus, s } from "../dom.js";
import { seatBadge, seatColour, shapeElement } from "../players.js";
import { readPref, writePref } from "../prefs.js";

// Card colours: Okabe–Ito vermilion, yellow and blue; shapes for colour-blind mode.
const COLOUR = {
  R: { name: "red", fill: "#D55E00", soft: "#f8d9c6", shape: "triangle" },
  Y: { name: "yellow", fill: "#E5C700", soft: "#fbf3c0", shape: "circle" },
  B: { name: "blue", fill: "#0072B2", soft: "#cfe3f2", shape: "square" },
};
const ROLE = ["", "servant", "artisan", "farmer", "soldier", "knight", "commander", "sage", "noble", "king"];
const TIER = { 1: "people", 2: "army", 3: "court" };
const TIER_VALUES = { 1: "1-2-3", 2: "4-5-6", 3: "7-8-9" };
const PREFS = {
  tutorial: "kingdom.kc.tutorial",
  highlight: "kingdom.kc.highlight",
  shapes: "kingdom.kc.shapes",
};

const isTreasure = (card) => card[0] === "T";
const valueOf = (card) => (isTreasure(card) ? 15 : Number(card[1]));
export function cardName(card) {
  if (!card) return "";
  if (isTreasure(card)) return "Treasure";
  return `${COLOUR[card[0]].name} ${card[1]} (${ROLE[Number(card[1])]})`;
}
const TIER_BONUS = { 1: "½", 2: "1", 3: "2" };

/** What a card is for, in a sentence (its hover). */
export function cardMeaning(card) {
  if (!card) return "";
  if (isTreasure(card)) return "Treasure: bid in a battle it is worth 15; in your kingdom it adds ½ to your bonus.";
  const tier = Math.ceil(valueOf(card) / 3);
  return `${cardName(card)}: bids ${valueOf(card)} (plus your bonus) in a battle; with two more ${TIER_VALUES[tier]} cards it makes a ${TIER[tier]} in your kingdom (bonus ${TIER_BONUS[tier]}).`;
}
const shortName = (card) => (isTreasure(card) ? "Treasure" : `${COLOUR[card[0]].name} ${card[1]}`);
const halves = (n) => {
  const whole = Math.floor(n / 2);
  return n % 2 ? `${whole}½` : String(whole);
};

function prefs(ctx) {
  return {
    tutorial: readPref(PREFS.tutorial, true),
    highlight: readPref(PREFS.highlight, true),
    shapes: readPref(PREFS.shapes, null) ?? ctx.shapes,
  };
}

// ---- cards -----------------------------------------------------------------------------------
function cardFace(card) {
  if (isTreasure(card)) {
    return [h("span", { class: "kc-rank" }, "✦"), h("span", { class: "kc-suit" }, "Treasure"), h("span", { class: "kc-suit" }, "bids 15")];
  }
  const colour = COLOUR[card[0]];
  const shape = s("svg", { class: "kc-shape", width: 14, height: 14, viewBox: "0 0 14 14", "aria-hidden": "true" });
  shape.append(shapeElement(colour.shape, 7, 7, 6, { fill: colour.fill, stroke: "#111", "stroke-width": 1 }));
  return [
    shape,
    h("span", { class: "kc-rank", style: { color: card[0] === "Y" ? "#6b5900" : colour.fill } }, card[1]),
    h("span", { class: "kc-suit" }, ROLE[Number(card[1])]),
    h("span", { class: "kc-suit" }, colour.name),
  ];
}

function cardStyle(card) {
  if (isTreasure(card)) return { background: "#f3ead0", "border-color": "#8a6d00" };
  const colour = COLOUR[card[0]];
  return { background: colour.soft, "border-color": colour.fill };
}

export function cardEl(card, attrs = {}) {
  return h("span", { class: ["kc-card", attrs.class], style: cardStyle(card), title: cardMeaning(card), "aria-label": cardName(card), role: "img", dataset: { card } }, cardFace(card));
}

function flagEl(flag) {
  if (!flag) return h("span", { class: "muted" }, "no flag yet");
  const svg = s("svg", { width: 42, height: 16, viewBox: "0 0 42 16", role: "img", "aria-label": `flag ${[...flag].map((c) => COLOUR[c]?.name || "?").join("-")}` });
  [...flag].forEach((c, i) => svg.append(s("rect", { x: i * 14, y: 0, width: 14, height: 16, fill: COLOUR[c]?.fill || "#999", stroke: "#111", "stroke-width": 0.8 })));
  return svg;
}

// ---- the hand's order, kept per game in localStorage ------------------------------------------
function handOrder(ctx, hand) {
  const key = `kingdom.kc.hand.${ctx.gameId}`;
  const saved = readPref(key, []);
  const pool = [...hand];
  const ordered = [];
  for (const card of saved) {
    const i = pool.indexOf(card);
    if (i >= 0) ordered.push(pool.splice(i, 1)[0]);
  }
  return [...ordered, ...pool];
}

function saveOrder(ctx, order) {
  writePref(`kingdom.kc.hand.${ctx.gameId}`, order);
}

// ---- what the player may do ------------------------------------------------------------------
function analyse(legal) {
  const can = { challenge: [], bids: new Map(), lay: [], returnGroup: new Map(), layTreasure: new Map(), returnTreasure: new Map(), layCard: new Map(), returnCard: new Map(), keep: null, giveUp: null, endLast: null };
  for (const c of legal) {
    if (c.type === "challenge") can.challenge.push(c);
    else if (c.type === "bid") can.bids.set(c.card, c);
    else if (c.type === "lay_group") can.lay.push(c);
    else if (c.type === "return_group") can.returnGroup.set(c.tier, c);
    else if (c.type === "lay_treasure") can.layTreasure.set(c.card, c);
    else if (c.type === "return_treasure") can.returnTreasure.set(c.card, c);
    else if (c.type === "lay_card") can.layCard.set(c.card, c);
    else if (c.type === "return_card") can.returnCard.set(c.card, c);
    else if (c.type === "keep_kingdom") can.keep = c;
    else if (c.type === "give_up") can.giveUp = c;
    else if (c.type === "end_last_turn") can.endLast = c;
  }
  return can;
}

const groupKey = (cards) => cards.map((c) => c.slice(0, 2)).join(" ");

function tutorialText(view, can, ctx) {
  const me = view.seat;
  if (me === null || me === undefined) return "You are watching. Players build kingdoms of a people (1-2-3), an army (4-5-6) and a court (7-8-9) under one flag; the first to complete one wins.";
  const battle = view.battle;
  if (can.challenge.length) return "You are the challenger: pick an opponent to fight for the centre card.";
  if (view.phase === "defend" && can.bids.size) return "You are challenged: bid a card. Your attack is its value plus your kingdom's bonus.";
  if (view.phase === "counter" && can.bids.size) return "Counterattack: bid a card. Equal or higher and the defender must raise or give up; lower and the defender wins at once.";
  if (view.phase === "raise" && (can.bids.size || can.giveUp)) return "Raise with a card of the same colour as your bid, or give up the battle.";
  if (view.phase === "second_card" && can.bids.size) return "Add a second card: the same colour adds to your attack, another colour replaces your first card.";
  if (can.endLast) return "Last turn: make your final kingdom changes, then end your last turn.";
  if (battle) return `${ctx.names[battle.challenger]} is fighting ${ctx.names[battle.defender]} for the centre card.`;
  if (can.lay.length) return "You can lay a group: three cards in a row of one tier (1-2-3, 4-5-6 or 7-8-9). Every group shares your kingdom's flag.";
  return "Build your kingdom: a people, an army and a court under one flag wins at once.";
}

// ---- pieces of the page -----------------------------------------------------------------------
function prefsBar(p, ctx) {
  const toggle = (key, label, value) =>
    h(
      "label",
      {},
      h("input", { type: "checkbox", checked: !!value, "data-focus-key": `pref-${key}`, onchange: (ev) => { writePref(PREFS[key], ev.target.checked); ctx.rerender(); } }),
      label,
    );
  return h("div", { class: "kc-prefs", role: "group", "aria-label": "Card preferences" }, toggle("tutorial", "Show tips", p.tutorial), toggle("highlight", "Highlight playable cards", p.highlight), toggle("shapes", "Shapes on cards (colour-blind)", p.shapes));
}

function centreAndBattle(view, can, ctx) {
  const battle = view.battle;
  const box = h("section", { class: "kc-battle", "aria-label": "The centre and the battle" });
  const head = h(
    "div",
    { class: "kc-row" },
    h("div", {}, h("div", { class: "small-text muted" }, "Centre card"), view.centre ? cardEl(view.centre) : h("span", { class: "muted" }, "none")),
    h("div", { class: "small-text" }, `Turn ${view.turn ?? "—"} · ${view.source_size} cards in the source`, view.challenger !== null && view.challenger !== undefined ? h("div", {}, "Challenger: ", seatBadge(view.challenger, 12), " ", ctx.names[view.challenger] || `seat ${view.challenger}`) : null),
  );
  box.append(head);
  if (battle) {
    const side = (seat, bids, total, role) =>
      h(
        "div",
        { class: "kc-side", dataset: { role } },
        h("div", {}, seatBadge(seat, 12), " ", h("strong", {}, ctx.names[seat] || `seat ${seat}`), ` (${role}) · attack ${halves(total)}`),
        h("div", { class: "kc-row" }, bids.length ? bids.map((c) => cardEl(c)) : h("span", { class: "muted small-text" }, "no bid yet")),
      );
    box.append(
      h(
        "div",
        { class: "kc-row", style: { "margin-top": "0.5rem", gap: "1.5rem" } },
        side(battle.defender, battle.defender_bids, battle.defender_total_halves, "defender"),
        side(battle.challenger, battle.challenger_bids, battle.challenger_total_halves, "challenger"),
      ),
    );
    if (!battle.first_card_counts) box.append(h("p", { class: "small-text" }, "The challenger's first card no longer counts."));
  }
  if (can.challenge.length) {
    box.append(
      h(
        "div",
        { class: "actions", id: "kc-challenge", role: "group", "aria-label": "Challenge" },
        can.challenge.map((c) => h("button", { type: "button", class: "primary", "data-focus-key": `challenge-${c.seat}`, onclick: () => ctx.send(c) }, `Challenge ${ctx.names[c.seat] || `seat ${c.seat}`}`)),
      ),
    );
  }
  if (can.giveUp) box.append(h("div", { class: "actions" }, h("button", { type: "button", class: "danger", id: "kc-give-up", "data-focus-key": "give-up", onclick: () => ctx.send(can.giveUp) }, "Give up the battle")));
  return box;
}

// A card of a kingdom; one's own can be taken back alone (leaving the group incomplete).
function kingdomCard(card, back, ctx) {
  if (!back) return cardEl(card);
  return h("span", { class: "kc-hand-item" }, cardEl(card), h("button", { type: "button", class: "small", "data-focus-key": `return-card-${card}`, onclick: () => ctx.send(back) }, "Take back"));
}

function kingdomPanel(view, k, can, ctx) {
  const mine = k.seat === view.seat;
  const groups = [1, 2, 3].map((tier) => {
    const cards = k.groups[tier - 1];
    const back = mine ? can.returnGroup.get(tier) : null;
    return h(
      "div",
      { class: "kc-group", dataset: { tier: String(tier) } },
      h("div", { class: "small-text" }, h("strong", {}, TIER[tier]), ` (${TIER_VALUES[tier]})`),
      cards ? h("div", { class: "kc-row" }, cards.map((c) => kingdomCard(c, mine ? can.returnCard.get(c) : null, ctx))) : h("div", { class: "muted small-text" }, "—"),
      cards && cards.length < 3 ? h("div", { class: "muted small-text" }, "incomplete: no bonus, no flag") : null,
      back ? h("button", { type: "button", class: "small", "data-focus-key": `return-${tier}`, onclick: () => ctx.send(back) }, `Take back the ${TIER[tier]}`) : null,
    );
  });
  const treasures = k.treasures.map((c) => {
    const back = mine ? can.returnTreasure.get(c) : null;
    return h("span", { class: "kc-hand-item" }, cardEl(c), back ? h("button", { type: "button", class: "small", onclick: () => ctx.send(back) }, "Take back") : null);
  });
  const isChallengeTarget = can.challenge.find((c) => c.seat === k.seat);
  return h(
    "article",
    { class: ["kc-kingdom", isChallengeTarget && "target"], style: { "--seat-colour": seatColour(k.seat) }, dataset: { seat: String(k.seat) } },
    h("h3", {}, seatBadge(k.seat, 14), ctx.names[k.seat] || `seat ${k.seat}`, mine ? h("span", { class: "tag tag-you" }, "you") : null, k.complete ? h("span", { class: "tag tag-turn" }, "complete!") : null),
    h("div", { class: "kc-row small-text" }, flagEl(k.flag), h("span", {}, `bonus ${halves(k.bonus_halves)}`), ctx.over && !ctx.replay ? null : h("span", {}, `${view.hand_sizes[k.seat]} in hand`)),
    groups,
    treasures.length ? h("div", { class: "kc-row" }, treasures) : null,
    isChallengeTarget ? h("button", { type: "button", class: "small primary", onclick: () => ctx.send(isChallengeTarget) }, "Challenge") : null,
  );
}

function handPanel(view, can, p, ctx) {
  const store = (ctx.state.kc ||= { selected: [] });
  const hand = view.hand || [];
  store.selected = store.selected.filter((c) => hand.includes(c));
  const order = handOrder(ctx, hand);
  const playable = new Set([...can.bids.keys(), ...can.layTreasure.keys(), ...can.lay.flatMap((c) => c.cards)]);
  const move = (card, delta) => {
    const i = order.indexOf(card);
    const j = i + delta;
    if (j < 0 || j >= order.length) return;
    [order[i], order[j]] = [order[j], order[i]];
    saveOrder(ctx, order);
    ctx.rerender();
  };
  const list = h("div", { class: "kc-hand", role: "list", "aria-label": "Your hand" });
  let dragged = null;
  order.forEach((card, index) => {
    const selected = store.selected.includes(card);
    const button = h(
      "button",
      {
        type: "button",
        class: ["kc-card", playable.has(card) && "target", selected && "selected"],
        style: cardStyle(card),
        "aria-pressed": String(selected),
        "aria-label": `${cardName(card)}${selected ? ", picked" : playable.has(card) ? ", playable" : ""}`,
        title: cardMeaning(card),
        "data-focus-key": `hand-${card}`,
        dataset: { card, bid: can.bids.has(card) ? "1" : undefined },
        onclick: () => {
          store.selected = selected ? store.selected.filter((c) => c !== card) : [...store.selected, card];
          ctx.rerender();
        },
      },
      cardFace(card),
    );
    // Once the game is over the hand is only shown: no reordering.
    const item = h(
      "div",
      { class: "kc-hand-item", role: "listitem", draggable: ctx.over ? null : "true", dataset: { card } },
      button,
      ctx.over ? null : h(
        "span",
        { class: "kc-move" },
        h("button", { type: "button", "aria-label": `Move ${shortName(card)} left`, disabled: index === 0, "data-focus-key": `left-${card}`, onclick: () => move(card, -1) }, "◀"),
        h("button", { type: "button", "aria-label": `Move ${shortName(card)} right`, disabled: index === order.length - 1, "data-focus-key": `right-${card}`, onclick: () => move(card, 1) }, "▶"),
      ),
    );
    item.addEventListener("dragstart", (ev) => {
      dragged = card;
      item.classList.add("dragging");
      ev.dataTransfer.effectAllowed = "move";
      ev.dataTransfer.setData("text/plain", card);
    });
    item.addEventListener("dragend", () => item.classList.remove("dragging"));
    item.addEventListener("dragover", (ev) => ev.preventDefault());
    item.addEventListener("drop", (ev) => {
      ev.preventDefault();
      const from = order.indexOf(dragged || ev.dataTransfer.getData("text/plain"));
      const to = order.indexOf(card);
      if (from < 0 || to < 0 || from === to) return;
      const [moved] = order.splice(from, 1);
      order.splice(to, 0, moved);
      saveOrder(ctx, order);
      ctx.rerender();
    });
    list.append(item);
  });

  // Actions for the selected cards.
  const actions = [];
  const sel = store.selected;
  if (sel.length === 1 && can.bids.has(sel[0])) {
    const verb = view.phase === "raise" ? "Raise with" : view.phase === "second_card" ? "Add" : view.phase === "counter" ? "Counterattack with" : "Bid";
    actions.push(h("button", { type: "button", class: "primary", id: "kc-bid", "data-focus-key": "bid", onclick: () => { store.selected = []; ctx.send(can.bids.get(sel[0])); } }, `${verb} ${shortName(sel[0])}`));
  }
  if (sel.length === 1 && can.layTreasure.has(sel[0])) {
    actions.push(h("button", { type: "button", "data-focus-key": "lay-treasure", onclick: () => { store.selected = []; ctx.send(can.layTreasure.get(sel[0])); } }, "Lay the Treasure in your kingdom"));
  }
  if (sel.length === 1 && can.layCard.has(sel[0])) {
    actions.push(h("button", { type: "button", "data-focus-key": "lay-card", onclick: () => { store.selected = []; ctx.send(can.layCard.get(sel[0])); } }, "Lay this card alone in your kingdom"));
  }
  if (sel.length === 3) {
    const sorted = [...sel].sort((a, b) => valueOf(a) - valueOf(b));
    const lay = can.lay.find((c) => c.cards.length === 3 && c.cards.every((x, i) => x === sorted[i]));
    if (lay) actions.push(h("button", { type: "button", class: "primary", id: "kc-lay-selected", "data-focus-key": "lay-selected", onclick: () => { store.selected = []; ctx.send(lay); } }, `Lay these as your ${TIER[Math.ceil(valueOf(sorted[0]) / 3)]}`));
  }
  if (sel.length) actions.push(h("button", { type: "button", class: "small", "data-focus-key": "clear-sel", onclick: () => { store.selected = []; ctx.rerender(); } }, "Clear selection"));

  // One button per distinct group that can be laid (copies of a card are alike).
  const seen = new Set();
  const groups = [];
  for (const c of can.lay) {
    const key = groupKey(c.cards);
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push(h("button", { type: "button", class: "small", "data-focus-key": `lay-${key}`, dataset: { lay: key }, onclick: () => ctx.send(c) }, `Lay ${TIER[Math.ceil(valueOf(c.cards[0]) / 3)]}: ${c.cards.map(shortName).join(", ")}`));
  }
  const wrap = h(
    "section",
    { class: ["kc-hand-panel", p.highlight && "kc-highlight"], "aria-label": "Your hand" },
    h("h3", {}, "Your hand"),
    list,
    // With a bar that stays in view, the picked cards' buttons go there (render()).
    actions.length && !ctx.bar ? h("div", { class: "actions" }, actions) : null,
    groups.length ? h("div", { class: "kc-commands", role: "group", "aria-label": "Groups you can lay" }, groups) : null,
  );
  wrap.pickedActions = actions;
  return wrap;
}

export function render(root, view, legal, ctx) {
  if (!view.kingdoms) {
    clear(root).append(h("p", { class: "muted" }, "The cards are not dealt yet."));
    return;
  }
  const slot = ctx.bar || null;
  const focusKey = focusKeyOf(root) || (slot && focusKeyOf(slot));
  const p = prefs(ctx);
  const can = analyse(legal);
  const parts = ctx.over ? [] : [prefsBar(p, ctx)];
  const tip = p.tutorial && !ctx.over ? h("p", { class: "kc-tutorial", id: "kc-tutorial" }, tutorialText(view, can, ctx)) : null;
  if (!slot && tip) parts.push(tip);
  // Once the game is over there is no centre, turn or battle left to show (a replay of
  // an earlier move shows them as they were).
  if (!ctx.over || ctx.replay) parts.push(centreAndBattle(view, can, ctx));
  const hand = view.hand ? handPanel(view, can, p, ctx) : null;
  if (hand) parts.push(hand);
  const extra = [];
  if (can.keep) extra.push(h("button", { type: "button", id: "kc-keep", "data-focus-key": "keep", onclick: () => ctx.send(can.keep) }, "Keep my kingdom as it is this turn"));
  if (can.endLast) extra.push(h("button", { type: "button", class: "primary", id: "kc-end-last", "data-focus-key": "end-last", onclick: () => ctx.send(can.endLast) }, "End my last turn"));
  // A turn's counter means nothing once the game is over (a replay shows it as it was).
  if ((!ctx.over || ctx.replay) && view.seat !== null && view.seat !== undefined && view.changes_left) extra.push(h("span", { class: "small-text muted" }, `${view.changes_left[view.seat]} kingdom changes left this turn`));
  if (slot) {
    // The tip and the buttons of this step (the picked cards', keep, end) stay in view.
    const picked = hand?.pickedActions || [];
    const buttons = [...picked, ...extra];
    clear(slot);
    if (tip || buttons.length) slot.append(h("div", { class: "kc-turn-bar", id: "kc-turn-bar" }, tip, buttons.length ? h("div", { class: "actions" }, buttons) : null));
  } else if (extra.length) parts.push(h("div", { class: "actions" }, extra));
  parts.push(h("div", { class: ["kc-kingdoms", p.highlight && "kc-highlight"] }, view.kingdoms.map((k) => kingdomPanel(view, k, can, ctx))));
  clear(root).append(h("div", { class: ["kc", p.shapes && "kc-shapes", legal.length && "has-moves"] }, parts));
  markLastMoves(root, ctx);
  restoreFocus(root, focusKey);
  if (slot) restoreFocus(slot, focusKey);
}

const PLACING = new Set(["card_laid", "treasure_laid"]);

/** The card a placing event laid in a kingdom (the table marks the last moves), or null. */
export function placedAt(event) {
  return PLACING.has(event.type) && event.data?.card ? event.data.card : null;
}

/** The cards laid since your last move, ringed; the newest arrivals play their arrival once. */
function markLastMoves(root, ctx) {
  const moves = ctx.lastMoves || [];
  moves.forEach((e, i) => {
    const card = root.querySelector(`.kc-kingdom[data-seat="${e.data.seat}"] .kc-card[data-card="${CSS.escape(placedAt(e))}"]`);
    if (!card) return; // returned to the hand since
    card.classList.add("last-move");
    if (e.seq > ctx.animatedUpTo) card.classList.add("arrived");
    card.setAttribute("aria-label", `${card.getAttribute("aria-label")}, ${i === moves.length - 1 ? "the last move" : "laid since your last move"}`);
  });
}

export function seatSummary(view, seat) {
  const k = view.kingdoms?.[seat];
  if (!k) return null;
  return h(
    "span",
    { class: "seat-line-detail" },
    // Over, the hands are shown in the result: no count of cards in hand any more.
    view.outcome ? null : h("span", {}, `${view.hand_sizes[seat]} cards in hand`),
    h("span", {}, `bonus ${halves(k.bonus_halves)}`),
    h("span", {}, `${view.cards_held[seat]} cards held`),
    k.complete ? h("strong", {}, "complete kingdom") : null,
  );
}

const LABELS = { complete: "complete kingdom", bonus_halves: "bonus (½ points)", cards_held: "cards held" };
export const breakdownLabel = (key) => LABELS[key] || key.replaceAll("_", " ");

// Several seats act at once (kingdom changes while a battle runs): a move refused only
// because someone else moved first is sent again if it is still legal.
export const concurrentSeats = true;

// What a seat held hidden, shown to everyone once the game is over (view.revealed).
/** A hand revealed at the end, as small cards rather than a line of names. */
export function revealedNode(key, value) {
  if (key !== "hand") return null;
  const cards = value || [];
  return h("span", { class: "kc-revealed-hand" }, "hand: ", cards.length ? cards.map((card) => cardEl(card, { class: "kc-card-mini" })) : "empty");
}

export const revealedText = (key, value) => (key === "hand" ? `hand: ${(value || []).map(cardName).join(", ") || "empty"}` : `${key}: ${value}`);
