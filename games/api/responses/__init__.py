"""What the REST API answers, for the OpenAPI schema: one serializer per response shape,
by concern (errors, tables, challenges and the bot API's streams). The players endpoints have theirs in players.serializers,
chat and moderation in community.api.responses, the audit in audit.responses.

The views build their JSON in games.selectors; these serializers
only describe it, so the schema tells clients the truth. tests/games/api/test_responses.py
calls the views and checks the answers against the schema.
"""

from games.api.responses.challenges import *  # noqa: F403
from games.api.responses.errors import *  # noqa: F403
from games.api.responses.errors import empty_query_values_allowed, errors  # noqa: F401
from games.api.responses.tables import *  # noqa: F403
