"""Small helpers to set up tables through the services (the one write path)."""

from __future__ import annotations

from games import services
from games.models import Game


def table_with_bots(
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


def humans_table(users, ruleset: str = "kingdoms", time_control: dict | None = None, bots: int = 0):
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
    from games import store
    from games import table as tables
    from games.rules import get_ruleset

    game.refresh_from_db()
    with store.reading(game) as table:
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
