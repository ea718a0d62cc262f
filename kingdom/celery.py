"""The Celery app. Bot turns run on the ``bots`` queue, the clock sweep on ``clocks``
(see bots/tasks.py and CELERY_TASK_ROUTES)."""

import logging.config
import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingdom.settings")

app = Celery("kingdom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Liveness: the worker's loop keeps HEARTBEAT_FILE fresh (infra/heartbeat.py).
app.steps["worker"].add("infra.heartbeat:WorkerHeartbeat")


@signals.setup_logging.connect
def _structured_logging(loglevel: Any = None, **_: Any) -> None:
    """Workers and beat log like the web processes (JSON lines with the request id);
    ``--loglevel`` still sets how much Celery itself says."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger("celery").setLevel(loglevel)


def _connect_ops_signals() -> None:
    from infra import logs, metrics

    # weak=False: the receivers are module functions, kept alive anyway; explicit.
    signals.before_task_publish.connect(logs.stamp_task_headers, weak=False)
    # A bot turn's wait in the queue (kingdom_bot_turn_lag_seconds).
    signals.before_task_publish.connect(metrics.stamp_published_at, weak=False)
    signals.task_prerun.connect(metrics.observe_turn_lag, weak=False)
    signals.task_prerun.connect(logs.bind_task_context, weak=False)
    signals.task_postrun.connect(logs.clear_task_context, weak=False)
    signals.worker_init.connect(metrics.start_worker_metrics_server, weak=False)
    signals.worker_process_shutdown.connect(metrics.mark_child_dead, weak=False)


_connect_ops_signals()
