"""infra: what every app of the service runs on, below the apps and the wiring.

The process-level plumbing that games, players, community, bots and audit share and that
holds no game logic: health probes (``health``), Prometheus metrics (``metrics``), JSON
logs with request ids (``logs``), Sentry (``sentry``), the worker and beat heartbeats
(``heartbeat``), the Redis cache's shared pool (``cache``), the channel layer's settings
(``channel_layer``), a dependency down answered as a 503 (``unavailable``), the socket
Origin check (``origin``), request body limits (``body_limit``), the middleware chain kept
in one thread (``sync_chain``), garbage-collector tuning (``collector``), the production
settings' key checks (``security``) and the test suite's environment (``pytest_env``).

It is its own top-level package, not part of ``kingdom`` (the wiring: settings, urls,
asgi, celery), so that the apps import downwards only: kingdom wires the apps, the apps use
infra, and infra imports no part of the project (the layers contract in pyproject.toml).
"""
