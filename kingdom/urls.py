from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from games import pages
from players import views as player_views

urlpatterns = [
    path("", pages.lobby, name="lobby"),
    path("tables/<uuid:game_id>/", pages.table, name="table-page"),
    path("players/<str:username>/", player_views.profile, name="profile"),
    path("accounts/", include("players.urls")),
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("api/auth/signup/", player_views.SignupApi.as_view(), name="api-signup"),
    path("api/auth/token/", obtain_auth_token, name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
]
