"""Small helpers to set up tables through the services (the one write path)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games import services
from games.models import Game, GameEvent
from games.storage.chain import seed_commitment

# Event types after which a ruleset deals its secrets afresh: each Kingdoms epoch
# reshuffles every tile and deals new starting tiles, so a tile face up in epoch 1 may be
# another seat's secret starting tile (or lie unseen in the supply) in epoch 2.
FRESH_SECRETS_AFTER: dict[str, frozenset[str]] = {"kingdoms": frozenset({"epoch_started"})}
# Once the game is over every seat's private parts are shown to everyone (never "-1").
GAME_OVER_EVENTS = frozenset({"result_declared", "game_aborted"})


def game_with_bots(
    user,
    ruleset: str = "kingdoms",
    bots: int = 1,
    level: str = "easy",
    options: dict | None = None,
    join: bool = True,
) -> Game:
    game = services.table_create(
        user=user,
        ruleset=ruleset,
        seats=bots + (1 if join else 0),
        options=options or {},
        join=join,
    )
    for _ in range(bots):
        services.bot_add(game_id=game.id, user=user, level=level)
    return game


def make_moderator(user):
    """Give a staff user the games.moderate permission (and drop the cached perms)."""
    from django.contrib.auth.models import Permission

    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.add(
        Permission.objects.get(codename="moderate", content_type__app_label="games")
    )
    for cache in ("_perm_cache", "_user_perm_cache"):
        user.__dict__.pop(cache, None)
    return user


def humans_game(users, ruleset: str = "kingdoms", time_control: dict | None = None, bots: int = 0):
    """A started table of these users (the first hosts), plus ``bots`` easy bots."""
    host = users[0]
    game = services.table_create(
        user=host,
        ruleset=ruleset,
        seats=len(users) + bots,
        options={},
        time_control=time_control,
    )
    for user in users[1:]:
        services.table_join(game_id=game.id, user=user)
    for _ in range(bots):
        services.bot_add(game_id=game.id, user=host, level="easy")
    services.game_start(game_id=game.id, user=host)
    return Game.objects.get(pk=game.id)


def to_act(game: Game) -> set[int]:
    from games import storage
    from games import table as tables
    from games.rules import get_ruleset

    game.refresh_from_db()
    with storage.reading(game) as table:
        return tables.to_act(get_ruleset(game.ruleset), table)


def play_out(game: Game, users, moves: int | None = None, skip_seats=()) -> Game:
    """Play the first legal command for each person to act (bots move inline) until the
    game ends, or for ``moves`` commands. Seats in ``skip_seats`` are left waiting."""
    from games import selectors

    by_seat = {game.seats.get(user=u).number: u for u in users}
    played = 0
    while moves is None or played < moves:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        acting = [s for s in sorted(to_act(game)) if s in by_seat and s not in skip_seats]
        seat_rows = {s.number: s for s in game.seats.all()}
        acting = [s for s in acting if not seat_rows[s].departed]
        if not acting:
            break
        seat = acting[0]
        legal = selectors.legal_commands(game, seat)
        services.game_submit(game_id=game.id, user=by_seat[seat], command=legal[0])
        played += 1
    game.refresh_from_db()
    return game


def pin_seed(game: Game, seed: str) -> Game:
    """Give an open table a known secret seed (and its commitment) before it starts, so
    the seating, the deal and every random draw are the same on every run."""
    Game.objects.filter(pk=game.pk).update(seed=seed, seed_commitment=seed_commitment(seed))
    game.refresh_from_db()
    return game


def string_values(value: Any) -> set[str]:
    """Every string value inside a JSON value. Keys are left out: an option's name such as
    "wizard" is no secret."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(string_values(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(string_values(v) for v in value))
    return set()


def secrets_by_seq(
    ruleset: str, rows: Iterable[GameEvent], seat: int | None
) -> dict[int, frozenset[str]]:
    """For each seq, the values ``seat`` (None: a spectator) must not see just after that
    event: what another seat or the server (private "-1") holds, minus what is public and
    what the seat holds itself, within the current deal (a Kingdoms epoch; see
    ``FRESH_SECRETS_AFTER``). From the end of the game on, only server-only facts
    (private "-1") are secret. Computed from the auditor's rows, so it is exact."""
    fresh = FRESH_SECRETS_AFTER.get(ruleset, frozenset())
    public: set[str] = set()
    hidden: set[str] = set()
    own: set[str] = set()
    seats_parts: set[str] = set()  # every seat's private values, the whole game long
    over = False
    out: dict[int, frozenset[str]] = {}
    for row in rows:
        if row.type in fresh:
            public, hidden, own = set(), set(), set()
        public |= string_values(row.public)
        for key, data in row.private.items():
            (own if seat is not None and key == str(seat) else hidden).update(string_values(data))
            if key != "-1":
                seats_parts |= string_values(data)
        over = over or row.type in GAME_OVER_EVENTS
        if over:
            public |= seats_parts
        out[row.seq] = frozenset(hidden - public - own)
    return out


def seed_revealed_at(rows: Iterable[GameEvent], seed: str) -> int | None:
    """The seq of the first event that publishes the seed (None: still secret)."""
    return next((row.seq for row in rows if seed in string_values(row.public)), None)


def json_refusal(response) -> dict:
    """The body of a refusal the API answered as JSON: at least ``code`` and ``message``."""
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert {"code", "message"} <= set(body)
    return body
