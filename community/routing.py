from django.urls import path

from community.consumers import ChatConsumer

websocket_urlpatterns = [
    path("ws/games/<uuid:game_id>/chat/", ChatConsumer.as_asgi()),
]
