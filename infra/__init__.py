"""Operations: health probes, metrics, structured logs with request ids, Sentry, and the
production settings' safety checks. Nothing here holds game logic."""
