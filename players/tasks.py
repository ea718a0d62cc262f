"""Celery tasks of the players app: they load ids and call a service (players.mail).
Autodiscovered by kingdom/celery.py; on the default queue, which the bots workers
also take (deploy/Procfile), never on the clocks queue."""

from __future__ import annotations

from celery import shared_task

from players import mail


@shared_task(name="players.tasks.turn_email", ignore_result=True)
def turn_email(user_id: int, game_id: str) -> bool:
    return mail.turn_email_send(user_id=user_id, game_id=game_id)
