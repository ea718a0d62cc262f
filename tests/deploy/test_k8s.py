"""The Kubernetes manifests, validated offline: every file against the Kubernetes
schemas of the version we target (kubernetes-validate ships them), yamllint-clean, the
overlay's references resolved by hand (no kustomize binary here), and the properties the
deployment relies on (probes, one beat, the clocks queue, the migrate Job...)."""

from __future__ import annotations

import functools
import re
import shlex
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from django.conf import settings
from yamllint import config as yamllint_config
from yamllint import linter

from tests.deploy.conftest import DEPLOY, K8S, documents
from tests.deploy.kustomize import binary, build, render

KUBERNETES_VERSION = "1.29.0"  # the newest the pinned kubernetes-validate knows offline
BASE = K8S / "base"
OVERLAY = K8S / "overlays" / "production"
YAMLLINT = yamllint_config.YamlLintConfig(
    "extends: default\nrules: {line-length: {max: 100}, document-start: disable, "
    "truthy: {check-keys: false}, comments: {min-spaces-from-content: 1}}"
)


def kustomization(folder: Path) -> dict:
    return yaml.safe_load((folder / "kustomization.yaml").read_text())


def base_resources() -> dict[tuple[str, str], dict]:
    found = {}
    for name in kustomization(BASE)["resources"]:
        for doc in documents(BASE / name):
            found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


RESOURCES = base_resources()


def deployment(name: str) -> dict:
    return RESOURCES[("Deployment", f"kingdom-{name}")]


def container(doc: dict) -> dict:
    (only,) = doc["spec"]["template"]["spec"]["containers"]
    return only


@functools.cache
def production() -> dict[tuple[str, str], dict]:
    """The production overlay as `kubectl kustomize` renders it."""
    return {(r["kind"], r["metadata"]["name"]): r for r in render(OVERLAY)}


def workloads() -> dict[tuple[str, str], dict]:
    return {k: r for k, r in production().items() if k[0] in {"Deployment", "Job"}}


def pod_containers(resource: dict) -> list[dict]:
    pod = resource["spec"]["template"]["spec"]
    return [*pod.get("initContainers", []), *pod["containers"]]


def manifest_files() -> list[Path]:
    return sorted(K8S.rglob("*.yaml"))


@pytest.mark.parametrize("path", manifest_files(), ids=lambda p: str(p.relative_to(K8S)))
def test_every_manifest_file_is_yamllint_clean(path):
    problems = list(linter.run(path.read_text(), YAMLLINT, str(path)))
    assert problems == [], "\n".join(f"{p.line}:{p.column} {p.message}" for p in problems)


@pytest.mark.parametrize("key", sorted(RESOURCES), ids=lambda k: f"{k[0]}/{k[1]}")
def test_every_base_resource_passes_the_kubernetes_schema_strictly(key):
    # strict: a misspelt field (readinesProbe) is an error, not silently ignored.
    kubernetes_validate.validate(RESOURCES[key], KUBERNETES_VERSION, strict=True)


@pytest.mark.parametrize("key", sorted(production()), ids=lambda k: f"{k[0]}/{k[1]}")
def test_every_rendered_production_resource_passes_the_kubernetes_schema_strictly(key):
    kubernetes_validate.validate(production()[key], KUBERNETES_VERSION, strict=True)


def test_the_base_lists_every_manifest_in_its_folder():
    listed = set(kustomization(BASE)["resources"])
    on_disk = {p.name for p in BASE.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == on_disk


def test_the_overlay_resolves_its_base_and_patches_existing_resources():
    overlay = kustomization(OVERLAY)
    assert overlay["resources"] == ["../../base"]
    assert (OVERLAY / "../../base/kustomization.yaml").resolve().exists()
    # The base names the image ``kingdom`` and leaves its registry and tag to the overlay.
    assert "images" not in kustomization(BASE)
    assert [i["name"] for i in overlay["images"]] == ["kingdom"]
    for patch in overlay["patches"]:
        if "path" in patch:  # a strategic-merge patch: names its target itself
            (doc,) = documents(OVERLAY / patch["path"])
            target = RESOURCES.get((doc["kind"], doc["metadata"]["name"]))
            assert target is not None, f"{patch['path']} patches nothing in the base"
            assert doc["apiVersion"] == target["apiVersion"]
            for c in doc.get("spec", {}).get("template", {}).get("spec", {}).get("containers", []):
                assert c["name"] in {
                    x["name"] for x in target["spec"]["template"]["spec"]["containers"]
                }
        else:  # a JSON 6902 patch: its target and every path it replaces exist
            target = RESOURCES[(patch["target"]["kind"], patch["target"]["name"])]
            for op in yaml.safe_load(patch["patch"]):
                node = target
                for part in op["path"].strip("/").split("/"):
                    node = node[int(part)] if isinstance(node, list) else node[part]


def test_the_overlay_s_config_patch_only_sets_keys_the_base_has():
    (patch,) = documents(OVERLAY / "config.yaml")
    base = RESOURCES[("ConfigMap", "kingdom-config")]["data"]
    assert set(patch["data"]) <= set(base)


def test_web_has_two_replicas_probes_resources_and_a_surge_only_rollout():
    web = deployment("web")
    assert web["spec"]["replicas"] >= 2
    assert web["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    main = container(web)
    assert main["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert main["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert main["resources"]["requests"] and main["resources"]["limits"]["memory"]


def test_every_deployment_selects_its_own_pods_and_runs_as_non_root():
    for (kind, name), doc in RESOURCES.items():
        if kind not in {"Deployment", "Job"}:
            continue
        pod = doc["spec"]["template"]
        if kind == "Deployment":
            selector = doc["spec"]["selector"]["matchLabels"]
            assert selector.items() <= pod["metadata"]["labels"].items(), name
        assert pod["spec"]["securityContext"]["runAsNonRoot"] is True, name
        for c in pod["spec"]["containers"]:
            assert c["image"] == "kingdom", name  # set by the kustomization's images
            assert c["resources"]["requests"], name
            refs = {e.get("configMapRef", e.get("secretRef"))["name"] for e in c["envFrom"]}
            assert refs == {"kingdom-config", "kingdom-secrets"}, name


def test_beat_is_exactly_one_and_never_overlaps_itself():
    beat = deployment("beat")
    assert beat["spec"]["replicas"] == 1
    assert beat["spec"]["strategy"] == {"type": "Recreate"}
    assert ("HorizontalPodAutoscaler", "kingdom-beat") not in RESOURCES
    assert container(beat)["command"][:4] == ["celery", "-A", "kingdom", "beat"]


def queues_of(command: list[str]) -> str:
    return command[command.index("-Q") + 1]


def test_the_clock_sweep_worker_consumes_the_queue_the_sweep_is_routed_to():
    config = RESOURCES[("ConfigMap", "kingdom-config")]["data"]
    clocks = container(deployment("clocks"))["command"]
    bots = container(deployment("worker"))["command"]
    assert queues_of(clocks) == "$(CLOCK_QUEUE)" and config["CLOCK_QUEUE"] == "clocks"
    assert queues_of(bots) == "$(BOT_QUEUE),celery" and config["BOT_QUEUE"] == "bots"
    assert settings.CELERY_TASK_ROUTES["bots.tasks.sweep_clocks"] == {"queue": settings.CLOCK_QUEUE}


def test_web_and_worker_autoscale_and_keep_one_pod_through_a_drain():
    for name in ("web", "worker"):
        hpa = RESOURCES[("HorizontalPodAutoscaler", f"kingdom-{name}")]
        assert hpa["spec"]["scaleTargetRef"]["name"] == f"kingdom-{name}"
        assert 1 < hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
        pdb = RESOURCES[("PodDisruptionBudget", f"kingdom-{name}")]
        labels = deployment(name)["spec"]["template"]["metadata"]["labels"]
        assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()


def test_the_ingress_keeps_websockets_open_and_routes_to_the_web_service():
    ingress = RESOURCES[("Ingress", "kingdom-web")]
    notes = ingress["metadata"]["annotations"]
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600
    assert int(notes["nginx.ingress.kubernetes.io/proxy-send-timeout"]) >= 3600
    assert notes["nginx.ingress.kubernetes.io/proxy-http-version"] == "1.1"
    # A game's sockets share a pod: a consistent hash of the path, not round-robin.
    assert notes["nginx.ingress.kubernetes.io/upstream-hash-by"] == "$uri"
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    service = RESOURCES[("Service", backend["name"])]
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}


def test_migrations_run_once_in_a_job_and_web_readiness_waits_for_them():
    job = RESOURCES[("Job", "kingdom-migrate-release")]
    (c,) = job["spec"]["template"]["spec"]["containers"]
    assert c["command"] == ["python", "manage.py", "migrate", "--noinput"]
    # No initContainer migrates from every web pod; /readyz holds traffic back instead.
    assert "initContainers" not in deployment("web")["spec"]["template"]["spec"]


def test_no_secret_is_applied_so_an_apply_never_resets_the_operator_s():
    # kingdom-secrets is created once outside git (docs/operations.md); a Secret in the
    # rendered manifests would overwrite its values with placeholders at every apply.
    assert [k for k in production() if k[0] == "Secret"] == []
    for key, resource in workloads().items():
        for c in pod_containers(resource):
            (ref,) = [e["secretRef"] for e in c["envFrom"] if "secretRef" in e]
            assert ref["name"] == "kingdom-secrets" and not ref.get("optional"), key


def test_the_procfile_names_every_process_and_the_clocks_worker():
    procs = dict(
        line.split(": ", 1) for line in (DEPLOY / "Procfile").read_text().splitlines() if line
    )
    assert set(procs) == {"web", "worker", "clocks", "beat", "release"}
    assert queues_of(shlex.split(procs["clocks"])) == "${CLOCK_QUEUE:-clocks}"
    assert re.search(r"-Q \$\{BOT_QUEUE:-bots\},celery", procs["worker"])


def test_every_celery_worker_starts_without_waiting_for_the_others():
    # Mingle waits about a second for other workers' answers at start-up and gossip keeps
    # them talking; the service revokes no task, so a restarted worker skips both and
    # takes the bot turns it owes a second sooner (docs/operations.md, "Faults").
    procs = dict(
        line.split(": ", 1) for line in (DEPLOY / "Procfile").read_text().splitlines() if line
    )
    commands = {name: shlex.split(procs[name]) for name in ("worker", "clocks")}
    for key, resource in workloads().items():
        for c in pod_containers(resource):
            if c.get("command", [])[:1] == ["celery"] and "worker" in c["command"]:
                commands[f"{key[1]}/{c['name']}"] = c["command"]
    services = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())["services"]
    for name, service in services.items():
        command = service.get("command", "")
        if isinstance(command, str) and " worker " in command:
            commands[f"compose {name}"] = shlex.split(command)
    assert len(commands) == 6, sorted(commands)
    for name, words in commands.items():
        assert {"--without-mingle", "--without-gossip"} <= set(words), name


def test_the_fallback_renderer_agrees_with_kubectl_kustomize():
    if binary() is None:
        pytest.skip("a cross-check of the fallback: needs kubectl or kustomize")
    assert {(r["kind"], r["metadata"]["name"]): r for r in build(OVERLAY)} == production()


def test_every_production_workload_runs_the_same_pinned_build():
    overlay = kustomization(OVERLAY)
    (image,) = overlay["images"]
    pinned = f"{image['newName']}:{image['newTag']}"
    assert image["newTag"] not in {"", "latest"}
    assert {k[1] for k in workloads()} >= {
        "kingdom-web",
        "kingdom-worker",
        "kingdom-clocks",
        "kingdom-beat",
    }
    for key, resource in workloads().items():
        for c in pod_containers(resource):
            assert c["image"] == pinned, (key, c["name"], c["image"])


def test_each_release_migrates_in_a_job_of_its_own_name():
    # A Job's pod template cannot change, so each release's Job carries its tag in its
    # name: `kubectl apply -k` creates the new release's Job beside the finished one.
    (image,) = kustomization(OVERLAY)["images"]
    (job,) = [r for k, r in workloads().items() if k[0] == "Job"]
    assert job["metadata"]["name"] == f"kingdom-migrate-{image['newTag']}"
    assert re.fullmatch(r"[a-z0-9]([-a-z0-9.]{0,50}[a-z0-9])?", job["metadata"]["name"])
    assert job["spec"]["ttlSecondsAfterFinished"] > 0


def test_every_workload_meets_the_restricted_pod_security_standard():
    for key, resource in workloads().items():
        pod = resource["spec"]["template"]["spec"]
        assert pod["securityContext"]["runAsNonRoot"] is True, key
        assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}, key
        assert pod["automountServiceAccountToken"] is False, key
        for c in pod_containers(resource):
            context = c["securityContext"]
            assert context["allowPrivilegeEscalation"] is False, key
            assert context["capabilities"] == {"drop": ["ALL"]}, key
            assert context["readOnlyRootFilesystem"] is True, key


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_web_leaves_the_endpoints_before_it_stops_and_drains_in_its_grace_period():
    web = production()[("Deployment", "kingdom-web")]
    main = container(web)
    pre_stop = main["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep" and int(pre_stop[1]) >= 5
    drain = int(option(main["command"], "--timeout-graceful-shutdown"))
    assert web["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] > (
        int(pre_stop[1]) + drain
    )


@pytest.mark.parametrize("name", ["worker", "clocks", "beat"])
def test_the_celery_processes_are_restarted_when_their_heartbeat_goes_stale(name):
    main = container(production()[("Deployment", f"kingdom-{name}")])
    env = {e["name"]: e["value"] for e in main["env"]}
    probe = " ".join(main["livenessProbe"]["exec"]["command"])
    assert f"find {env['HEARTBEAT_FILE']} -mmin -2" in probe
    assert env["HEARTBEAT_FILE"].startswith("/tmp/")  # the writable emptyDir
    assert {"mountPath": "/tmp", "name": "tmp"} in main["volumeMounts"]
    # The file's writers: a worker bootstep, beat's scheduler (infra/heartbeat.py).
    assert settings.CELERY_BEAT_SCHEDULER == "infra.heartbeat:HeartbeatScheduler"
    from kingdom.celery import app

    assert "infra.heartbeat:WorkerHeartbeat" in app.steps["worker"]


@pytest.mark.parametrize("name", ["web", "worker"])
def test_replicated_workloads_spread_over_nodes(name):
    pod = production()[("Deployment", f"kingdom-{name}")]["spec"]["template"]
    (spread,) = pod["spec"]["topologySpreadConstraints"]
    assert spread["topologyKey"] == "kubernetes.io/hostname"
    assert spread["labelSelector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()


def selects(policy: dict, labels: dict) -> bool:
    selector = policy["spec"]["podSelector"]
    if not selector.get("matchLabels", {}).items() <= labels.items():
        return False
    return all(labels.get(e["key"]) in e["values"] for e in selector.get("matchExpressions", []))


def test_network_policies_admit_only_the_ingress_and_the_scraper():
    policies = [r for k, r in production().items() if k[0] == "NetworkPolicy"]
    allowed = {
        "web": {("ingress-nginx", "http"), ("monitoring", "http")},
        "worker": {("monitoring", "metrics")},
        "clocks": {("monitoring", "metrics")},
        "beat": set(),
    }
    for name, expected in allowed.items():
        labels = production()[("Deployment", f"kingdom-{name}")]["spec"]["template"]["metadata"][
            "labels"
        ]
        mine = [p for p in policies if selects(p, labels)]
        # Selected by at least one policy: everything not admitted is refused.
        assert mine and all(p["spec"]["policyTypes"] == ["Ingress"] for p in mine), name
        admitted = {
            (
                source["namespaceSelector"]["matchLabels"]["kubernetes.io/metadata.name"],
                port["port"],
            )
            for p in mine
            for rule in p["spec"].get("ingress", [])
            for source in rule["from"]
            for port in rule["ports"]
        }
        assert admitted == expected, name
        ports = {
            port["name"]
            for c in pod_containers(production()[("Deployment", f"kingdom-{name}")])
            for port in c.get("ports", [])
        }
        assert {port for _, port in admitted} <= ports, name


def test_the_documented_secret_holds_every_key_the_processes_need_in_their_namespace():
    text = (K8S.parents[1] / "docs" / "operations.md").read_text()
    command = text[text.index("kubectl -n") :].split("\n\n", 1)[0]
    namespace = command.split()[2]
    assert namespace == kustomization(OVERLAY)["namespace"]
    assert "create secret generic kingdom-secrets" in command
    keys = set(re.findall(r"--from-literal=([A-Z_]+)=", command))
    assert keys >= {"SECRET_KEY", "SIGNING_KEY", "DATABASE_URL", "REDIS_URL", "METRICS_TOKEN"}
    # None of them is set anywhere in the manifests instead.
    config = production()[("ConfigMap", "kingdom-config")]["data"]
    assert not keys & set(config)
