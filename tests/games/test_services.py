"""The write path: tables, start, commands, idempotency, resign, abort."""

from __future__ import annotations

import uuid

import pytest

from games import services
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.rules import get_ruleset
from games.store import replay
from tests.games.helpers import make_moderator, table_with_bots

pytestmark = pytest.mark.django_db(transaction=True)


def started(user, **kwargs) -> Game:
    game = table_with_bots(user, **kwargs)
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
    game = table_with_bots(user, bots=4, join=False, level="easy")
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
