"""Every role against every endpoint: who may do what.

Roles at one timed table in progress (three people; the one to act has run out of time):
``anonymous``; ``player`` — the seat to act (out of time, may still move); ``other_player``
— another seat at the table; ``spectator`` — logged in, not seated; ``muted`` — logged in,
muted by a moderator; ``banned`` — an account a moderator banned, still holding a session
from before; ``staff`` — staff without the moderation permission; ``moderator`` — staff
with ``games.moderate``. The lobby endpoints act on an open table hosted by ``player``
that ``other_player`` joined.

Covered: the REST API, the pages, the WebSocket endpoints (game stream, chat, lobby) and
every moderation action of the Django admin.
"""
