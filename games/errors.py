"""The service's refusals: a stable code, a sentence, and the HTTP status to answer with."""

from __future__ import annotations

from typing import Any

from games.rules.base import IllegalCommand


class ServiceError(Exception):
    status = 400

    def __init__(self, code: str, message: str, status: int | None = None, **extra: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        if status is not None:
            self.status = status
        self.extra = extra

    def as_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


def from_illegal(exc: IllegalCommand) -> ServiceError:
    status = 403 if exc.code == "forbidden" else 400
    return ServiceError(exc.code, exc.message, status)
