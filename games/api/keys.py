"""``GET /api/keys/``: the public keys that sign checkpoints of game logs (games/storage/signing.py).

Unauthenticated: an auditor fetches it once, keeps it, and verifies exports offline with
``manage.py verify_export game.json --keys keys.json``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.storage import signing

PUBLISHED_KEY: dict[str, serializers.Field] = {
    "key_id": serializers.CharField(help_text="SHA-256 of the raw public key, 32 hex"),
    "algorithm": serializers.ChoiceField(choices=[signing.ALGORITHM]),
    "public_key": serializers.CharField(help_text="the 32 raw bytes, base64"),
    "current": serializers.BooleanField(help_text="signs new checkpoints (else retired)"),
}


class SigningKeys(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []

    @extend_schema(
        summary="The public keys that sign checkpoints of game logs",
        description=(
            "Each checkpoint in an export (and each snapshot) is an Ed25519 signature, by "
            "the key with its key_id, of the canonical JSON (sorted keys, no spaces) "
            '{"format": "kingdom-checkpoint/1", "game", "seq", "hash", "key_id"}: the '
            "hash of event seq of that game."
        ),
        responses=inline_serializer(
            "SigningKeys",
            {
                "message_format": serializers.CharField(),
                "keys": inline_serializer("PublishedKey", PUBLISHED_KEY, many=True),
            },
        ),
    )
    def get(self, request: Request) -> Response:
        current = signing.fingerprint(signing.public_b64(signing.server_key()))
        return Response(
            {
                "message_format": signing.MESSAGE_FORMAT,
                "keys": [
                    {
                        "key_id": key_id,
                        "algorithm": signing.ALGORITHM,
                        "public_key": public,
                        "current": key_id == current,
                    }
                    for key_id, public in signing.published_keys().items()
                ],
            }
        )
