from django.contrib.auth import views as auth_views
from django.urls import path

from players import pages

urlpatterns = [
    path("signup/", pages.signup, name="signup"),
    path("login/", pages.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("settings/", pages.account, name="account"),
    path("email/verify/<str:token>/", pages.email_verify, name="email-verify"),
    path("turn-emails/off/<str:token>/", pages.turn_emails_off, name="turn-emails-off"),
    # Django's password reset, in the site's templates (names as Django's views expect).
    path("password-reset/", pages.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="players/password_reset_sent.html"),
        name="password_reset_done",
    ),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="players/password_reset_confirm.html"
        ),
        name="password_reset_confirm",
    ),
    path(
        "reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="players/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
]
