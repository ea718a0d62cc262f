from django.urls import path

from games.consumers import ChatConsumer, GameConsumer, LobbyConsumer

websocket_urlpatterns = [
    path("ws/games/<uuid:game_id>/", GameConsumer.as_asgi()),
    path("ws/games/<uuid:game_id>/chat/", ChatConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
