"""The write path: tables, start, commands, idempotency, resign, abort."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connections

from games import services
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.rules import get_ruleset
from games.storage import replay
from tests.conftest import needs_postgres
from tests.games.helpers import game_with_bots, make_moderator, pin_seed, to_act

pytestmark = pytest.mark.django_db(transaction=True)


def started(user, **kwargs) -> Game:
    game = game_with_bots(user, **kwargs)
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    return game


def my_seat(game: Game, user) -> int:
    return game.seats.get(user=user).number


def a_legal_command(game: Game, seat: int) -> dict:
    table = replay(game)
    return get_ruleset(game.ruleset).legal_commands(table.rules, seat)[0]


def play_until_my_turn(game: Game, user) -> int:
    """Bots run inline, so after start (or our command) it is our turn or the game is over."""
    game.refresh_from_db()
    return my_seat(game, user)


def test_create_declares_seed_commitment_but_keeps_seed(make_user):
    user = make_user()
    game = services.table_create(user=user, ruleset="kingdoms", seats=2)
    assert len(game.seed_commitment) == 64
    assert game.revealed_seed is None
    assert game.seats.count() == 1


def test_create_refuses_unknown_ruleset_and_bad_options(make_user):
    user = make_user()
    with pytest.raises(ServiceError) as err:
        services.table_create(user=user, ruleset="chess", seats=2)
    assert err.value.code == "unknown_ruleset"
    with pytest.raises(ServiceError) as err:
        services.table_create(user=user, ruleset="kingdoms", seats=2, options={"nope": 1})
    assert err.value.code == "unknown_option"
    with pytest.raises(ServiceError) as err:
        services.table_create(user=user, ruleset="kingdoms", seats=7)
    assert err.value.code == "bad_seats"


def test_join_leave_and_full_table(make_user):
    host, ana, bob = make_user("host"), make_user("ana2"), make_user("bob")
    game = services.table_create(user=host, ruleset="kingdoms", seats=2)
    services.table_join(game_id=game.id, user=ana)
    with pytest.raises(ServiceError) as err:
        services.table_join(game_id=game.id, user=bob)
    assert err.value.code == "table_full"
    services.table_leave(game_id=game.id, user=ana)
    services.table_join(game_id=game.id, user=bob)
    assert {s.user.username for s in game.seats.all()} == {"host", "bob"}


def test_only_host_adds_bots_and_starts(make_user):
    host, other = make_user("host"), make_user("other")
    game = services.table_create(user=host, ruleset="kingdoms", seats=3)
    with pytest.raises(ServiceError) as err:
        services.bot_add(game_id=game.id, user=other)
    assert err.value.status == 403
    services.bot_add(game_id=game.id, user=host)
    with pytest.raises(ServiceError):
        services.game_start(game_id=game.id, user=other)


def test_the_host_adds_bots_of_every_level_the_strategies_play(make_user, settings):
    from bots.strategies import LEVELS

    settings.BOT_RUNNER = "none"  # their turns are tests/bots/test_turns.py's
    assert services.BOT_LEVELS == LEVELS
    host = make_user("host")
    game = services.table_create(user=host, ruleset="kingdoms", seats=4, join=False)
    seats = [services.bot_add(game_id=game.id, user=host, level=level) for level in LEVELS]
    assert [(s.bot_level, s.display_name) for s in seats] == [
        ("easy", "Bot 1 (easy)"),
        ("medium", "Bot 2 (medium)"),
        ("hard", "Bot 3 (hard)"),
        ("expert", "Bot 4 (expert)"),
    ]
    game = services.game_start(game_id=game.id, user=host)
    assert game.status == Game.Status.ACTIVE


def test_a_bot_level_the_tables_do_not_offer_is_refused(make_user):
    host = make_user("host")
    game = services.table_create(user=host, ruleset="kingdoms", seats=2)
    with pytest.raises(ServiceError) as err:
        services.bot_add(game_id=game.id, user=host, level="grandmaster")
    assert err.value.code == "bad_bot_level" and "expert" in err.value.message
    assert not game.seats.exclude(bot_level="").exists()


def test_start_seats_everyone_and_writes_setup_events(make_user):
    user = make_user()
    game = started(user, bots=2)
    assert game.status == Game.Status.ACTIVE
    assert sorted(game.seats.values_list("number", flat=True)) == [0, 1, 2]
    first = GameEvent.objects.get(game=game, seq=1)
    assert first.type == "table_started"
    assert first.public["seed_commitment"] == game.seed_commitment
    assert game.seed not in str(first.public)


def test_submit_is_idempotent_on_command_id(make_user):
    user = make_user()
    game = started(user, bots=1, level="easy")
    seat = play_until_my_turn(game, user)
    command = a_legal_command(game, seat)
    command_id = uuid.uuid4()
    head = game.head_seq
    first = services.game_submit(
        game_id=game.id, user=user, command=command, command_id=command_id, expected_seq=head
    )
    again = services.game_submit(
        game_id=game.id, user=user, command=command, command_id=command_id, expected_seq=head
    )
    assert again.replayed
    assert [e.seq for e in again.events] == [e.seq for e in first.events]
    assert GameEvent.objects.filter(game=game, command_id=command_id).count() == 1


def test_command_id_reused_for_another_command_is_refused(make_user):
    user = make_user()
    game = started(user, bots=1)
    seat = play_until_my_turn(game, user)
    command_id = uuid.uuid4()
    services.game_submit(
        game_id=game.id, user=user, command=a_legal_command(game, seat), command_id=command_id
    )
    with pytest.raises(ServiceError) as err:
        services.game_submit(
            game_id=game.id, user=user, command={"type": "pass"}, command_id=command_id
        )
    assert err.value.code == "command_id_reused"


def test_stale_expected_seq_is_a_conflict_with_the_head(make_user):
    user = make_user()
    game = started(user, bots=1)
    seat = play_until_my_turn(game, user)
    with pytest.raises(ServiceError) as err:
        services.game_submit(
            game_id=game.id,
            user=user,
            command=a_legal_command(game, seat),
            expected_seq=game.head_seq - 1,
        )
    assert err.value.status == 409
    assert err.value.extra["head"] == game.head_seq


def test_illegal_command_changes_nothing(make_user):
    user = make_user()
    game = started(user, bots=1)
    head = game.head_seq
    for junk in [
        {"type": "fly"},
        {"type": "place_castle", "rank": 9, "space": [0, 0]},
        {"type": "place_castle", "rank": 1, "space": "x"},
        {},
    ]:
        with pytest.raises(ServiceError) as err:
            services.game_submit(game_id=game.id, user=user, command=junk)
        assert 400 <= err.value.status < 500
    game.refresh_from_db()
    assert game.head_seq == head


def test_spectator_cannot_submit(make_user):
    user, stranger = make_user(), make_user("stranger")
    game = started(user, bots=1)
    with pytest.raises(ServiceError) as err:
        services.game_submit(game_id=game.id, user=stranger, command={"type": "pass"})
    assert err.value.code == "not_seated"


def test_all_bot_game_plays_to_the_end_inline(make_user):
    user = make_user()
    game = game_with_bots(user, bots=4, join=False, level="easy")
    services.game_start(game_id=game.id, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.outcome["ranking"]
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last.type == "result_declared"
    assert last.public["seed"] == game.seed
    assert game.revealed_seed == game.seed


def test_resign_in_two_player_game_ends_it_and_ranks_resigner_last(make_user):
    user = make_user()
    game = started(user, bots=1)
    seat = my_seat(game, user)
    services.game_resign(game_id=game.id, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.outcome["ranking"][-1] == [seat]


def test_resign_in_three_player_game_hands_the_seat_to_a_bot(make_user):
    user = make_user()
    game = started(user, bots=2)
    seat = my_seat(game, user)
    services.game_resign(game_id=game.id, user=user)
    game.refresh_from_db()
    # The bots (and the new bot in the resigned seat) play on to the end.
    assert game.status == Game.Status.FINISHED
    assert game.outcome["ranking"][-1] == [seat]
    assert game.seats.get(user=user).resigned


def test_abort_needs_the_moderation_permission_and_appends_an_event(make_user):
    user, staff = make_user(), make_user("staff", staff=True)
    mod = make_moderator(make_user("mod"))
    game = started(user, bots=1)
    with pytest.raises(ServiceError):
        services.game_abort(game_id=game.id, staff_user=user, reason="x")
    with pytest.raises(ServiceError) as err:
        services.game_abort(game_id=game.id, staff_user=staff, reason="x")
    assert err.value.status == 403
    services.game_abort(game_id=game.id, staff_user=mod, reason="cheating report")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    last = GameEvent.objects.filter(game=game).order_by("-seq").first()
    assert last.type == "game_aborted"
    assert last.actor == "staff:mod"
    assert last.public["reason"] == "cheating report"


# A five-player Kingdom Cards deal in which at least two seats besides the first
# challenger can lay a group at once (found by trying seeds; the test says if it stops).
BYSTANDERS_SEED = "kingdom-cards-bystanders-0"


def kingdom_cards_battle(make_user) -> tuple[Game, dict[int, object], int, list[int]]:
    """Five people at a pinned deal; seat 0 challenges a seat that cannot lay a group.
    Returns the game, users by seat, the defender, and two bystanders who can lay one."""
    users = [make_user(f"p{i}") for i in range(5)]
    game = services.table_create(user=users[0], ruleset="kingdom-cards", seats=5)
    for user in users[1:]:
        services.table_join(game_id=game.id, user=user)
    pin_seed(game, BYSTANDERS_SEED)
    services.game_start(game_id=game.id, user=users[0])
    by_seat = {s.number: s.user for s in game.seats.select_related("user")}
    rules = get_ruleset("kingdom-cards")

    def can_lay(seat: int) -> bool:
        legal = rules.legal_commands(replay(game).rules, seat)
        return any(c["type"] == "lay_group" for c in legal)

    layers = [s for s in range(1, 5) if can_lay(s)]
    others = [s for s in range(1, 5) if s not in layers[:2]]
    assert len(layers) >= 2, f"pick another BYSTANDERS_SEED: only {layers} can lay a group"
    defender = others[0]
    services.game_submit(
        game_id=game.id, user=by_seat[0], command={"type": "challenge", "seat": defender}
    )
    game.refresh_from_db()
    return game, by_seat, defender, layers[:2]


def lay_group_of(game: Game, seat: int) -> dict:
    legal = get_ruleset("kingdom-cards").legal_commands(replay(game).rules, seat)
    return next(c for c in legal if c["type"] == "lay_group")


@pytest.mark.parametrize("reverse", [False, True], ids=["lower seat first", "higher seat first"])
def test_bystanders_change_their_kingdoms_during_a_battle_in_either_order(make_user, reverse):
    game, by_seat, defender, bystanders = kingdom_cards_battle(make_user)
    assert to_act(game) >= {defender, *bystanders}
    first, second = reversed(bystanders) if reverse else bystanders
    head = game.head_seq
    commands = {seat: lay_group_of(game, seat) for seat in bystanders}
    # No expected_seq: each is decided at whatever head the lock finds.
    done = [
        services.game_submit(game_id=game.id, user=by_seat[seat], command=commands[seat])
        for seat in (first, second)
    ]
    assert [e.seq for e in done[0].events] == list(range(head + 1, done[0].head_seq + 1))
    assert [e.seq for e in done[1].events] == list(
        range(done[0].head_seq + 1, done[1].head_seq + 1)
    )
    rows = list(GameEvent.objects.filter(game=game, seq__gt=head).order_by("seq"))
    laid = [(r.actor, r.public["seat"], r.public["cards"]) for r in rows if r.type == "group_laid"]
    assert laid == [(f"seat:{seat}", seat, commands[seat]["cards"]) for seat in (first, second)]
    assert [r.command for r in rows if r.command is not None] == [commands[first], commands[second]]
    # The battle still waits for its defender, whose client last saw the head before.
    assert defender in to_act(game)
    bid = get_ruleset("kingdom-cards").legal_commands(replay(game).rules, defender)[0]
    assert bid["type"] == "bid"
    with pytest.raises(ServiceError) as err:
        services.game_submit(
            game_id=game.id, user=by_seat[defender], command=bid, expected_seq=head
        )
    assert err.value.status == 409 and err.value.code == "stale_seq"
    assert err.value.extra["head"] == done[1].head_seq
    assert GameEvent.objects.filter(game=game).count() == done[1].head_seq


@needs_postgres
def test_bystanders_changing_at_the_same_moment_are_appended_one_after_the_other(make_user):
    game, by_seat, _, bystanders = kingdom_cards_battle(make_user)
    head = game.head_seq
    commands = {seat: lay_group_of(game, seat) for seat in bystanders}
    together = threading.Barrier(len(bystanders))
    done: dict[int, services.Submitted] = {}
    failed: list[BaseException] = []

    def change(seat: int) -> None:
        together.wait()
        try:
            done[seat] = services.game_submit(
                game_id=game.id, user=by_seat[seat], command=commands[seat]
            )
        except BaseException as exc:  # reported below, in the test's thread
            failed.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=change, args=(seat,)) for seat in bystanders]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    # Whichever took the lock first appended first; the other followed at the next seq.
    spans = sorted((r.events[0].seq, r.head_seq) for r in done.values())
    assert spans[0][0] == head + 1 and spans[1][0] == spans[0][1] + 1
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, spans[1][1] + 1))
