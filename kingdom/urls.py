from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games import pages, rules_page
from infra import health, metrics
from players import api as player_api
from players import pages as player_pages

urlpatterns = [
    # First: a move's POST resolves after a few patterns, not ~30 (1–2% of its CPU).
    path("api/", include("games.api.urls")),
    # Also answered ahead of every middleware by infra.health.OpsMiddleware.
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    path("favicon.ico", RedirectView.as_view(url="/static/favicon.svg", permanent=True)),
    path("", pages.lobby, name="lobby"),
    path("tables/<uuid:game_id>/", pages.table, name="table-page"),
    # The audit page, and its API under api/tables/<id>/audit/.
    path("", include("audit.urls")),
    path("rules/<str:ruleset>/", rules_page.rules, name="rules-page"),
    path("leaderboard/", player_pages.leaderboards, name="leaderboards"),
    path("leaderboard/<str:ruleset>/", player_pages.leaderboard, name="leaderboard"),
    path("players/<str:username>/", player_pages.profile, name="profile"),
    path("accounts/", include("players.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("community.api.urls")),
    path(
        "api/leaderboards/<str:ruleset>/",
        player_api.Leaderboard.as_view(),
        name="api-leaderboard",
    ),
    path(
        "api/players/<str:username>/ratings/",
        player_api.PlayerRatings.as_view(),
        name="api-player-ratings",
    ),
    path("api/auth/signup/", player_api.SignupApi.as_view(), name="api-signup"),
    path("api/auth/token/", player_api.TokenObtain.as_view(), name="api-token"),
    path("api/auth/token/revoke/", player_api.TokenRevoke.as_view(), name="api-token-revoke"),
    path("api/auth/ws-ticket/", player_api.WsTicket.as_view(), name="api-ws-ticket"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]

# JSON {"code", "message"} under /api/, the site's pages elsewhere.
handler400 = "games.api.errors.bad_request_page"
handler403 = "games.api.errors.permission_denied_page"
handler404 = "games.api.errors.not_found_page"
handler500 = "games.api.errors.server_error_page"
