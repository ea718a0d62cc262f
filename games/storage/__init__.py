"""The game's storage: the append-only event log, the game at its head as this process
holds it, the recorder that writes a command's events, the hash chain and the signed
checkpoints.

``log``: new rows and reads of the log; ``state``: the per-process heads and loading;
``recorder``: one conditional statement per write; ``chain`` and ``signing``: what makes
a log auditable. Callers use ``storage.<name>``.
"""

from games.storage import recorder
from games.storage.log import (
    Actor,
    checkpoint_after,
    event_record,
    events_between,
    head_hash,
    jsonable,
    new_rows,
    record_of,
    replay,
    to_event,
)
from games.storage.state import (
    CACHE_SIZE,
    Head,
    HeadCache,
    head_at,
    heads,
    latest_snapshot,
    load_table,
    reading,
    with_seats,
)

__all__ = [
    "CACHE_SIZE",
    "Actor",
    "Head",
    "HeadCache",
    "checkpoint_after",
    "event_record",
    "events_between",
    "head_at",
    "head_hash",
    "heads",
    "jsonable",
    "latest_snapshot",
    "load_table",
    "new_rows",
    "reading",
    "record_of",
    "recorder",
    "replay",
    "to_event",
    "with_seats",
]
