"""Settings from environment variables.

Embedded default (nothing set): SQLite, in-memory channel layer, bot turns in-process.
Production: DATABASE_URL (PostgreSQL) and REDIS_URL (channel layer + Celery broker).
"""

import contextlib
import os
from pathlib import Path

import dj_database_url

from infra import logs as ops_logs
from infra import security as ops_security
from infra.channel_layer import redis_channel_layer
from infra.sentry import init_sentry

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in {"1", "true", "yes", "on"}


# On by default in the embedded mode (no DATABASE_URL), where `run.py serve` turns it
# off when the server is bound beyond loopback: Django's debug pages show settings and
# code to whoever asks.
DEBUG = env_bool("DEBUG", "DATABASE_URL" not in os.environ)

# --- Security (production): infra/security.py ----------------------------------
# With DEBUG off the process refuses to start on the development key or a weak one.
# Without SECRET_KEY, SECRET_KEY_FILE names a file that holds the key, made (random) on
# the first start when it is missing: `run.py serve` beyond loopback uses .secret_key.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and os.environ.get("SECRET_KEY_FILE"):
    SECRET_KEY = ops_security.file_secret_key(Path(os.environ["SECRET_KEY_FILE"]))
SECRET_KEY = SECRET_KEY or ops_security.DEV_SECRET_KEY
if not DEBUG:
    ops_security.require_production_secret_key(SECRET_KEY)
# HTTPS=1: the service is reached over TLS (a proxy or ingress terminates it and sets
# X-Forwarded-Proto). It turns on the HTTPS redirect and trusts that header; both stay
# off by default so plain-http runs (tests, compose on localhost) keep working.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
if env_bool("TRUST_X_FORWARDED_PROTO", HTTPS):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Secure-only cookies and HSTS whenever DEBUG is off (HSTS is only ever sent on https
# responses, so it is harmless over plain http).
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
ALLOWED_HOSTS = os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver").split(",")
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "http://127.0.0.1:8000").split(",") if o
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "games",
    "players",
    "community",
    "bots",
    "audit",
    # The wiring, for its management command (``bench``; the harness itself is bench/).
    "kingdom",
]

MIDDLEWARE = [
    # /healthz, /readyz, /metrics first: no host check, no redirect, no access log.
    "infra.health.OpsMiddleware",
    "infra.logs.RequestIdMiddleware",
    # Requests by route and status, their latency, 5xx (infra/metrics.py).
    "infra.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # /api/: hostile bodies refused before parsing, every error answered as JSON.
    "games.api.middleware.ApiGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # The site's 404 page with DEBUG on too; inside CommonMiddleware, which still
    # redirects "/leaderboard" to "/leaderboard/" (games/not_found.py).
    "games.not_found.SiteNotFoundMiddleware",
    # The whole chain runs in one thread under ASGI (infra/sync_chain.py).
    "infra.sync_chain.SyncChainMiddleware",
    # Inside the chain's thread: a view's news published on the request's loop.
    "games.api.middleware.news_middleware",
]

ROOT_URLCONF = "kingdom.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
WSGI_APPLICATION = "kingdom.wsgi.application"
ASGI_APPLICATION = "kingdom.asgi.application"

DATABASE_URL = os.environ.get("DATABASE_URL")
if DATABASE_URL:
    # No persistent connections: under ASGI (uvicorn, daphne) each request runs in a
    # thread of its own, so a kept connection outlives it and piles up until PostgreSQL
    # refuses more clients (Django's docs: disable them under ASGI; tests/production found
    # it).
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # IMMEDIATE: a write transaction takes SQLite's write lock at BEGIN, which is
            # what select_for_update gives us on PostgreSQL (SQLite ignores it).
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---- PostgreSQL: the connection pool and prepared statements ----
# One bounded pool per process (Django's pool, psycopg_pool): an ASGI server runs a thread
# per request, and with persistent connections each thread would keep its own. A process
# holds at most DB_POOL_SIZE; the pool requires CONN_MAX_AGE=0 (a "closed" connection
# goes back to the pool). Size it so that all processes fit in PostgreSQL's
# max_connections: web processes x DB_POOL_SIZE + Celery pool processes + headroom
# (docs/operations.md). A request that waits DB_POOL_TIMEOUT seconds for a connection
# answers a JSON 503 "busy" with Retry-After (games/api/errors.py).
DB_POOL_SIZE = int(os.environ.get("DB_POOL_SIZE", "8"))
DB_POOL_TIMEOUT = float(os.environ.get("DB_POOL_TIMEOUT", "5"))
# PostgreSQL back after a restart or failover: the service serves again within about
# this many seconds. psycopg_pool retries a failed connection with a doubling pause (1, 2,
# 4, 8... s) until ``reconnect_timeout``; a short one ends the doubling, so the next
# request that needs a connection tries at once (docs/operations.md, "Faults").
DB_RECONNECT_SECONDS = float(os.environ.get("DB_RECONNECT_SECONDS", "2"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    options = DATABASES["default"].setdefault("OPTIONS", {})
    if DB_POOL_SIZE > 0:
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        options["pool"] = {
            "min_size": 1,
            "max_size": DB_POOL_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            "reconnect_timeout": DB_RECONNECT_SECONDS,
        }
        # No check as a connection leaves the pool (CONN_HEALTH_CHECKS would run an empty
        # query, a round trip, before every move). A connection the server closed while
        # it idled (a restart) fails the one request that uses it, answered 503 with
        # Retry-After, and the pool drops it as it comes back broken.
        # DB_CHECK_CONNECTIONS=1 checks each one as it goes out.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_CHECK_CONNECTIONS", False)
    # psycopg's own prepared statements: with server-side binding psycopg prepares a
    # statement a connection has run DB_PREPARE_THRESHOLD times, so PostgreSQL stops
    # planning the write path's statements on every move. "off" for a proxy that resets
    # sessions between transactions (PgBouncer in transaction mode).
    prepare = os.environ.get("DB_PREPARE_THRESHOLD", "2")
    if prepare.lower() != "off":
        options["server_side_binding"] = True
        options["prepare_threshold"] = int(prepare)

REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    # Redis pub/sub unless CHANNEL_LAYER=lists; why, in infra/channel_layer.py.
    CHANNEL_LAYERS = {
        "default": redis_channel_layer(REDIS_URL, os.environ.get("CHANNEL_LAYER", "pubsub"))
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The cache holds rate-limit counters and WebSocket tickets, so every process must share
# it: Redis in production; one process's memory in the embedded mode.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "kingdom",
            "OPTIONS": {
                # One pool per process, not one per request (infra/cache.py).
                "pool_class": "infra.cache.SharedConnectionPool",
                # A Redis that stops answering (not just refusing) costs a request
                # seconds, then a 503 (infra/unavailable.py), never a hung thread.
                "socket_connect_timeout": 1,
                "socket_timeout": 2,
            },
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# How long a WebSocket ticket (POST /api/auth/ws-ticket/) may wait to be used (seconds).
WS_TICKET_SECONDS = int(os.environ.get("WS_TICKET_SECONDS", "30"))

# What plays bot turns (bots/runners.py): "celery" (workers on the bots queue), "thread"
# (threads of the serving process, the embedded server's default), "inline" (the calling
# thread, without recursion; tests and benchmarks) or "none".
BOT_RUNNER = os.environ.get("BOT_RUNNER", "celery" if REDIS_URL else "thread")
# Threads of the in-process runner ("thread"): each account's bots use one at a time, so
# another account's bot finds one free (bots/runners.py).
BOT_RUNNER_THREADS = int(os.environ.get("BOT_RUNNER_THREADS", "2"))
# What one account may start (games/services/lobby.py): tables with searching bots (hard,
# expert) in play at once, and their thinking time a round (seconds x searching bots,
# summed).
BOT_SEARCH_TABLES_PER_ACCOUNT = int(os.environ.get("BOT_SEARCH_TABLES_PER_ACCOUNT", "2"))
BOT_THINK_BUDGET_SECONDS = float(os.environ.get("BOT_THINK_BUDGET_SECONDS", "40"))
# Pause before an in-process bot move so people can follow the game (seconds).
BOT_MOVE_DELAY = float(os.environ.get("BOT_MOVE_DELAY", "0.4"))
# A search bot's (``hard``, ``expert``) thinking time per move, for tables that set none
# (seconds).
BOT_THINK_SECONDS = float(os.environ.get("BOT_THINK_SECONDS", "1.0"))
SNAPSHOT_EVERY = int(os.environ.get("SNAPSHOT_EVERY", "50"))
# The Ed25519 key that signs checkpoints of game logs (games/storage/signing.py): base64 of the
# 32 raw bytes, or PEM, one per deployment, from its secret store. With DEBUG off the
# process refuses to start without it. Embedded mode, unset: one key made on first use
# and kept in SIGNING_KEY_FILE. Retired public keys (base64, comma-separated) stay
# published at /api/keys/ so old signatures still verify.
SIGNING_KEY = os.environ.get("SIGNING_KEY", "")
if not DEBUG:
    ops_security.require_production_signing_key(SIGNING_KEY)
SIGNING_KEY_FILE = Path(os.environ.get("SIGNING_KEY_FILE", BASE_DIR / ".signing_key"))
SIGNING_RETIRED_KEYS = [k for k in os.environ.get("SIGNING_RETIRED_KEYS", "").split(",") if k]
# How often the clock sweep records timeouts (seconds): Celery beat with BOT_RUNNER
# "celery"; with "thread" the embedded ticker, which also sends again the bot turns owed
# whose lease ran out (bots/scheduling.py).
CLOCK_SWEEP_EVERY = float(os.environ.get("CLOCK_SWEEP_EVERY", "2"))
# The bot turns owed (bots/scheduling.py): a turn sent is leased for the table's thinking
# time plus BOT_LEASE_SECONDS (doubled at each send again); Celery beat sends again the
# turns whose lease ran out every BOT_DISPATCH_EVERY seconds.
BOT_LEASE_SECONDS = float(os.environ.get("BOT_LEASE_SECONDS", "3"))
BOT_DISPATCH_EVERY = float(os.environ.get("BOT_DISPATCH_EVERY", "1"))
# Bot opponents skip a seat out of time, and expel it at its n-th turn out of time.
BOT_EXPEL_AFTER_TIMEOUTS = int(os.environ.get("BOT_EXPEL_AFTER_TIMEOUTS", "3"))
# A rematch table still waiting for a player this long after it opened is closed.
REMATCH_OPEN_MINUTES = float(os.environ.get("REMATCH_OPEN_MINUTES", "5"))
# Quick match: the waits a player may choose before bots fill the empty seats (seconds;
# "never" is always offered). The browser tests set a short one.
QUICK_MATCH_WAITS = tuple(
    int(v) for v in os.environ.get("QUICK_MATCH_WAITS", "30,60,120").split(",") if v.strip()
)
# An untimed table: a player to act without a move for this long is gone (skip / expel).
ABSENT_AFTER_HOURS = float(os.environ.get("ABSENT_AFTER_HOURS", "48"))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task whose worker process died goes back on the queue (acks_late alone acks it).
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A message a killed worker held unacked is delivered again after this many seconds
# (Redis's default is an hour). Longer than any task runs (the hard limit, below, and a
# bot turn's: bots/runners.py); the outbox sends a lost bot turn well before anyway.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "60"))
}
# Bot turns have their own queue (tests give each run its own, so parallel runs never
# take each other's tasks).
BOT_QUEUE = os.environ.get("BOT_QUEUE", "bots")
# The clock sweep has a queue and worker of its own: behind a backlog of search-bot turns
# it would wait, expire and let clocks run over. An exact name wins over the pattern.
CLOCK_QUEUE = os.environ.get("CLOCK_QUEUE", "clocks")
CELERY_TASK_ROUTES = {
    "bots.tasks.sweep_clocks": {"queue": CLOCK_QUEUE},
    "bots.tasks.dispatch_bot_turns": {"queue": CLOCK_QUEUE},
    "bots.tasks.*": {"queue": BOT_QUEUE},
}
CELERY_TASK_SOFT_TIME_LIMIT = 20
CELERY_TASK_TIME_LIMIT = 30
# Beat's own scheduler, touching HEARTBEAT_FILE at every tick (its liveness probe).
CELERY_BEAT_SCHEDULER = "infra.heartbeat:HeartbeatScheduler"
CELERY_BEAT_SCHEDULE = {
    "sweep-clocks": {
        "task": "bots.tasks.sweep_clocks",
        "schedule": CLOCK_SWEEP_EVERY,
        # A sweep nobody ran in time is dropped: the next one covers it.
        "options": {"expires": CLOCK_SWEEP_EVERY * 5},
    },
    "dispatch-bot-turns": {
        "task": "bots.tasks.dispatch_bot_turns",
        "schedule": BOT_DISPATCH_EVERY,
        "options": {"expires": BOT_DISPATCH_EVERY * 3},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Mail (address verification, password resets, "your turn" emails): printed on the console
# in the embedded mode; SMTP from EMAIL_HOST & co. in production (docs/operations.md).
# EMAIL_BACKEND may name any of Django's backends (the browser tests use the file one).
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if "DATABASE_URL" not in os.environ
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "sent-mail"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Kingdom <noreply@localhost>")
# The site's address as players reach it, for links in mail sent outside a request.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# A verification link works this long (seconds); a "your turn" email goes out at most
# once per table and player in this many seconds.
EMAIL_VERIFY_SECONDS = int(os.environ.get("EMAIL_VERIFY_SECONDS", str(3 * 24 * 3600)))
TURN_EMAIL_EVERY_SECONDS = int(os.environ.get("TURN_EMAIL_EVERY_SECONDS", "3600"))

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# WhiteNoise warns at every start while collectstatic has not run; embedded mode serves
# from the finders, so an empty folder is all it needs.
with contextlib.suppress(OSError):
    STATIC_ROOT.mkdir(exist_ok=True)
# Served straight from the source folders: no collectstatic step for the embedded mode.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG

# Largest request body under /api/ (a command is well under 1 KB): larger is a 413.
API_MAX_BODY_BYTES = int(os.environ.get("API_MAX_BODY_BYTES", str(64 * 1024)))
# Largest request body elsewhere (forms, the admin): Django's own limit for form data.
MAX_BODY_BYTES = int(os.environ.get("MAX_BODY_BYTES", str(2_621_440)))
# A body not all received within this many seconds is a 408 (infra/body_limit.py
# applies the three as the bytes arrive).
BODY_TIMEOUT_SECONDS = float(os.environ.get("BODY_TIMEOUT_SECONDS", "10"))


# How long an API token's lookup is kept in the cache (players/authentication.py); a
# revoke, a ban or any change of the account deletes it at once.
TOKEN_CACHE_SECONDS = float(os.environ.get("TOKEN_CACHE_SECONDS", "300"))


def env_rate(scope: str, default: str) -> str | None:
    """A rate such as "600/min" from THROTTLE_<SCOPE>; "off" lifts that limit."""
    rate = os.environ.get(f"THROTTLE_{scope.upper()}", default)
    return None if rate.lower() in {"", "off", "none"} else rate


REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # DRF's TokenAuthentication, its answer kept in the shared cache (players/
        # authentication.py): no query per request. First, so a request without
        # credentials answers 401 with "WWW-Authenticate: Token" (DRF takes the header from
        # the first class; the session's has none, which made it a 403).
        "players.authentication.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # JSON only: no browsable HTML pages under /api/ (Accept: text/html alone is a 406).
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's parsers, the JSON one held to the API's body rules (games/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "games.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.json_error_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    # Rate limits (players/throttles.py): writes of views with a ``throttle_scope``, per
    # user when logged in, else per client address. THROTTLE_<SCOPE>=off lifts one.
    "DEFAULT_THROTTLE_CLASSES": ["players.throttles.ScopedWriteThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "signup": env_rate("signup", "10/hour"),  # per address: the API and the page
        "login": env_rate("login", "30/min"),  # per address: token requests, login page
        "commands": env_rate("commands", "600/min"),  # per player: far above fast play
        "chat": env_rate("chat", "30/min"),  # per player: REST and the chat socket
    },
    # The proxies in front of the service: the per-address limits count the address the
    # nearest trusted proxy appended to X-Forwarded-For (the NUM_PROXIES-th from the
    # right). Unset, 0: X-Forwarded-For is ignored (a client could write anything in it)
    # and the connection's address counts. The k8s ConfigMap sets 1 (the ingress).
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES") or 0),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kingdom game service API",
    "DESCRIPTION": "Tables, commands and redacted event streams for Kingdoms, "
    "Kingdom Builder and Kingdom Cards.",
    "VERSION": "1.0.0",
    # Tables and chat reports both have a "status": name the two enums apart.
    "ENUM_NAME_OVERRIDES": {
        "GameStatusEnum": "games.models.Game.Status",
        "ReportStatusEnum": "community.models.Report.Status",
    },
    # The API's clients send JSON; DRF's form and multipart parsers stay undocumented.
    "PARSER_WHITELIST": ["games.api.parsers.JSONParser"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.responses.empty_query_values_allowed",
    ],
}

# --- Logging, metrics, Sentry: infra/ ------------------------------------------
# JSON lines with the request id (infra/logs.py); LOG_FORMAT=console for people.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "console" if DEBUG else "json")
LOGGING = ops_logs.logging_config(
    LOG_FORMAT,
    level=os.environ.get("LOG_LEVEL", "WARNING"),
    app_level=os.environ.get("APP_LOG_LEVEL", "INFO"),
)
ops_logs.configure_structlog()
# /metrics: with METRICS_TOKEN set, only a matching "Authorization: Bearer" may scrape;
# without it, only clients in METRICS_ALLOWED_NETWORKS (loopback by default).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
METRICS_ALLOWED_NETWORKS = ops_security.csv(
    os.environ.get("METRICS_ALLOWED_NETWORKS", "127.0.0.0/8,::1/128")
)
SENTRY_ENABLED = init_sentry(
    os.environ.get("SENTRY_DSN"),
    environment=os.environ.get("SENTRY_ENVIRONMENT", "development" if DEBUG else "production"),
    release=os.environ.get("SENTRY_RELEASE", ""),
    traces=float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0")),
)
SPECTACULAR_SETTINGS.update(
    # Swagger UI's files come from the installed sidecar package, not a CDN.
    SWAGGER_UI_DIST="SIDECAR",
    SWAGGER_UI_FAVICON_HREF="SIDECAR",
    REDOC_DIST="SIDECAR",
)

# Challenges (games/services/challenges.py): how many one account may have waiting for
# an answer at once.
CHALLENGES_OPEN_PER_ACCOUNT = int(os.environ.get("CHALLENGES_OPEN_PER_ACCOUNT", "5"))
