"""Every WebSocket route of the project: the games' and the community's (chat)."""

from community.routing import websocket_urlpatterns as community_sockets
from games.sockets.routing import websocket_urlpatterns as game_sockets

websocket_urlpatterns = [*game_sockets, *community_sockets]
