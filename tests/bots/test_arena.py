"""The arena: bot tournaments on the engines, their statistics and the command."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bots.search.arena import (
    Match,
    elo_difference,
    placings,
    play_game,
    play_match,
    seatable_options,
    seatings,
    summarise,
    summarise_field,
    wilson,
)
from games.rules import get_ruleset


def arena(*args: str) -> str:
    out = StringIO()
    call_command("arena", *args, "--no-progress", stdout=out)
    return out.getvalue()


def test_wilson_interval_of_known_rates():
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(20, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_difference_follows_the_logistic_curve():
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_difference(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_difference(1.0) == elo_difference(0.99)  # capped, not infinite


def test_levels_alternate_over_the_seats():
    match = Match("kingdoms", "hard", "medium", games=4, players=3)
    assert [match.levels(i) for i in range(2)] == [
        ["hard", "medium", "hard"],
        ["medium", "hard", "medium"],
    ]


def test_a_field_sits_every_level_in_every_seat_and_order():
    match = Match(
        "kingdoms", "expert", "hard", games=6, players=3, lineup=("expert", "hard", "medium")
    )
    orders = [tuple(match.levels(i)) for i in range(6)]
    assert sorted(orders) == seatings(("expert", "hard", "medium")) and len(set(orders)) == 6
    for seat in range(3):
        assert (
            sorted(order[seat] for order in orders)
            == ["expert"] * 2 + ["hard"] * 2 + ["medium"] * 2
        )
    # A level twice at four seats: its orders are the distinct ones (12, not 24).
    assert len(seatings(("expert", "hard", "medium", "medium"))) == 12
    with pytest.raises(ValueError):
        Match("kingdoms", "expert", "hard", games=1, players=4, lineup=("expert", "hard"))


def test_tied_seats_share_the_mean_of_their_places():
    assert placings([[2], [0, 3], [1]], 4) == [2.5, 4.0, 1.0, 2.5]
    assert placings([[0, 1, 2]], 3) == [2.0, 2.0, 2.0]


def test_a_field_is_judged_by_mean_placing():
    match = Match(
        "kingdoms", "medium", "easy", games=6, players=3, seed=2, lineup=("medium", "easy", "easy")
    )
    results = play_match(match)
    summary = summarise_field(match, results)
    places = {s.level: s.place for s in summary.standings}
    # Each game's places are 1, 2 and 3 (or tied shares of them): they sum to 6.
    assert all(sum(r.places) == 6 for r in results)
    assert places["medium"][0] + 2 * places["easy"][0] == pytest.approx(6)
    mean, low, high = summary.against["easy"]
    assert mean == pytest.approx(places["medium"][0] - places["easy"][0])
    assert low <= mean <= high
    assert sum(s.wins for s in summary.standings) == pytest.approx(6)


def test_two_player_kingdom_cards_turns_on_its_two_player_option():
    ruleset = get_ruleset("kingdom-cards")
    assert seatable_options(ruleset, 2, {})["allow_two_players"] is True
    assert seatable_options(ruleset, 3, {})["allow_two_players"] is False
    with pytest.raises(ValueError):
        seatable_options(ruleset, 7, {})


def test_a_game_is_the_same_game_whoever_plays_it():
    match = Match("kingdom-cards", "medium", "easy", games=2, seed=3)
    first, again = play_game(match, 1), play_game(match, 1)
    assert (first.winners, first.commands) == (again.winners, again.commands)
    assert first.levels == ["easy", "medium"]


def test_summary_counts_ties_as_half_a_win():
    match = Match("kingdoms", "medium", "easy", games=6, seed=1)
    results = play_match(match)
    summary = summarise(match, results)
    assert summary.score_a == sum(r.score_a for r in results)
    assert summary.low <= summary.rate <= summary.high
    assert {"medium", "easy"} == set(summary.elo) == set(summary.times)
    assert sum(n for _, n in summary.by_seat.values()) == 6


def test_arena_prints_rates_elo_and_times_and_draws_the_chart(tmp_path):
    chart = tmp_path / "rates.png"
    out = arena(
        "kingdoms",
        "--a",
        "medium",
        "--b",
        "easy",
        "--games",
        "4",
        "--jobs",
        "1",
        "--plot",
        str(chart),
    )
    assert "medium win rate" in out and "95% CI" in out
    assert "Elo" in out and "decision time" in out and "p99" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_arena_plays_the_hard_bot_in_worker_processes():
    out = arena(
        "kingdom-cards",
        "--a",
        "hard",
        "--b",
        "easy",
        "--games",
        "2",
        "--jobs",
        "2",
        "--playouts",
        "8",
        "--json",
    )
    assert "hard win rate" in out
    assert '"name": "arena.kingdom-cards.hard_v_easy"' in out


def test_arena_reports_a_fields_placings():
    out = arena("kingdoms", "--field", "medium,easy,easy", "--games", "3", "--jobs", "1", "--json")
    assert "mean placing" in out and "medium's placing minus each other level's" in out
    assert '"name": "arena.kingdoms.field.medium_easy_easy"' in out
    with pytest.raises(CommandError, match="--field"):
        arena("kingdoms", "--field", "medium,grandmaster")
    with pytest.raises(CommandError, match="one budget at a time"):
        arena("kingdoms", "--field", "hard,medium,easy", "--budget", "0.1,0.2")


def test_arena_plays_the_match_at_each_thinking_time_and_plots_the_win_rates(tmp_path):
    chart = tmp_path / "by-time.png"
    out = arena(
        "kingdom-cards",
        "--a",
        "hard",
        "--b",
        "medium",
        "--games",
        "1",
        "--jobs",
        "1",
        "--budget",
        "0.02,0.04",
        "--json",
        "--plot",
        str(chart),
    )
    assert out.count("hard win rate") == 2
    assert "search budget 0.02 s" in out and "search budget 0.04 s" in out
    assert out.count('"seconds": 0.02') == 1 and out.count('"seconds": 0.04') == 1
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(CommandError):
        arena("kingdoms", "--budget", "0.5,0")


def test_arena_refuses_an_unknown_game():
    with pytest.raises(CommandError):
        arena("chess")
