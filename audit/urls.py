"""The audit page and the audit API, at the paths they always had (included from
kingdom/urls.py at the root, so the API paths carry their own ``api/`` prefix)."""

from django.urls import path

from audit import api, pages

urlpatterns = [
    path("tables/<uuid:game_id>/audit/", pages.audit_page, name="audit-page"),
    path("api/tables/<uuid:game_id>/audit/", api.TableAudit.as_view(), name="table-audit"),
    path(
        "api/tables/<uuid:game_id>/audit/trail/",
        api.TableAuditTrail.as_view(),
        name="table-audit-trail",
    ),
]
