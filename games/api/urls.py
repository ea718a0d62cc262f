from django.urls import path

from games.api import challenges, clocks, keys, quick_match, streams, views

urlpatterns = [
    # First: Django tries the patterns in order, and most of the API's requests are moves.
    path("tables/<uuid:game_id>/commands/", views.TableCommands.as_view(), name="table-commands"),
    path("rulesets/", views.RulesetList.as_view(), name="rulesets"),
    path(
        "rulesets/kingdom-builder/sections/",
        views.BoardSections.as_view(),
        name="kingdom-builder-sections",
    ),
    path("tables/", views.TableList.as_view(), name="tables"),
    path("tables/<uuid:game_id>/", views.TableDetail.as_view(), name="table"),
    path("tables/<uuid:game_id>/join/", views.TableJoin.as_view(), name="table-join"),
    path("tables/<uuid:game_id>/leave/", views.TableLeave.as_view(), name="table-leave"),
    path("tables/<uuid:game_id>/start/", views.TableStart.as_view(), name="table-start"),
    path("tables/<uuid:game_id>/rematch/", views.TableRematch.as_view(), name="table-rematch"),
    path("tables/<uuid:game_id>/bots/", views.TableBots.as_view(), name="table-bots"),
    path(
        "tables/<uuid:game_id>/bots/<int:seat_id>/",
        views.TableBotDetail.as_view(),
        name="table-bot",
    ),
    path("tables/<uuid:game_id>/resign/", views.TableResign.as_view(), name="table-resign"),
    path("tables/<uuid:game_id>/abort/", views.TableAbort.as_view(), name="table-abort"),
    path(
        "tables/<uuid:game_id>/disconnect/",
        views.TableDisconnect.as_view(),
        name="table-disconnect",
    ),
    path("tables/<uuid:game_id>/legal/", views.TableLegal.as_view(), name="table-legal"),
    path("tables/<uuid:game_id>/events/", views.TableEvents.as_view(), name="table-events"),
    path("tables/<uuid:game_id>/view/", views.TableView.as_view(), name="table-view"),
    # tables/<id>/audit/ and tables/<id>/audit/trail/: audit.urls
    # quick match and the lobby's counts
    path("quick-match/", quick_match.QuickMatch.as_view(), name="quick-match"),
    path("lobby/counts/", quick_match.LobbyCounts.as_view(), name="lobby-counts"),
    # clocks
    path("time-controls/", clocks.TimeControls.as_view(), name="time-controls"),
    path("tables/<uuid:game_id>/skip/", clocks.TableSkip.as_view(), name="table-skip"),
    path("tables/<uuid:game_id>/expel/", clocks.TableExpel.as_view(), name="table-expel"),
    # challenges and the bot API (docs/bot-api.md); a game's chat: community.api.urls
    path("challenge/", challenges.ChallengeList.as_view(), name="challenges"),
    path(
        "challenge/<uuid:challenge_id>/accept/",
        challenges.ChallengeAccept.as_view(),
        name="challenge-accept",
    ),
    path(
        "challenge/<uuid:challenge_id>/decline/",
        challenges.ChallengeDecline.as_view(),
        name="challenge-decline",
    ),
    path(
        "challenge/<uuid:challenge_id>/cancel/",
        challenges.ChallengeCancel.as_view(),
        name="challenge-cancel",
    ),
    path("challenge/<str:username>/", challenges.ChallengeCreate.as_view(), name="challenge"),
    path("stream/event/", streams.account_stream, name="stream-event"),
    path("bot/game/stream/<uuid:game_id>/", streams.game_stream, name="bot-game-stream"),
    path("bot/game/<uuid:game_id>/move/", challenges.BotMove.as_view(), name="bot-move"),
    path("bot/game/<uuid:game_id>/resign/", challenges.BotResign.as_view(), name="bot-resign"),
    path("bot/game/<uuid:game_id>/abort/", challenges.BotAbort.as_view(), name="bot-abort"),
    # the public keys that sign checkpoints of game logs
    path("keys/", keys.SigningKeys.as_view(), name="signing-keys"),
]
