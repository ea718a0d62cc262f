from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from games import audit_page, pages
from players import api as player_api
from players import pages as player_pages
from players import views as player_views

urlpatterns = [
    path("favicon.ico", RedirectView.as_view(url="/static/favicon.svg", permanent=True)),
    path("", pages.lobby, name="lobby"),
    path("tables/<uuid:game_id>/", pages.table, name="table-page"),
    path("tables/<uuid:game_id>/audit/", audit_page.audit, name="audit-page"),
    path("leaderboard/", player_pages.leaderboards, name="leaderboards"),
    path("leaderboard/<str:ruleset>/", player_pages.leaderboard, name="leaderboard"),
    path("players/<str:username>/", player_views.profile, name="profile"),
    path("accounts/", include("players.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
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
    path("api/auth/signup/", player_views.SignupApi.as_view(), name="api-signup"),
    path("api/auth/token/", obtain_auth_token, name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
