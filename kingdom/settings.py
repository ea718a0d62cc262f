"""Settings from environment variables.

Embedded default (nothing set): SQLite, in-memory channel layer, bot turns in-process.
Production: DATABASE_URL (PostgreSQL) and REDIS_URL (channel layer + Celery broker).
"""

import contextlib
import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in {"1", "true", "yes", "on"}


SECRET_KEY = os.environ.get("SECRET_KEY", "embedded-dev-key-change-me-in-production")
DEBUG = env_bool("DEBUG", "DATABASE_URL" not in os.environ)
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
    "bots",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", BASE_DIR / "db.sqlite3"),
            # IMMEDIATE: a write transaction takes SQLite's write lock at BEGIN, which is
            # what select_for_update gives us on PostgreSQL (SQLite ignores it).
            "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = os.environ.get("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# How bot turns run: "celery" (workers on the bots queue), "thread" (an in-process worker
# thread, the embedded server's default) or "inline" (drained in the caller's thread
# without recursion; tests and benchmarks) or "none".
BOT_RUNNER = os.environ.get("BOT_RUNNER", "celery" if REDIS_URL else "thread")
# Pause before an in-process bot move so people can follow the game (seconds).
BOT_MOVE_DELAY = float(os.environ.get("BOT_MOVE_DELAY", "0.4"))
# A search bot's (``hard``) thinking time per move, for tables that set none (seconds).
BOT_THINK_SECONDS = float(os.environ.get("BOT_THINK_SECONDS", "1.0"))
SNAPSHOT_EVERY = int(os.environ.get("SNAPSHOT_EVERY", "50"))
# How often the clock sweep records timeouts (seconds): Celery beat with BOT_RUNNER
# "celery", the embedded sweeper thread with "thread" (see bots/dispatch.py).
CLOCK_SWEEP_EVERY = float(os.environ.get("CLOCK_SWEEP_EVERY", "2"))
# Each sweep also schedules again a bot turn whose game has not moved for the table's
# thinking time + this many seconds (a lost task; see bots/dispatch.py). Above the hard
# limit's slack (15 s), so a turn still running is killed before it is nudged.
BOT_STALL_SECONDS = float(os.environ.get("BOT_STALL_SECONDS", "30"))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Bot turns have their own queue (tests give each run its own, so parallel runs never
# take each other's tasks).
BOT_QUEUE = os.environ.get("BOT_QUEUE", "bots")
CELERY_TASK_ROUTES = {"bots.tasks.*": {"queue": BOT_QUEUE}}
CELERY_TASK_SOFT_TIME_LIMIT = 20
CELERY_TASK_TIME_LIMIT = 30
CELERY_BEAT_SCHEDULE = {
    "sweep-clocks": {
        "task": "bots.tasks.sweep_clocks",
        "schedule": CLOCK_SWEEP_EVERY,
        # A sweep nobody ran in time is dropped: the next one covers it.
        "options": {"expires": CLOCK_SWEEP_EVERY * 5},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

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

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.errors.json_error_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kingdom game service API",
    "DESCRIPTION": "Tables, commands and redacted event streams for Kingdoms, "
    "Kingdom Builder and Kingdom Cards.",
    "VERSION": "1.0.0",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
SPECTACULAR_SETTINGS.update(
    # Swagger UI's files come from the installed sidecar package, not a CDN.
    SWAGGER_UI_DIST="SIDECAR",
    SWAGGER_UI_FAVICON_HREF="SIDECAR",
    REDOC_DIST="SIDECAR",
)
