"""The arena: bot tournaments on the engines, their statistics and the command."""

from __future__ import annotations

import json
import subprocess
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from bots.search.arena import (
    Match,
    Part,
    Tree,
    elo_difference,
    load_part,
    placings,
    play_game,
    play_match,
    pool,
    pool_by_budget,
    save_part,
    seatable_options,
    seatings,
    source_tree,
    summarise,
    summarise_field,
    wilson,
)
from games.rules import get_ruleset


def arena(*args: str) -> str:
    out = StringIO()
    call_command("arena", *args, "--no-progress", stdout=out)
    return out.getvalue()


def arena_pool(*args: object, json_too: bool = False) -> str:
    out = StringIO()
    call_command("arena_pool", *map(str, args), *(["--json"] if json_too else []), stdout=out)
    return out.getvalue()


def decisions(results) -> dict[str, int]:
    counted: dict[str, int] = {}
    for r in results:
        for level, values in r.seconds.items():
            counted[level] = counted.get(level, 0) + len(values)
    return counted


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    """Two parts of medium v easy (seeds 1 and 2), saved by the arena command."""
    folder = tmp_path_factory.mktemp("parts")
    for seed in (1, 2):
        arena(
            *("kingdoms", "--a", "medium", "--b", "easy", "--games", "3", "--jobs", "1"),
            *("--seed", str(seed), "--save", str(folder / f"part-{seed}.json")),
        )
    return folder / "part-1.json", folder / "part-2.json"


def edited(path, into, **changes):
    """A copy of the part at ``path`` with its match's ``changes``."""
    data = json.loads(path.read_text())
    data["match"].update(changes)
    into.write_text(json.dumps(data))
    return into


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


def test_a_saved_part_loads_back_to_the_same_summary(tmp_path):
    match = Match("kingdoms", "medium", "easy", games=4, seed=3)
    results = play_match(match)
    tree = Tree("0" * 40, False)
    save_part(tmp_path / "part.json", Part(match, results, tree, "t0", "t1", jobs=1))
    part = load_part(tmp_path / "part.json")
    assert (part.match, part.tree, part.started, part.jobs) == (match, tree, "t0", 1)
    before, after = summarise(match, results), summarise(part.match, part.results)
    assert (after.rate, after.low, after.high) == (before.rate, before.low, before.high)
    assert after.by_seat == before.by_seat and after.elo == before.elo
    assert {level: t["n"] for level, t in after.times.items()} == decisions(results)
    # Times are kept in whole milliseconds.
    assert after.times["medium"]["max"] == pytest.approx(before.times["medium"]["max"], abs=5e-4)


def test_a_part_records_its_commit_or_none_without_git(monkeypatch):
    tree = source_tree()
    assert tree.commit is None or len(tree.commit) == 40

    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(subprocess, "run", no_git)
    assert source_tree() == Tree(None, None)


def test_pooled_parts_are_summarised_as_all_their_games(parts):
    loaded = [load_part(path) for path in parts]
    match, results = pool(loaded)
    assert match.games == 6 and len(results) == 6
    # The same games as played in memory, seed by seed (medium and easy keep no clock).
    played = [
        r for seed in (1, 2) for r in play_match(Match("kingdoms", "medium", "easy", 3, seed=seed))
    ]
    assert [(r.levels, r.winners, r.places) for r in results] == [
        (r.levels, r.winners, r.places) for r in played
    ]
    pooled = summarise(match, results)
    both = summarise(match, loaded[0].results + loaded[1].results)
    assert (pooled.rate, pooled.low, pooled.high) == (both.rate, both.low, both.high)
    assert pooled.score_a == sum(r.score_a for r in played)
    assert {level: t["n"] for level, t in pooled.times.items()} == decisions(played)


def test_arena_pool_prints_the_report_and_the_parts(parts):
    out = arena_pool(*parts, json_too=True)
    assert "kingdoms: medium v easy, 6 games of 2 players, seeds 1, 2" in out
    assert "medium win rate" in out and "Elo" in out and "p99" in out
    line = next(line for line in out.splitlines() if line.startswith("parts: "))
    assert "seed 1: 3 games, commit " in line and "seed 2: 3 games, commit " in line
    summary = json.loads(out.splitlines()[-1])
    assert summary["name"] == "arena.kingdoms.medium_v_easy" and summary["games"] == 6


def test_arena_pool_refuses_other_matches_and_a_seed_twice(parts, tmp_path):
    first, second = parts
    with pytest.raises(CommandError, match="both have seed 1: the same games twice"):
        arena_pool(first, first)
    faster = edited(second, tmp_path / "faster.json", seconds=2.0, playouts=5)
    with pytest.raises(CommandError, match="not the same match.*playouts 5 against None"):
        arena_pool(first, faster)
    other = edited(second, tmp_path / "other.json", game="kingdom-cards")
    with pytest.raises(CommandError, match="not the same match.*game 'kingdom-cards'"):
        arena_pool(first, other)
    short = edited(second, tmp_path / "short.json", games=5)
    with pytest.raises(CommandError, match="not games 0 to 4"):
        arena_pool(first, short)
    (tmp_path / "junk.json").write_text("[]")
    with pytest.raises(CommandError, match="not an arena part"):
        arena_pool(tmp_path / "junk.json")


def test_parts_at_several_thinking_times_pool_per_time_and_plot(parts, tmp_path):
    first, second = parts
    slower = edited(second, tmp_path / "slower.json", seconds=2.0)
    twice = edited(first, tmp_path / "twice.json", seconds=2.0)
    pooled = pool_by_budget([load_part(path) for path in (slower, first, twice)])
    assert [(match.seconds, match.games) for match, _, _ in pooled] == [(1.0, 3), (2.0, 6)]
    assert [[part.match.seed for part in played] for _, _, played in pooled] == [[1], [2, 1]]
    chart = tmp_path / "by-time.png"
    out = arena_pool(first, slower, twice, "--plot", chart)
    assert out.count("medium win rate") == 2
    assert "3 games of 2 players, seed 1\n" in out and "6 games of 2 players, seeds 2, 1\n" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(CommandError, match="two or more thinking times"):
        arena_pool(first, second, "--plot", chart)
    with pytest.raises(CommandError, match="both have seed 1"):
        arena_pool(first, second, twice, edited(first, tmp_path / "again.json", seconds=2.0))


def test_a_fields_parts_pool(tmp_path):
    paths = [tmp_path / f"field-{seed}.json" for seed in (1, 2)]
    for seed, path in zip((1, 2), paths, strict=True):
        arena(
            *("kingdoms", "--field", "medium,easy,easy", "--games", "3", "--jobs", "1"),
            *("--seed", str(seed), "--save", str(path)),
        )
    match, results = pool([load_part(path) for path in paths])
    assert match.lineup == ("medium", "easy", "easy") and len(results) == 6
    out = arena_pool(*paths, json_too=True)
    assert "6 games of 3 players, seeds 1, 2" in out and "mean placing" in out
    assert "parts: seed 1: 3 games" in out
    standings = {s.level: s.place for s in summarise_field(match, results).standings}
    assert f"{standings['medium'][0]:5.2f}" in out
    assert '"name": "arena.kingdoms.field.medium_easy_easy"' in out


def test_arena_saves_one_part_at_one_budget_and_never_over_another(parts, tmp_path):
    with pytest.raises(CommandError, match="one --budget"):
        arena("kingdoms", "--budget", "0.1,0.2", "--save", str(tmp_path / "p.json"))
    with pytest.raises(CommandError, match="exists"):
        arena("kingdoms", "--save", str(parts[0]))
    arena(
        "kingdoms",
        "--a",
        "easy",
        "--b",
        "easy",
        "--games",
        "1",
        "--jobs",
        "1",
        "--save",
        str(tmp_path / "new" / "p.json"),
    )
    assert load_part(tmp_path / "new" / "p.json").match.games == 1
