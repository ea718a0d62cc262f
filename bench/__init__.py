"""The bench and fault harness, run by ``manage.py bench`` and the tests, never by the
service: in-process measurements (``inprocess``), the live load over HTTP and WebSocket
against real server processes (``live``, ``load``, ``servers``), the peers measured in the
same run (``peer``: boardgame.io, its Node harness in ``bgio/``; ``eventsourcing_peer``),
and the service's processes on dependencies of their own, stopped and killed while a
community plays (``stack``, ``faults``). docs/performance.md and docs/operations.md.

It sits between the wiring and the apps: it drives the apps as a client and in process,
and only the ``bench`` management command (kingdom/management/commands/bench.py) imports
it; the service's own modules never do (the contracts in pyproject.toml).
"""
