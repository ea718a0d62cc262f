"""Make a player a moderator (staff with games.moderate), or no longer one."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Give (or with --remove take away) the moderation permission."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true")

    def handle(self, *args, **options) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no player {options['username']!r}")
        permission = Permission.objects.get(codename="moderate", content_type__app_label="games")
        if options["remove"]:
            user.user_permissions.remove(permission)
            self.stdout.write(f"{user.username} is no longer a moderator")
            return
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        user.user_permissions.add(permission)
        self.stdout.write(f"{user.username} is a moderator")
