from django.urls import path

from games.sockets.consumers import GameConsumer, LobbyConsumer, TurnsConsumer

websocket_urlpatterns = [
    path("ws/games/<uuid:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/turns/", TurnsConsumer.as_asgi()),
]
