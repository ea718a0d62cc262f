"""HTTP + WebSocket entry point: Django's own ASGI handler and Channels' routing."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingdom.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.api.stream_handoff import StreamHandoff  # noqa: E402
from infra.body_limit import BodyLimit  # noqa: E402
from infra.metrics import count_sockets  # noqa: E402
from infra.origin import SameOriginValidator  # noqa: E402
from kingdom.routing import websocket_urlpatterns  # noqa: E402
from players.tickets import TicketAuthMiddleware  # noqa: E402

router = URLRouter(websocket_urlpatterns)

application = ProtocolTypeRouter(
    {
        # A body over its limit or too slow is refused as it arrives (body_limit.py); an
        # open NDJSON stream's lines are sent once Django's handler is done with it
        # (games/api/stream_handoff.py).
        "http": StreamHandoff(BodyLimit(django_asgi_app)),
        # Browsers: this site's own Origin and the session cookie. API clients: ?ticket=
        # (players/tickets.py), which is the user, once.
        "websocket": count_sockets(
            TicketAuthMiddleware(
                browser=SameOriginValidator(AuthMiddlewareStack(router)),
                ticketed=router,
            )
        ),
    }
)

# Loaded: freeze it out of the collector's scans (infra/collector.py says why).
from infra.collector import tune_after_start_up  # noqa: E402

tune_after_start_up()
