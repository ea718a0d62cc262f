"""One account's bots cannot hold up another's: the in-process runner takes the accounts'
turns in turn (round robin), one at a time per account, on more than one thread; and an
account may run only so many tables of thinking bots, with so much thinking time."""

from __future__ import annotations

import threading

import pytest

from bots import runners, scheduling
from bots.runners import InProcessThreads
from games import services
from games.errors import Conflict
from tests.games.helpers import game_with_bots

pytestmark = pytest.mark.django_db(transaction=True)
# The levels that search for the table's whole thinking time (games/services/lobby.py).
SEARCHING = ["hard", "expert"]


class Recorder:
    """Runs fake turns: the blocked accounts' turns wait until released."""

    def __init__(self, blocked: set = frozenset()) -> None:
        self.blocked = blocked
        self.release = threading.Event()
        self.lock = threading.Lock()
        self.done: list = []
        self.running: dict = {}
        self.overlap = False
        self.finished = threading.Condition(self.lock)

    def run(self, account, job) -> None:
        """Plays the job ``(account, n)``."""
        job = (account, job)
        with self.lock:
            if self.running.get(account):
                self.overlap = True
            self.running[account] = True
        if account in self.blocked:
            self.release.wait(30)
        with self.lock:
            self.running[account] = False
            self.done.append(job)
            self.finished.notify_all()

    def wait_for(self, count: int) -> bool:
        with self.finished:
            return self.finished.wait_for(lambda: len(self.done) >= count, timeout=30)


def test_the_accounts_turns_are_taken_in_turn():
    recorder = Recorder()
    gate = threading.Event()
    runner = InProcessThreads(1, 0, lambda *job: (gate.wait(30), recorder.run(*job)))
    try:
        runner.put_all("ana", [("a", n) for n in range(4)])
        runner.put_all("bob", [("b", 0), ("b", 1)])
        gate.set()
        assert recorder.wait_for(6)
        assert recorder.done == [("a", 0), ("b", 0), ("a", 1), ("b", 1), ("a", 2), ("a", 3)]
    finally:
        runner.stop()


def test_an_account_has_one_turn_running_at_a_time():
    recorder = Recorder()
    runner = InProcessThreads(3, 0, recorder.run)
    try:
        runner.put_all("a", [("a", n) for n in range(12)])
        assert recorder.wait_for(12)
        assert not recorder.overlap
    finally:
        runner.stop()


def test_one_accounts_thinking_bots_do_not_hold_up_anothers(settings, make_user, monkeypatch):
    settings.BOT_RUNNER, settings.BOT_MOVE_DELAY = "thread", 0
    greedy, other = make_user("greedy"), make_user("other")
    hard = [game_with_bots(greedy, bots=2, level="hard", join=False) for _ in range(2)]
    easy = game_with_bots(other, bots=1, level="easy")
    held = {str(g.id) for g in hard}
    release, answered = threading.Event(), threading.Event()

    def fake_turn(game_id: str, seat: int, expected_seq: int) -> bool:
        if game_id in held:
            release.wait(30)  # thinking, for as long as the test lets it
        else:
            answered.set()
        return True

    threads = InProcessThreads(settings.BOT_RUNNER_THREADS, 0, fake_turn)
    monkeypatch.setattr(runners, "runner", lambda: threads)
    try:
        for game in hard:
            scheduling.send(game, [(str(game.id), 0, 0), (str(game.id), 1, 0)])
        scheduling.send(easy, [(str(easy.id), 1, 0)])
        assert answered.wait(20), "the other account's bot waited for the thinking bots"
    finally:
        release.set()
        threads.stop()


def test_a_turn_sent_again_while_it_waits_is_queued_once():
    recorder = Recorder()
    gate = threading.Event()
    runner = InProcessThreads(1, 0, lambda *job: (gate.wait(30), recorder.run(*job)))
    try:
        runner.put_all("a", [("a", 0), ("a", 1)])
        runner.put_all("a", [("a", 1)])  # the outbox's copy of the turn still waiting
        runner.put_all("b", [("b", 0)])
        with runner.ready:
            assert list(runner.queues["a"]).count(("a", 1)) == 1
        gate.set()
        assert recorder.wait_for(3)
        assert sorted(recorder.done) == [("a", 0), ("a", 1), ("b", 0)]
    finally:
        runner.stop()


def start(game) -> None:
    services.game_start(game_id=game.id, user=game.created_by)


@pytest.mark.parametrize("level", SEARCHING)
def test_an_account_runs_only_so_many_tables_of_thinking_bots(settings, make_user, level):
    settings.BOT_RUNNER = "none"
    settings.BOT_SEARCH_TABLES_PER_ACCOUNT = 2
    host = make_user("host")
    for _ in range(2):
        start(game_with_bots(host, bots=1, level=level))
    third = game_with_bots(host, bots=1, level=level)
    with pytest.raises(Conflict) as refused:
        start(third)
    assert refused.value.code == "too_many_bot_tables"
    start(game_with_bots(host, bots=1, level="easy"))  # bots that do not search: no limit
    start(game_with_bots(make_user("guest"), bots=1, level=level))  # another account


def test_hard_and_expert_tables_count_together_against_the_allowance(settings, make_user):
    settings.BOT_RUNNER = "none"
    settings.BOT_SEARCH_TABLES_PER_ACCOUNT = 2
    host = make_user("host")
    start(game_with_bots(host, bots=1, level="hard"))
    start(game_with_bots(host, bots=1, level="expert"))
    for level in SEARCHING:
        with pytest.raises(Conflict) as refused:
            start(game_with_bots(host, bots=1, level=level))
        assert refused.value.code == "too_many_bot_tables"
    start(game_with_bots(host, bots=1, level="medium"))


@pytest.mark.parametrize("level", SEARCHING)
def test_an_account_thinks_within_its_budget(settings, make_user, level):
    settings.BOT_RUNNER = "none"
    settings.BOT_THINK_BUDGET_SECONDS = 25
    host = make_user("host")
    first = services.table_create(
        user=host, ruleset="kingdoms", seats=3, bot_think_seconds=10, join=False
    )
    for _ in range(2):
        services.bot_add(game_id=first.id, user=host, level=level)
    services.bot_add(game_id=first.id, user=host, level="easy")
    start(first)  # 2 thinking bots x 10 s
    second = services.table_create(user=host, ruleset="kingdoms", seats=2, bot_think_seconds=10)
    services.bot_add(game_id=second.id, user=host, level=level)
    with pytest.raises(Conflict) as refused:
        start(second)  # 20 s + 10 s of thinking a round: over 25
    assert refused.value.code == "bot_think_budget"
    services.bot_remove(game_id=second.id, user=host, seat_id=second.seats.get(bot_level=level).pk)
    services.bot_add(game_id=second.id, user=host, level="easy")
    start(second)


def test_a_hard_and_an_expert_bot_think_for_the_budget_together(settings, make_user):
    settings.BOT_RUNNER = "none"
    settings.BOT_THINK_BUDGET_SECONDS = 25
    host = make_user("host")
    first = services.table_create(
        user=host, ruleset="kingdoms", seats=2, bot_think_seconds=10, join=False
    )
    for level in SEARCHING:
        services.bot_add(game_id=first.id, user=host, level=level)
    start(first)  # a hard and an expert bot x 10 s
    second = services.table_create(user=host, ruleset="kingdoms", seats=2, bot_think_seconds=10)
    services.bot_add(game_id=second.id, user=host, level="expert")
    with pytest.raises(Conflict) as refused:
        start(second)  # 20 s + 10 s of thinking a round: over 25
    assert refused.value.code == "bot_think_budget"


@pytest.mark.parametrize(("first", "second"), [("hard", "expert"), ("expert", "hard")])
def test_a_table_that_alone_thinks_past_the_budget_cannot_take_another_thinking_bot(
    settings, make_user, first, second
):
    settings.BOT_THINK_BUDGET_SECONDS = 15
    host = make_user("host")
    game = services.table_create(
        user=host, ruleset="kingdoms", seats=3, bot_think_seconds=10, join=False
    )
    services.bot_add(game_id=game.id, user=host, level=first)
    for level in (first, second):
        with pytest.raises(Conflict) as refused:
            services.bot_add(game_id=game.id, user=host, level=level)
        assert refused.value.code == "bot_think_budget"
    services.bot_add(game_id=game.id, user=host, level="medium")
