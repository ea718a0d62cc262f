from django.contrib.auth import views as auth_views
from django.urls import path

from players import pages

urlpatterns = [
    path("signup/", pages.signup, name="signup"),
    path("login/", pages.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
