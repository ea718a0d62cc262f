"""``manage.py bench``: in-process measurements (``inprocess``) and the live load over
HTTP and WebSocket against real ASGI server processes (``live``)."""
