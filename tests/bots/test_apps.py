"""The embedded ticker starts once, in the process that serves (bots/apps.py)."""

from __future__ import annotations

import threading

import pytest

from bots.apps import serving


@pytest.mark.parametrize(
    ("argv", "environ", "serves"),
    [
        (["manage.py", "runserver", "--noreload"], {}, True),
        (["manage.py", "runserver"], {"RUN_MAIN": "true"}, True),
        (["manage.py", "runserver"], {}, False),  # the reloader's parent only watches files
        (["/srv/.venv/bin/daphne", "kingdom.asgi:application"], {}, True),
        (
            ["/usr/lib/python3/site-packages/daphne/__main__.py", "kingdom.asgi:application"],
            {},
            True,
        ),
        (["manage.py", "migrate"], {}, False),
        (["manage.py", "sweep_clocks", "--loop"], {}, False),
        (["/srv/.venv/bin/celery", "-A", "kingdom", "worker"], {}, False),
        (["/srv/.venv/bin/pytest"], {}, False),
    ],
)
def test_only_the_serving_process_starts_the_ticker(argv, environ, serves):
    assert serving(argv, environ) is serves


def test_the_test_run_started_no_ticker_thread():
    assert "clock-sweep" not in {thread.name for thread in threading.enumerate()}
