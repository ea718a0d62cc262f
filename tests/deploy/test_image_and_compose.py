"""The image and the compose stack, checked as files (no Docker engine here): the lock
pins what pyproject pins, with hashes; the Dockerfile builds from it in two stages and
runs unprivileged with a health check; compose starts nothing before migrate is done."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.deploy.conftest import DEPLOY, ROOT

LOCK = DEPLOY / "requirements.lock"
# The test and bench tools' lock: pyproject's dependencies with the dev and bench extras.
DEV_LOCK = DEPLOY / "requirements-dev.lock"
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;\\]+)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_entries(lock: Path = LOCK) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes), from pip-compile's multi-line entries."""
    entries: dict[str, tuple[str, list[str]]] = {}
    current = None
    for raw in lock.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if match := PIN.match(line):
            current = canonical(match.group(1))
            entries[current] = (match.group(2), [])
        assert current is not None, f"a lock line outside any entry: {raw!r}"
        entries[current][1].extend(re.findall(r"--hash=sha256:([0-9a-f]{64})", line))
    return entries


def test_the_lock_pins_every_dependency_of_pyproject_at_the_same_version_with_hashes():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    locked = lock_entries()
    for requirement in pyproject["project"]["dependencies"]:
        name, version = PIN.match(requirement).groups()
        assert canonical(name) in locked, f"{name} is missing from {LOCK.name}"
        assert locked[canonical(name)][0] == version, f"{name}: lock differs from pyproject"
    # Every entry (direct or transitive) is pinned exactly and carries hashes.
    for name, (version, hashes) in locked.items():
        assert version and hashes, f"{name} has no hash"


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_dev_lock_pins_every_dependency_and_extra_as_pyproject_does_with_hashes():
    project = pyproject()["project"]
    extras = project["optional-dependencies"]
    locked = lock_entries(DEV_LOCK)
    for requirement in [*project["dependencies"], *extras["dev"], *extras["bench"]]:
        name, version = PIN.match(requirement).groups()
        assert locked.get(canonical(name), ("",))[0] == version, name
    for name, (version, hashes) in locked.items():
        assert version and hashes, f"{name} has no hash"
    # What the image runs is what the tests ran: the same version of every package both hold.
    production = lock_entries()
    assert {n: v for n, (v, _) in production.items()} == {
        n: locked[n][0] for n in production if n in locked
    }
    assert set(production) <= set(locked)


def test_the_image_holds_no_bench_or_test_tool():
    extras = pyproject()["project"]["optional-dependencies"]
    production = lock_entries()
    for requirement in [*extras["bench"], *extras["dev"]]:
        name = canonical(PIN.match(requirement).group(1))
        assert name not in production, f"{name} is in the production lock"
    text = (DEPLOY / "Dockerfile").read_text()
    assert "requirements-dev.lock" not in text and "[dev" not in text and "bench" not in text


def test_the_development_install_takes_the_dev_and_bench_extras():
    # tests and `manage.py bench` need both (run.py install).
    assert '".[dev,bench]"' in (ROOT / "run.py").read_text()


@pytest.mark.parametrize("lock", [LOCK, DEV_LOCK], ids=lambda p: p.name)
def test_every_lock_line_is_an_exact_pin_a_hash_or_a_comment(lock):
    for raw in lock.read_text().splitlines():
        line = raw.strip()
        assert (
            not line
            or line.startswith("#")
            or PIN.match(line)
            or re.fullmatch(r"--hash=sha256:[0-9a-f]{64}( \\)?", line)
        ), raw
    # The lock names no package index or local path of the machine it was made on.
    assert "--index-url" not in lock.read_text() and "--find-links" not in lock.read_text()


def test_the_lock_generator_is_pinned_in_the_dev_dependencies():
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"][
        "dev"
    ]
    assert any(re.fullmatch(r"pip-tools==[\d.]+", d) for d in dev)


def test_the_image_is_multi_stage_locked_non_root_and_health_checked():
    text = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM\s+(\S+)(?:\s+AS\s+(\w+))?", text, re.M | re.I)
    assert len(stages) >= 2 and stages[0][1].lower() == "builder"
    assert re.search(r"pip install[^\n]*--require-hashes[^\n]*requirements\.lock", text)
    assert re.search(r"^COPY --from=builder ", text, re.M)
    users = re.findall(r"^USER\s+(\S+)", text, re.M)
    assert users and users[-1].split(":")[0] not in {"root", "0"}
    # The last USER comes after the last RUN: nothing runs as root at run time.
    assert text.rindex("\nUSER ") > text.rindex("\nRUN ")
    health = re.search(r"^HEALTHCHECK .*?(?<!\\)$", text, re.M | re.S)
    assert health and "/healthz" in text[health.start() :]


def test_the_image_holds_every_package_the_service_imports_and_not_the_bench():
    """The wiring, the apps in INSTALLED_APPS and infra are copied in; the bench is not (the
    contract "The service never imports the bench" in pyproject.toml keeps that enough)."""
    from django.conf import settings

    copied = set(re.findall(r"^COPY (?!--)(\S+) \./\1$", (DEPLOY / "Dockerfile").read_text(), re.M))
    project = {path.name for path in ROOT.iterdir() if (path / "__init__.py").exists()}
    apps = {app.split(".")[0] for app in settings.INSTALLED_APPS} & project
    assert apps | {"kingdom", "infra"} <= copied
    assert "bench" in project and "bench" not in copied


def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())


LONG_RUNNING = ("web", "worker", "clocks", "beat")


def test_compose_starts_the_processes_only_after_migrate_succeeded():
    services = compose()["services"]
    for name in LONG_RUNNING:
        depends = services[name]["depends_on"]
        assert depends["migrate"] == {"condition": "service_completed_successfully"}, name
        assert depends["postgres"] == {"condition": "service_healthy"}, name
        assert depends["redis"] == {"condition": "service_healthy"}, name
    assert services["migrate"]["depends_on"]["postgres"] == {"condition": "service_healthy"}
    assert "migrate" in " ".join(services["migrate"]["command"])


def test_compose_health_checks_postgres_redis_and_web_and_restarts_services():
    services = compose()["services"]
    for name in ("postgres", "redis", "web"):
        assert services[name]["healthcheck"]["test"][0] == "CMD", name
    assert "/readyz" in " ".join(services["web"]["healthcheck"]["test"])
    for name in ("postgres", "redis", *LONG_RUNNING):
        assert services[name]["restart"] in {"unless-stopped", "always", "on-failure"}, name
    assert services["migrate"]["restart"] == "no"


def test_compose_takes_both_keys_from_the_environment_or_refuses_to_start():
    # One SIGNING_KEY for every process (not a key file each process makes for itself).
    app = compose()["x-app"]["environment"]
    assert app["SECRET_KEY"].startswith("${SECRET_KEY:?")
    assert app["SIGNING_KEY"].startswith("${SIGNING_KEY:?")
    for name in ("migrate", *LONG_RUNNING):
        assert compose()["services"][name]["environment"] == app, name


def test_compose_runs_each_worker_on_its_own_queue():
    services = compose()["services"]
    assert "-Q clocks" in services["clocks"]["command"]
    assert "-Q bots,celery" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]


def test_the_image_compose_and_kubernetes_run_the_procfiles_web_server():
    import json
    import shlex

    from tests.deploy.test_k8s import container, deployment

    procfile = dict(
        line.split(": ", 1) for line in (DEPLOY / "Procfile").read_text().splitlines() if line
    )
    web = [word.replace("${PORT:-8000}", "8000") for word in shlex.split(procfile["web"])]
    cmd = next(
        line.removeprefix("CMD ")
        for line in (DEPLOY / "Dockerfile").read_text().splitlines()
        if line.startswith("CMD ")
    )
    assert json.loads(cmd) == web
    assert compose()["services"]["web"]["command"] == web
    assert container(deployment("web"))["command"] == web
    assert web[0] == "uvicorn"  # chosen by bench live over HTTP (README, Performance)
