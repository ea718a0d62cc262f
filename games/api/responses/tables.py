"""Rulesets, time controls, tables, their events and views (audits: audit.responses)."""

from __future__ import annotations

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

# The one import from community left in games: the audit documents the moderation
# actions (an enum of the record's) that community.selectors.moderation_of gives it.
from games.api.responses.errors import errors  # noqa: F401
from games.models import Game


# ---- rulesets and clocks -------------------------------------------------------------
class PickItemSerializer(serializers.Serializer):
    value = serializers.CharField()
    # The answer's own field; the name shadows DRF's attribute of the same name.
    label = serializers.CharField()  # type: ignore[assignment]
    needs = serializers.CharField(
        allow_null=True, help_text="the bool option that must be on for this item"
    )


class PickSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    items = PickItemSerializer(many=True)
    default_label = serializers.CharField(
        allow_null=True, help_text="what picking none gives (the option's default)"
    )


class OptionSerializer(serializers.Serializer):
    name = serializers.CharField()
    default = serializers.JSONField(help_text="any JSON value")
    description = serializers.CharField()
    choices = serializers.ListField(child=serializers.JSONField(), allow_null=True)
    type = serializers.CharField(help_text="the Python type name of the default")
    # For forms (optional to read; checking ignores them).
    # The answer's own field; the name shadows DRF's attribute of the same name.
    label = serializers.CharField(help_text="the option's name for players")  # type: ignore[assignment]
    labels = serializers.ListField(
        child=serializers.CharField(), allow_null=True, help_text="one per choice"
    )
    applies_when = serializers.DictField(
        child=serializers.JSONField(),
        allow_null=True,
        help_text="{option: value}: the option matters only when these options have these values",
    )
    pick = PickSerializer(allow_null=True, help_text="a list option: exactly count of items")
    control = serializers.CharField(
        allow_null=True, help_text='a special control, e.g. "board_sections"'
    )


class RulesetSerializer(serializers.Serializer):
    key = serializers.CharField()
    name = serializers.CharField()
    version = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = OptionSerializer(many=True)


class BoardSectionSerializer(serializers.Serializer):
    name = serializers.CharField()
    # The answer's own field; the name shadows DRF's attribute of the same name.
    label = serializers.CharField()  # type: ignore[assignment]
    expansion = serializers.CharField(help_text="base, nomads or crossroads")
    rows = serializers.ListField(
        child=serializers.CharField(),
        help_text="10 rows of 10 terrain letters, upright (GCDFTWM; S castle, L location, "
        "N nomad space); odd rows sit half a hex to the right",
    )


class TimeControlKindSerializer(serializers.Serializer):
    kind = serializers.CharField()
    # The answer's own field; the name shadows DRF's attribute of the same name.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.DictField(child=serializers.FloatField()),
        help_text='each field\'s {"min", "max", "default"}',
    )


class TimeControlSerializer(serializers.Serializer):
    """games.clocks.clean_time_control: the kind and that kind's fields."""

    kind = serializers.ChoiceField(choices=["none", "realtime", "turn"])
    minutes = serializers.IntegerField(required=False, help_text="realtime: minutes per player")
    increment_seconds = serializers.IntegerField(
        required=False, help_text="realtime: seconds added per move"
    )
    hours = serializers.IntegerField(required=False, help_text="turn: hours per move")


class TimeControlsSerializer(serializers.Serializer):
    default = TimeControlSerializer()
    kinds = TimeControlKindSerializer(many=True)


# ---- tables ---------------------------------------------------------------------------
class OutcomeSerializer(serializers.Serializer):
    """games.rules.base.Outcome.as_json: seats are rules seats, as strings in keys."""

    scores = serializers.DictField(child=serializers.IntegerField(), help_text="seat → score")
    ranking = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="groups of tied seats, best first",
    )
    winners = serializers.ListField(child=serializers.IntegerField())
    breakdown = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="seat → {scoring item → points}",
    )


class TableSeatSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True, help_text="rules seat (set at start)")
    name = serializers.CharField()
    user = serializers.CharField(allow_null=True)
    bot = serializers.CharField(allow_null=True, help_text="bot level, null for a person")
    resigned = serializers.BooleanField()
    expelled = serializers.BooleanField()
    kicked = serializers.BooleanField()
    bot_account = serializers.BooleanField(help_text="a bot account plays the seat (the bot API)")
    rating = serializers.IntegerField(allow_null=True)


class TableSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    ruleset = serializers.CharField()
    ruleset_name = serializers.CharField()
    ruleset_version = serializers.CharField()
    options = serializers.DictField(help_text="the ruleset's table options (GET /api/rulesets/)")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    seats_wanted = serializers.IntegerField()
    seats = TableSeatSerializer(many=True)
    host = serializers.CharField(allow_null=True)
    head_seq = serializers.IntegerField()
    seed_commitment = serializers.CharField(allow_blank=True)
    seed = serializers.CharField(allow_null=True, help_text="revealed once the game is over")
    created_at = serializers.DateTimeField()
    outcome = OutcomeSerializer(allow_null=True)
    time_control = TimeControlSerializer()
    seat_range = serializers.ListField(child=serializers.IntegerField())
    bot_think_seconds = serializers.FloatField()
    private = serializers.BooleanField(help_text="a challenge's table: seats by invitation only")


class TablePageSerializer(serializers.Serializer):
    """One page of the lobby's tables (games.api.pagination.TablePages)."""

    next = serializers.URLField(allow_null=True, help_text="the next (older) page, if any")
    previous = serializers.URLField(allow_null=True, help_text="the previous page, if any")
    results = TableSummarySerializer(many=True)


class RatingChangeSerializer(serializers.Serializer):
    username = serializers.CharField()
    place = serializers.IntegerField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    delta = serializers.FloatField()


class RematchSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    by = serializers.CharField(allow_null=True, help_text="its host")


class TableDetailSerializer(TableSummarySerializer):
    your_seat = serializers.IntegerField(allow_null=True)
    view_seq = serializers.IntegerField()
    view = serializers.DictField(allow_null=True, help_text="the ruleset's view for your seat")
    server_time_ms = serializers.IntegerField()
    rating_changes = RatingChangeSerializer(many=True)
    rematch = RematchSerializer(
        allow_null=True,
        help_text="once the game is over: the table one of its players opened to play it "
        "again, while it is open",
    )


class EventSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    # The answer's own field; the name shadows DRF's attribute of the same name.
    data = serializers.DictField(help_text="public part merged with your seat's private part")  # type: ignore[assignment]
    actor = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    text = serializers.CharField(help_text="the move log line")


class SubmittedSerializer(serializers.Serializer):
    head_seq = serializers.IntegerField()
    replayed = serializers.BooleanField()
    events = EventSerializer(many=True)


class EventsSerializer(serializers.Serializer):
    head_seq = serializers.IntegerField()
    events = EventSerializer(many=True)


class LegalSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    commands = serializers.ListField(child=serializers.DictField())


class ViewSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    state = serializers.DictField(allow_null=True)


DISCONNECTED = inline_serializer("Disconnected", {"closed": serializers.BooleanField()})
