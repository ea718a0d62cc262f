"""Kingdom Cards in a real browser: a whole turn by clicking with two bots, the result,
the preferences (hand order, tips, highlighting, shapes) and each hand's secrecy."""

from __future__ import annotations

import contextlib
import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    api_json,
    api_post,
    api_tokens,
    create_table,
    first_showing,
    frames_json,
    log_seqs,
    record_frames,
    start_from_lobby,
    string_values,
    wait_for_your_turn,
)

pytestmark = pytest.mark.browser

# What the page offers when the battle waits for us, and the button that confirms it.
BATTLE_CHOICES = (
    ("#kc-challenge button", None),
    ("button.kc-card[data-bid]", "#kc-bid"),
    ("#kc-give-up", None),
)


def hand_order(page) -> list[str]:
    return page.locator(".kc-hand .kc-hand-item").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )


def play_by_clicking_until(page, done: str, arg, timeout: float = 60) -> None:
    """Click whatever the battle waits for from us (challenge, bid, raise, give up) until
    the JavaScript predicate ``done(arg)`` holds."""
    mine = page.locator("#log li[data-actor^='seat:']")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate(done, arg):
            return
        assert page.evaluate("!window.kingdomTable.view.finished"), "the game ended early"
        for selector, confirm in BATTLE_CHOICES:
            choice = page.locator(selector)
            if choice.count():
                acted = mine.count()
                choice.first.click()
                if confirm:
                    page.click(confirm)
                # If a bot moved first and the page redrew under the click (the server
                # refused the stale choice), look again: the deadline still bounds the
                # loop, and the caller checks what was played.
                with contextlib.suppress(AssertionError):
                    expect(mine).not_to_have_count(acted, timeout=5000)
                break
        else:
            page.wait_for_timeout(100)
    raise AssertionError(f"not done in {timeout} s: {done}")


# Our turn as the challenger has passed, and each bot challenged after the page loaded.
TURNS_SEEN = """([bots, loaded]) => {
  const log = [...document.querySelectorAll('#log li')];
  const challenges = log.filter((li) => li.dataset.type === 'opponent_challenged');
  const mine = challenges.find((li) => li.dataset.actor.startsWith('seat:'));
  const passed = !!mine && log.some((li) => li.dataset.type === 'turn_passed'
    && Number(li.dataset.seq) > Number(mine.dataset.seq));
  return passed && bots.every((seat) => challenges.some((li) => li.dataset.actor === `bot:${seat}`
    && Number(li.dataset.seq) > loaded));
}"""


def test_kingdom_cards_with_two_bots_from_a_whole_turn_to_the_result(new_player, artifacts):
    ana = new_player("ana")
    page = ana.page
    # Medium bots (the level that takes over a resigned seat too) end games sooner.
    table_id = create_table(page, "kingdom-cards", seats=3, bots=2, level="medium")
    start_from_lobby(page, table_id)
    expect(page.locator(".kc-kingdoms .kc-kingdom")).to_have_count(3)
    expect(page.locator(".kc-hand .kc-hand-item")).to_have_count(9)
    me = page.evaluate("window.kingdomTable.yourSeat")
    bots = {s["seat"] for s in api_json(page, f"/api/tables/{table_id}/")["seats"] if s["bot"]}
    assert len(bots) == 2 and me not in bots
    page.screenshot(path=artifacts / "table-kingdom-cards.png", full_page=True)

    # Our turn as the challenger by clicking (and the battles the bots bring us meanwhile);
    # the bots' turns arrive live: each challenges after the page loaded.
    loaded = page.evaluate("window.kingdomTable.lastSeq")
    play_by_clicking_until(page, TURNS_SEEN, [sorted(bots), loaded])
    challenge = page.locator("#log li[data-type='opponent_challenged'][data-actor^='seat:']")
    expect(challenge.first).to_contain_text(f"{ana.name} challenged")
    expect(page.locator("#log li[data-type='card_bid'][data-actor^='seat:']")).not_to_have_count(0)
    expect(page.locator("#log li[data-type='battle_won']")).not_to_have_count(0)
    page.screenshot(path=artifacts / "table-kingdom-cards-bots.png", full_page=True)

    # Resign: a bot plays on for us, the game runs to its end, the result shows each
    # player's complete kingdom, bonus and cards held.
    page.click("#resign")
    page.click("#resign-confirm")
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=90000)
    rows = result.locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.last).to_contain_text(ana.name)
    outcome = api_json(page, f"/api/tables/{table_id}/view/")["state"]["outcome"]
    for index in range(3):
        row = rows.nth(index)
        seat = row.get_attribute("data-seat")
        expect(row.locator(".breakdown-list dt")).to_have_text(
            ["complete kingdom", "bonus (½ points)", "cards held"]
        )
        breakdown = outcome["breakdown"][seat]
        expect(row.locator(".breakdown-list dd")).to_have_text(
            [
                str(breakdown["complete"]).lower(),
                str(breakdown["bonus_halves"]),
                str(breakdown["cards_held"]),
            ]
        )
    head = api_json(page, f"/api/tables/{table_id}/")["head_seq"]
    expect(page.locator("#log li")).to_have_count(head)
    assert log_seqs(page) == list(range(1, head + 1)), "every event shown once, in order"
    page.screenshot(path=artifacts / "table-kingdom-cards-result.png", full_page=True)
    assert ana.errors == []


def test_kingdom_cards_hand_order_tips_and_shapes_are_kept(new_player):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(
        page, "kingdom-cards", seats=2, bots=1, options={"allow_two_players": True}
    )
    start_from_lobby(page, table_id)
    expect(page.locator(".kc-kingdoms .kc-kingdom")).to_have_count(2)
    wait_for_your_turn(page)
    expect(page.locator("#kc-tutorial")).to_be_visible()

    # Reorder the hand with the buttons; the order survives a reload.
    before = hand_order(page)
    assert len(before) >= 2
    page.get_by_role("button", name="Move", exact=False).filter(has_text="▶").first.click()
    after = hand_order(page)
    assert after[:2] == [before[1], before[0]]
    # Tips off, shapes on: preferences kept in localStorage too.
    page.get_by_label("Show tips").uncheck()
    expect(page.locator("#kc-tutorial")).to_have_count(0)
    page.get_by_label("Shapes on cards (colour-blind)").check()
    page.reload()
    expect(page.locator(".kc-hand .kc-hand-item").first).to_be_visible()
    assert hand_order(page)[:2] == after[:2]
    expect(page.locator("#kc-tutorial")).to_have_count(0)
    expect(page.get_by_label("Show tips")).not_to_be_checked()
    expect(page.locator(".kc.kc-shapes")).to_have_count(1)
    expect(page.locator(".kc-hand .kc-card .kc-shape").first).to_be_visible()
    page.get_by_label("Show tips").check()
    expect(page.locator("#kc-tutorial")).to_be_visible()
    assert ana.errors == []


SHADOW = "el => getComputedStyle(el).boxShadow"


def test_turning_off_highlight_playable_cards_removes_the_highlighting(new_player):
    ana = new_player("ana")
    page = ana.page
    table_id = create_table(
        page, "kingdom-cards", seats=2, bots=1, options={"allow_two_players": True}
    )
    start_from_lobby(page, table_id)
    # Two seats: either we challenge (the bot's kingdom is the target) or the bot challenges
    # us (the cards we may bid are). Either way the game then waits for us.
    targets = page.locator(".kc-kingdom.target:has(button), .kc-hand .kc-card.target[data-bid]")
    expect(targets.first).to_be_visible()
    count = targets.count()
    highlight = page.get_by_label("Highlight playable cards")
    expect(highlight).to_be_checked()
    expect(page.locator(".kc-highlight")).not_to_have_count(0)
    assert targets.first.evaluate(SHADOW) != "none", "a playable target is highlighted"

    highlight.uncheck()
    expect(page.locator(".kc-highlight")).to_have_count(0)
    expect(targets).to_have_count(count)  # still playable, only no longer highlighted
    shadows = targets.evaluate_all(f"els => els.map({SHADOW})")
    assert shadows == ["none"] * count
    page.reload()
    expect(targets.first).to_be_visible()
    expect(page.get_by_label("Highlight playable cards")).not_to_be_checked()
    expect(page.locator(".kc-highlight")).to_have_count(0)
    assert targets.first.evaluate(SHADOW) == "none"

    page.get_by_label("Highlight playable cards").check()
    expect(page.locator(".kc-highlight")).not_to_have_count(0)
    assert targets.first.evaluate(SHADOW) != "none"
    assert ana.errors == []


def seat_two_players_through_the_api(server_url: str, host, guest) -> tuple[str, dict]:
    """A started two-player table, both pages open on it and recording from before the
    start. Seated through the API, not the lobby: the lobby's "Table created" toast lives
    3 s, which a busy machine can miss (the lobby flow has its own tests)."""
    tokens = api_tokens(server_url, host, guest)
    body = {"ruleset": "kingdom-cards", "seats": 2, "options": {"allow_two_players": True}}
    table_id = api_post(server_url, "/api/tables/", body, tokens[host.name])["id"]
    api_post(server_url, f"/api/tables/{table_id}/join/", {}, tokens[guest.name])
    frames = {p.name: record_frames(p.page) for p in (host, guest)}
    for player in (host, guest):
        player.page.goto(f"/tables/{table_id}/")
        expect(player.page.locator("#prelude")).to_contain_text("2 of 2 seats")
    api_post(server_url, f"/api/tables/{table_id}/start/", {}, tokens[host.name])
    return table_id, frames


def test_two_players_each_see_only_their_own_hand(new_player, browser, server_url, artifacts):
    ana = new_player("ana")
    bo = new_player("bo")
    table_id, frames = seat_two_players_through_the_api(server_url, ana, bo)
    watcher_context = browser.new_context(base_url=server_url)
    watcher = watcher_context.new_page()
    frames["watcher"] = record_frames(watcher)
    watcher.goto(f"/tables/{table_id}/")
    pages = {ana.name: ana.page, bo.name: bo.page, "watcher": watcher}
    for page in pages.values():
        expect(page.locator(".kc-kingdoms .kc-kingdom")).to_have_count(2)
        expect(page.locator("#conn")).to_have_attribute("data-state", "live")
    hands = {}
    for player in (ana, bo):
        expect(player.page.locator(".kc-hand .kc-hand-item")).to_have_count(9)
        hands[player.name] = set(hand_order(player.page))
    assert len(hands[ana.name] | hands[bo.name]) == 18, "card ids are distinct"
    expect(watcher.locator(".kc-hand")).to_have_count(0)

    # Seat 0 challenges, the other bids a card: that card alone becomes public.
    challenger = first_showing("#kc-challenge button", ana, bo)
    defender = bo if challenger is ana else ana
    expect(challenger.page.locator("#kc-challenge button")).to_have_count(1)
    expect(defender.page.locator("#kc-challenge")).to_have_count(0)
    challenger.page.locator("#kc-challenge button").click()
    bid = defender.page.locator("button.kc-card[data-bid]").first.get_attribute("data-card")
    # By its card, not by position: a redraw between reading and clicking keeps the card.
    defender.page.locator(f"button.kc-card[data-bid][data-card='{bid}']").click()
    defender.page.click("#kc-bid")
    for page in pages.values():
        expect(page.locator(f".kc-battle [data-card='{bid}']")).to_have_count(1)
    secret = {ana.name: set(hands[ana.name]), bo.name: set(hands[bo.name])}
    secret[defender.name].discard(bid)

    # The pages: each shows its own hand, never a card of the other's; the watcher none.
    shown = {
        who: set(page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
        for who, page in pages.items()
    }
    for player, other in ((ana, bo), (bo, ana)):
        assert set(hand_order(player.page)) == secret[player.name]
        assert secret[player.name] <= shown[player.name]
        leaked = secret[other.name] & shown[player.name]
        assert not leaked, f"{other.name}'s cards {sorted(leaked)} on {player.name}'s page"
    assert not (secret[ana.name] | secret[bo.name]) & shown["watcher"]
    assert all(bid in cards for cards in shown.values())

    # The frames: the same, card by card (a card id is an exact string value).
    received = {who: string_values(frames_json(got)) for who, got in frames.items()}
    for who, other in ((ana.name, bo.name), (bo.name, ana.name)):
        assert hands[who] <= received[who], f"{who}'s own hand reached {who}"
        leaked = secret[other] & received[who]
        assert not leaked, f"{other}'s cards {sorted(leaked)} reached {who}"
    assert received["watcher"], "the watcher received game news"
    assert not (secret[ana.name] | secret[bo.name]) & received["watcher"]
    assert all(bid in got for got in received.values()), "the bid card is public"
    watcher.screenshot(path=artifacts / "table-kingdom-cards-watcher.png", full_page=True)
    watcher_context.close()
    assert ana.errors == [] and bo.errors == []


# The page's next ``count`` moves go at a head the game has already passed, as when
# another seat's moves land first (a burst of kingdom changes while a battle waits): the
# server refuses each as stale. ``window.sentAt`` records every submission's head.
SEND_STALE = """(count) => {
  const stream = window.kingdomTable.stream;
  const submit = stream.submit.bind(stream);
  window.sentAt = [];
  stream.submit = (move) => {
    window.sentAt.push(move.expected_seq);
    const stale = window.sentAt.length <= count;
    return submit(stale ? { ...move, expected_seq: move.expected_seq - 1 } : move);
  };
}"""


def _defender_choosing_a_bid(new_player, server_url):
    """A two-player table (both pages open), the challenge made: the defender, the
    challenger and the card the defender will bid."""
    ana = new_player("ana")
    bo = new_player("bo")
    seat_two_players_through_the_api(server_url, ana, bo)
    for player in (ana, bo):  # both sockets open before the challenge is made
        expect(player.page.locator("#conn")).to_have_attribute("data-state", "live")
    challenger = first_showing("#kc-challenge button", ana, bo)
    defender = bo if challenger is ana else ana
    challenger.page.locator("#kc-challenge button").click()
    bid = defender.page.locator("button.kc-card[data-bid]").first.get_attribute("data-card")
    return defender, challenger, bid


def _bids_by(page, seat: int) -> list[dict]:
    table_id = page.evaluate("window.kingdomTable.table.id")
    events = api_json(page, f"/api/tables/{table_id}/events/?after=0")["events"]
    return [e for e in events if e["type"] == "card_bid" and e["actor"] == f"seat:{seat}"]


def test_a_bid_refused_because_others_moved_first_is_sent_again_while_still_legal(
    new_player, server_url
):
    defender, challenger, bid = _defender_choosing_a_bid(new_player, server_url)
    page = defender.page
    page.evaluate(SEND_STALE, 3)
    page.locator(f"button.kc-card[data-bid][data-card='{bid}']").click()
    page.click("#kc-bid")
    for player in (defender, challenger):
        expect(player.page.locator(f".kc-battle [data-card='{bid}']")).to_have_count(1)
    sent_at = page.evaluate("window.sentAt")
    assert len(sent_at) == 4, "three refusals, each followed by the move sent again"
    seat = page.evaluate("window.kingdomTable.yourSeat")
    assert [e["data"]["card"] for e in _bids_by(page, seat)] == [bid], "appended once"
    expect(page.locator(".toast")).to_have_count(0)
    assert defender.errors == [] and challenger.errors == []


def test_a_bid_refused_again_and_again_stops_and_says_the_game_moved_on(new_player, server_url):
    defender, _challenger, bid = _defender_choosing_a_bid(new_player, server_url)
    page = defender.page
    page.evaluate(SEND_STALE, 1000)
    page.locator(f"button.kc-card[data-bid][data-card='{bid}']").click()
    page.click("#kc-bid")
    expect(page.locator(".toast-info")).to_contain_text("The game moved on")
    # The first send and ten more (CONCURRENT_RESENDS in static/js/table/actions.js).
    assert len(page.evaluate("window.sentAt")) == 11
    seat = page.evaluate("window.kingdomTable.yourSeat")
    assert _bids_by(page, seat) == []
    # Still the defender's choice, now at the head the page caught up with.
    expect(page.locator("button.kc-card[data-bid]").first).to_be_visible()
    assert defender.errors == []
