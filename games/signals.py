"""What games announces to the rest of the project, so games imports none of it.

``staff_acted``: a moderator changed a game (kicked a seat, aborted it, closed its
sockets, acted as its host). Sent inside the service's transaction, before commit, with
``moderator``, ``action`` (one of ACTIONS), ``reason``, ``game``, ``target_user`` (or
None) and ``event_seq`` (the event appended, or None). The community app writes the
moderation record from it (community/receivers.py).
"""

from __future__ import annotations

from django.dispatch import Signal

KICK, ABORT, DISCONNECT, HOST_ACTION = "kick", "abort", "disconnect", "host_action"
ACTIONS = (KICK, ABORT, DISCONNECT, HOST_ACTION)

staff_acted = Signal()
