"""The site's own 404 page with DEBUG on too (``run.py serve`` on loopback runs with
DEBUG on, where Django answers a missing page with its technical 404: the URL patterns of
the whole site, shown to a player who mistyped a link).

Django picks the technical page in its exception handling, before any middleware sees a
response, so this middleware answers first: a path no URL pattern resolves (before the
view runs) and an ``Http404`` a view raises (``process_exception``) get the site's page
(``handler404``, JSON under /api/). With DEBUG off it steps aside: Django itself calls
``handler404`` then."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from games.api.errors import not_found_page


class SiteNotFoundMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.DEBUG:
            try:
                resolve(request.path_info)
            except Resolver404 as exc:
                return not_found_page(request, exc)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if settings.DEBUG and isinstance(exception, Http404):
            return not_found_page(request, exception)
        return None
