"""HTTP + WebSocket entry point."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kingdom.settings")

from kingdom.ops.threading import get_asgi_application  # noqa: E402

# The middleware chain and the view in one thread, entered once (kingdom/ops/threading.py).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.api.command_route import CommandRoute  # noqa: E402
from kingdom.ops.body_limit import BodyLimit  # noqa: E402
from kingdom.ops.metrics import count_sockets  # noqa: E402
from kingdom.routing import websocket_urlpatterns  # noqa: E402
from players.tickets import TicketAuthMiddleware  # noqa: E402

router = URLRouter(websocket_urlpatterns)

application = ProtocolTypeRouter(
    {
        # API clients' moves skip Django's request (games/api/command_route.py says why);
        # a body over its limit or too slow is refused as it arrives (body_limit.py).
        "http": BodyLimit(CommandRoute(django_asgi_app)),
        # Browsers: an allowed Origin and the session cookie. API clients: ?ticket=
        # (players/tickets.py), which is the user, once.
        "websocket": count_sockets(
            TicketAuthMiddleware(
                browser=AllowedHostsOriginValidator(AuthMiddlewareStack(router)),
                ticketed=router,
            )
        ),
    }
)

# Under daphne, Twisted need not parse POST bodies as forms (kingdom/ops/daphne_requests.py).
from kingdom.ops.daphne_requests import leave_bodies_to_django  # noqa: E402

leave_bodies_to_django()

# Loaded: freeze it out of the collector's scans (kingdom/ops/collector.py says why).
from kingdom.ops.collector import tune_after_start_up  # noqa: E402

tune_after_start_up()
