"""What games announces to the rest of the project, so games imports none of it.

``staff_acted``: a moderator changed a game (kicked a seat, aborted it, closed its
sockets, acted as its host). Sent inside the service's transaction, before commit, with
``moderator``, ``action`` (one of ACTIONS), ``reason``, ``game``, ``target_user`` (or
None) and ``event_seq`` (the event appended, or None). The community app writes the
moderation record from it (community/receivers.py).

``game_finished``: a command finished a game (status FINISHED; not an abort). Sent INSIDE
the transaction that records the finishing events, with ``game`` (its outcome set) and
``table`` (the state after the final event): the players app records the ratings from it
(players/receivers.py) in the same transaction as the finishing event, so a failed rating
write rolls the move back and a result is never left unrated. Receivers must not swallow
their errors for the same reason (sent with ``send``).

``bot_turns_due``: after commit, bot seats may have to act. Sent with ``game``,
``head_seq`` and ``bot_turns``: the (seat, bot level) pairs the write found at its
head, or None when the receiver has to find them itself (a table just started). The
bots app sends them (bots/scheduling.py). Sent with ``send_robust``: the move is
committed, so a receiver's failure (a broker down) is logged and the other steps after
commit still run; the bots app sends again a bot turn that was lost that way, from the
game row's ``bots_due_at`` (recorded with the move that made it due).

``turn_passed``: after commit, at a turn-based table (hours per move), people other than
the mover are now to act. Sent with ``game``, ``head_seq`` and ``user_ids`` (their
accounts). The players app mails them "your turn" (players/receivers.py). Sent with
``send_robust``, for the same reason as ``bot_turns_due``; a lost email is not sent again.
"""

from __future__ import annotations

from django.dispatch import Signal

KICK, ABORT, DISCONNECT, HOST_ACTION = "kick", "abort", "disconnect", "host_action"
ACTIONS = (KICK, ABORT, DISCONNECT, HOST_ACTION)

staff_acted = Signal()
game_finished = Signal()
bot_turns_due = Signal()
turn_passed = Signal()
