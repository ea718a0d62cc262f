"""``manage.py bench`` prints one JSON line per measurement, with the fields docs/performance.md
quotes. Smoke sizes only; timings vary with the machine, so only their shape is checked."""

from __future__ import annotations

import io
import json
from numbers import Real

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from games.rules import all_rulesets, get_ruleset

pytestmark = pytest.mark.django_db(transaction=True)
RULESETS = [r.key for r in all_rulesets()]
COST_LINES = [
    "cost by seq, kingdoms, warm cache",
    "cost by seq, kingdoms, cold cache: snapshot + tail per command",
    "cost by seq, kingdom-cards long game, warm cache",
    "cost by seq, kingdom-cards long game, cold cache: snapshot + tail per command",
]


def bench(*args: str) -> list[dict]:
    out = io.StringIO()
    call_command("bench", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def test_bench_commands_prints_throughput_and_cost_by_seq_with_the_1_3x_verdicts():
    lines = bench("commands", "--games", "1", "--players", "2", "--max-commands", "25")
    assert [line["name"] for line in lines] == ["commands kingdoms (warm state cache)", *COST_LINES]
    throughput = lines[0]
    assert throughput["n"] == 25 and throughput["players"] == 2
    assert all(is_number(throughput[k]) for k in ("per_second", "p50_ms", "p99_ms"))
    assert is_number(throughput["cpu_ms_per_command"]) and throughput["cpu_ms_per_command"] > 0
    for line in lines[1:]:
        assert line["commands"] == 25
        assert line["seq_windows"]["early"] == [1, 20]
        assert line["seq_windows"]["late"][1] == line["last_seq"]
        for field in ("early_p50_ms", "mid_p50_ms", "late_p50_ms", "late_over_early"):
            assert is_number(line[field]) and line[field] > 0, field
        assert is_number(line["late_over_mid"]) and line["late_over_mid"] > 0
        # Each verdict agrees with its ratio (the cold probe is compared with early too).
        assert line["late_over_early_within_1_3x"] is (line["late_over_early"] <= 1.3)
        assert line["late_over_mid_within_1_3x"] is (line["late_over_mid"] <= 1.3)
        if line["long_game"]:
            assert line["within_1_3x"] is line["late_over_early_within_1_3x"]
        else:  # the promise is about a game's length, which a short game cannot probe
            assert "within_1_3x" not in line
    assert [line["long_game"] for line in lines[1:]] == [False, False, True, True]
    # The capped games were left unfinished: one throughput game and four probes.
    assert Game.objects.filter(status=Game.Status.ACTIVE).count() == 5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bench_rules_prints_random_games_and_replay_rates(ruleset):
    players = get_ruleset(ruleset).min_players
    games, replay, search = bench(
        "rules", ruleset, "--games", "2", "--players", str(players), "--positions", "3"
    )
    assert games["name"] == f"random {players}-player games, {ruleset}"
    assert games["n"] == 2 and games["players"] == players
    assert all(is_number(games[k]) and games[k] > 0 for k in ("per_second", "p50_ms", "p99_ms"))
    assert is_number(games["events_per_game"]) and games["events_per_game"] > 10
    assert replay["name"] == f"replay (fold), {ruleset}"
    assert replay["n"] == round(games["events_per_game"] * 2)
    assert is_number(replay["per_second"]) and replay["per_second"] > 0
    # The hard search on three positions: its playouts per second, and a fingerprint of
    # its decisions that the same seed repeats (a faster engine must not change it).
    assert search["name"] == f"hard search, {ruleset}" and search["n"] == 3
    assert is_number(search["playouts_per_second"]) and search["playouts"] > 0
    again = bench("rules", ruleset, "--games", "2", "--players", str(players), "--positions", "3")
    assert again[2]["decisions"] == search["decisions"]


def test_bench_refuses_an_unknown_ruleset():
    with pytest.raises(CommandError, match="unknown ruleset"):
        bench("rules", "chess")


def test_bench_commands_with_the_eventsourcing_peer_plays_the_same_commands_and_gives_ratios():
    lines = bench("commands", "--games", "1", "--max-commands", "12", "--peer", "eventsourcing")
    ours, peer, ratio = lines[0], lines[1], lines[2]
    assert peer["name"] == "peer eventsourcing (cached aggregates)"
    assert peer["n"] == ours["n"] == 12
    assert peer["version"].startswith("eventsourcing ")
    for field in ("per_second", "p50_ms", "p99_ms", "cpu_ms_per_command"):
        assert is_number(peer[field]) and peer[field] > 0, field
    assert ratio["name"] == "ratio ours/peer eventsourcing"
    assert ratio["commands_per_s_ratio"] == round(ours["per_second"] / peer["per_second"], 3)
    assert ratio["cpu_ms_per_command_ratio"] == round(
        ours["cpu_ms_per_command"] / peer["cpu_ms_per_command"], 3
    )
    assert ratio["p50_ratio"] == round(ours["p50_ms"] / peer["p50_ms"], 3)
    assert [line["name"] for line in lines[3:]] == COST_LINES


@pytest.mark.parametrize(("what", "peer"), [("commands", "bgio"), ("live", "eventsourcing")])
def test_bench_refuses_a_peer_that_does_not_run_beside_it(what, peer):
    with pytest.raises(CommandError, match=f"--peer {peer} does not run beside bench {what}"):
        bench(what, "--peer", peer)
