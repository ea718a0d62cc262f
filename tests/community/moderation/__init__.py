"""Moderation: each action by a moderator, recorded with who and why; kicks and aborts
in the game's log too; the report queue; bans and mutes taking effect; the admin's
read-only logs."""
