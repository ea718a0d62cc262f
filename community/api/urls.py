"""Chat and moderation endpoints, under /api/ beside games' (kingdom/urls.py)."""

from django.urls import path

from community.api import views

urlpatterns = [
    # chat
    path("tables/<uuid:game_id>/chat/", views.TableChat.as_view(), name="table-chat"),
    path("chat/<int:message_id>/report/", views.ChatReport.as_view(), name="chat-report"),
    path("bot/game/<uuid:game_id>/chat/", views.BotChat.as_view(), name="bot-chat"),
    path("players/<str:username>/block/", views.PlayerBlock.as_view(), name="player-block"),
    # moderation (active staff with games.moderate)
    path("chat/<int:message_id>/hide/", views.ChatHide.as_view(), name="chat-hide"),
    path("tables/<uuid:game_id>/kick/", views.TableKick.as_view(), name="table-kick"),
    path("players/<str:username>/mute/", views.PlayerMute.as_view(), name="player-mute"),
    path("players/<str:username>/unmute/", views.PlayerUnmute.as_view(), name="player-unmute"),
    path("players/<str:username>/ban/", views.PlayerBan.as_view(), name="player-ban"),
    path("players/<str:username>/unban/", views.PlayerUnban.as_view(), name="player-unban"),
    path("moderation/reports/", views.ModerationQueue.as_view(), name="moderation-queue"),
    path(
        "moderation/reports/<int:report_id>/resolve/",
        views.ReportClose.as_view(),
        name="report-resolve",
    ),
    path(
        "moderation/reports/<int:report_id>/dismiss/",
        views.ReportDismiss.as_view(),
        name="report-dismiss",
    ),
    path("moderation/records/", views.ModerationRecords.as_view(), name="moderation-records"),
]
