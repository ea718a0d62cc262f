"""Every moderation action is on the record, with its moderator; only moderators act."""

from __future__ import annotations

import pytest

from audit import trail as audit_trail
from audit.stored import audit_game
from community import services as community_services
from community.models import ModerationRecord
from games import services
from games.errors import ServiceError
from games.models import Game, GameEvent
from games.services.moderation import streams_close
from tests.community.moderation.helpers import Action, record_of
from tests.games.helpers import humans_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_moderation_action_appears_in_the_audit_trail_with_its_moderator(four, mod):
    ana, bob, cy, _dee = four
    game = humans_game(four)
    line = community_services.chat_post(game_id=game.id, user=bob, body="rude words")
    report = community_services.chat_report(message_id=line.pk, user=ana, reason="rude")
    other = community_services.chat_report(
        message_id=community_services.chat_post(game_id=game.id, user=cy, body="hi").pk,
        user=ana,
        reason="mistake",
    )
    community_services.message_hide(message_id=line.pk, moderator=mod, reason="insult")
    community_services.report_close(
        report_id=report.pk, moderator=mod, resolved=True, note="hidden"
    )
    community_services.report_close(report_id=other.pk, moderator=mod, resolved=False, note="fine")
    community_services.player_mute(player=bob, moderator=mod, reason="insults", minutes=60)
    community_services.player_unmute(player=bob, moderator=mod, reason="apologised")
    services.player_kick(game_id=game.id, moderator=mod, player=cy, reason="threats")
    community_services.account_ban(player=bob, moderator=mod, reason="repeated insults")
    community_services.account_unban(player=bob, moderator=mod, reason="appeal accepted")
    streams_close(game_id=game.id, moderator=mod, reason="stuck clients")
    services.game_abort(game_id=game.id, staff_user=mod, reason="the table fell apart")
    waiting = services.table_create(user=ana, ruleset="kingdoms", seats=3)
    services.bot_add(game_id=waiting.id, user=mod, level="easy")  # at ana's table

    records = ModerationRecord.objects.all()
    assert {r.action for r in records} == set(Action.values)
    assert all(r.moderator_name == "mod" and r.moderator == mod for r in records)
    assert record_of(Action.HIDE_MESSAGE).reason == "insult"
    assert record_of(Action.BAN).target_user == bob
    # Actions on the game are events in its log, by the moderator, linked from the record.
    game_events = GameEvent.objects.filter(game=game, actor="staff:mod").order_by("seq")
    assert [e.type for e in game_events] == ["seat_kicked", "seat_kicked", "game_aborted"]
    kick_seqs = {r.event_seq for r in records.filter(action=Action.KICK)}
    assert kick_seqs == {e.seq for e in game_events if e.type == "seat_kicked"}
    assert record_of(Action.ABORT).event_seq == game_events.last().seq
    # ...and on the game's audit page.
    trail = audit_trail.audit_report(Game.objects.get(pk=game.id))
    assert {m["moderator"] for m in trail["moderation"]} == {"mod"}
    assert {m["action"] for m in trail["moderation"]} >= {
        "kick",
        "abort",
        "hide_message",
        "disconnect",
    }
    staff_lines = [e for e in trail["timeline"] if e["actor"] == "staff:mod"]
    assert len(staff_lines) == 3
    assert audit_game(Game.objects.get(pk=game.id)).passed


def test_moderators_only(trio, make_user):
    staff = make_user("staff", staff=True)
    game = humans_game(trio[:2])
    line = community_services.chat_post(game_id=game.id, user=trio[0], body="hello")
    attempts = [
        lambda who: community_services.message_hide(message_id=line.pk, moderator=who, reason="x"),
        lambda who: community_services.player_mute(player=trio[0], moderator=who, reason="x"),
        lambda who: services.player_kick(
            game_id=game.id, moderator=who, player=trio[0], reason="x"
        ),
        lambda who: community_services.account_ban(player=trio[0], moderator=who, reason="x"),
        lambda who: services.game_abort(game_id=game.id, staff_user=who, reason="x"),
        lambda who: streams_close(game_id=game.id, moderator=who, reason="x"),
    ]
    for actor in (trio[1], staff):
        for attempt in attempts:
            with pytest.raises(ServiceError) as err:
                attempt(actor)
            assert err.value.status == 403
    assert not ModerationRecord.objects.exists()
