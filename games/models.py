"""The event store's tables: Game, Seat, GameEvent (append-only) and Snapshot."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open"
        ACTIVE = "active", "in progress"
        FINISHED = "finished", "finished"
        ABORTED = "aborted", "aborted"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    ruleset = models.CharField(max_length=40)
    ruleset_version = models.CharField(max_length=20)
    options = models.JSONField(default=dict, blank=True)
    seats_wanted = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    head_seq = models.PositiveIntegerField(default=0)
    # sha256(seed) is public from the start; the seed itself stays on the server until
    # the game ends (then it is revealed in the result_declared event and the API).
    seed = models.CharField(max_length=64, blank=True, editable=False)
    seed_commitment = models.CharField(max_length=64, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    # A table setting of the service (see games/clocks.py): {"kind": "none"} by default.
    time_control = models.JSONField(default=dict, blank=True)
    # A table setting of the service: seconds a search bot (``hard``, ``expert``) may think
    # per move; empty means the server's BOT_THINK_SECONDS.
    bot_think_seconds = models.FloatField(null=True, blank=True)
    # When the first running clock runs out (a cache of the log's clock state, kept under
    # the game's lock): the clock sweep looks only at games whose deadline has passed.
    clock_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # Bot turns owed at the head (written with the move that made them due, in the
    # recorder's statement): when the bots app sends them again unless their task ran
    # first, and how many times it did (bots/scheduling.py). None: no bot turn is owed.
    bots_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    bots_sends = models.PositiveSmallIntegerField(default=0)
    # The game over whose players this table was opened for (a rematch): they are shown
    # the way to it from that game's page.
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    # A challenge's table: not listed in the lobby, and its seats are taken only by the
    # players its host challenged (games/services/challenges.py) or the host's bots.
    private = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "ruleset"])]
        # "games.moderate": kept on Game when the moderation models moved to community,
        # so the permission's name (and every grant of it) stays as it was.
        permissions = [("moderate", "Can moderate: hide, mute, kick, abort, ban, handle reports")]

    def __str__(self) -> str:
        return f"{self.ruleset} {str(self.id)[:8]} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABORTED}

    @property
    def think_seconds(self) -> float:
        """A search bot's thinking time per move here: the table's, else the server's."""
        return self.bot_think_seconds or settings.BOT_THINK_SECONDS

    @property
    def revealed_seed(self) -> str | None:
        return self.seed if self.is_over else None


class Seat(models.Model):
    """A chair at the table. ``number`` is the rules engine's seat (set at start)."""

    game = models.ForeignKey(Game, related_name="seats", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    joined_order = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    bot_level = models.CharField(max_length=10, blank=True)
    # A human who resigned keeps the seat's history; a bot plays the seat from then on.
    resigned = models.BooleanField(default=False)
    # Expelled by the other players after a timeout / removed by a moderator: the same,
    # a bot plays on, the seat ranks last and the game is unrated.
    expelled = models.BooleanField(default=False)
    kicked = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "number", "joined_order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
        ]

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def departed(self) -> bool:
        """The player left the table (resigned, expelled or kicked); a bot plays on."""
        return self.resigned or self.expelled or self.kicked

    @property
    def display_name(self) -> str:
        user = self.user  # None without a query when there is no user_id
        if user is not None and not self.is_bot:
            return user.username
        if user is not None and self.is_bot:
            return f"{user.username} (bot)"
        return f"Bot {self.joined_order + 1} ({self.bot_level})"

    def __str__(self) -> str:
        return f"seat {self.number} of {self.game_id}: {self.display_name}"


class GameEvent(models.Model):
    """One fact in a game's log. Never updated or deleted (a trigger refuses it on PG)."""

    # No index of its own: unique_event_seq's (game, seq) serves every lookup by game, and
    # one index fewer is less work for every event appended.
    game = models.ForeignKey(Game, related_name="events", on_delete=models.PROTECT, db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=40)
    public = models.JSONField(default=dict)
    # {"<seat>": {...}}; key "-1" holds server-only facts (e.g. a deck's order).
    private = models.JSONField(default=dict)
    actor = models.CharField(max_length=80)
    # The command and its id sit on the first event a command produced.
    command_id = models.UUIDField(null=True, blank=True)
    command = models.JSONField(null=True, blank=True)
    recorded_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq"),
            models.UniqueConstraint(
                fields=["game", "command_id"],
                condition=models.Q(command_id__isnull=False),
                name="unique_event_command_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq} {self.type}"


class Snapshot(models.Model):
    """The engine's dumped state after event ``seq``: loading starts from the latest.

    Each snapshot is also a signed checkpoint (games/storage/signing.py): the server's Ed25519
    signature of (game, seq, the hash of event ``seq``), which anyone holding the
    published key checks offline. Never updated or deleted (a trigger refuses it on PG).
    """

    # No index of its own: unique_snapshot_seq's (game, seq) serves it.
    game = models.ForeignKey(
        Game, related_name="snapshots", on_delete=models.CASCADE, db_index=False
    )
    seq = models.PositiveIntegerField()
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    head_hash = models.CharField(max_length=64, blank=True)
    key_id = models.CharField(max_length=64, blank=True)
    signature = models.CharField(max_length=100, blank=True)

    class Meta:
        ordering = ["game", "-seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="unique_snapshot_seq")]


class Challenge(models.Model):
    """An invitation of one player to a seat at a table of the challenger's. The table
    starts when every invited seat has accepted (games/services/challenges.py)."""

    class Status(models.TextChoices):
        CREATED = "created", "waiting for an answer"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        CANCELED = "canceled", "canceled"
        EXPIRED = "expired", "expired"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    game = models.ForeignKey(Game, related_name="challenges", on_delete=models.CASCADE)
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="challenges_made", on_delete=models.CASCADE
    )
    challenged = models.ForeignKey(
        settings.AUTH_USER_MODEL, related_name="challenges_received", on_delete=models.CASCADE
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CREATED)
    decline_reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["challenged", "status"]),
            models.Index(fields=["challenger", "status"]),
        ]
        constraints = [
            # One invitation per player and table while it is open or accepted.
            models.UniqueConstraint(
                fields=["game", "challenged"],
                condition=models.Q(status__in=["created", "accepted"]),
                name="one_live_challenge_per_seat",
            )
        ]

    def __str__(self) -> str:
        return f"challenge {str(self.id)[:8]} of {self.challenged_id} ({self.status})"


class MatchRequest(models.Model):
    """A player looking for a game of ``ruleset`` with ``seats`` seats (the lobby's "Find
    me a game"): the next people who ask for the same sit down together; after
    ``bots_after`` seconds (None: never) the empty seats are the service's bots
    (games/services/matchmaking.py). One per player."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, related_name="match_request", on_delete=models.CASCADE
    )
    ruleset = models.CharField(max_length=40)
    seats = models.PositiveSmallIntegerField()
    bots_after = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The table it was seated at (kept for the player's next look, then dropped).
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["ruleset", "seats", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} looking for {self.ruleset} ({self.seats})"


class Presence(models.Model):
    """When a signed-in player last had a lobby or table socket open (touched on connect
    and at most once a minute after): the lobby counts who is online from it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, related_name="presence", on_delete=models.CASCADE
    )
    seen_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.user_id} seen {self.seen_at:%H:%M:%S}"
