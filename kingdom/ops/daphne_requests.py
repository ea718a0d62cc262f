"""daphne's requests leave their bodies to Django.

Twisted parses the Content-Type of every POST with the `email` package (an EmailMessage
per request) so as to fill ``request.args`` for HTML form posts. daphne never reads
``args``: it hands the raw body to the ASGI application, and Django parses forms itself.
Under moves sent by POST that parse was ~4% of a server process's CPU (py-spy, `bench
live --via http`).

Twisted has a switch for it (``Request(parsePOSTFormSubmission=False)``), but daphne builds
its requests without passing one, so this module gives daphne a request class with the
switch off. daphne looks its request class up when it builds each connection's protocol,
which lets kingdom/asgi.py, imported before the server starts, set it. A daphne that no
longer has that class is left as it is (the test in tests/kingdom/ says so).
"""

from __future__ import annotations

from typing import Any


def leave_bodies_to_django() -> bool:
    """Give daphne a request class that skips Twisted's form parsing; True if it took."""
    try:
        from daphne import http_protocol
    except ImportError:  # served by another ASGI server
        return False
    base = getattr(http_protocol, "WebRequest", None)
    if base is None:
        return False
    if getattr(base, "leaves_bodies_to_django", False):  # set up already
        return True

    class BodyLeftToDjango(base):
        leaves_bodies_to_django = True

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._parsePOSTFormSubmission = False

    http_protocol.WebRequest = BodyLeftToDjango
    return True
