"""The game's storage: the append-only event log, the state at its head, the locking read
of the write path, the hash chain and the signed checkpoints.

``log``: append and read events; ``state``: the per-process state cache and loading;
``locking``: the write path's locked read of a game; ``chain`` and ``signing``: what makes
a log auditable. Callers use ``storage.<name>``.
"""

from games.storage.log import (
    Actor,
    append,
    events_between,
    head_hash,
    jsonable,
    record_of,
    replay,
    to_event,
)
from games.storage.state import (
    CACHE_SIZE,
    StateCache,
    latest_snapshot,
    load_table,
    reading,
    state_cache,
)

__all__ = [
    "CACHE_SIZE",
    "Actor",
    "StateCache",
    "append",
    "events_between",
    "head_hash",
    "jsonable",
    "latest_snapshot",
    "load_table",
    "reading",
    "record_of",
    "replay",
    "state_cache",
    "to_event",
]
