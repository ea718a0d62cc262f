"""The Celery app. Bot turns run on the ``bots`` queue (see bots/tasks.py)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingdom.settings")

app = Celery("kingdom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
