"""The bots app keeps no tables of its own: the bot turns owed are on the game's row
(``Game.bots_due_at``, bots/outbox.py)."""
