"""Renders a kustomization as `kubectl kustomize` does, for the deployment tests.

With `kubectl` (or the `kustomize` binary) on the PATH the tests render with it. Without
one, ``build`` applies the part of kustomize's semantics the manifests use, in
kustomize's order: resources, strategic-merge and JSON 6902 patches, namespace, labels,
images, replacements. ``test_k8s`` checks that both renderings agree wherever a binary
is present, so the fallback cannot drift from the real thing unnoticed.
"""

from __future__ import annotations

import copy
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

Resource = dict[str, Any]


def binary() -> list[str] | None:
    if shutil.which("kustomize"):
        return ["kustomize", "build"]
    if shutil.which("kubectl"):
        return ["kubectl", "kustomize"]
    return None


def render(folder: Path) -> list[Resource]:
    """The resources a folder's kustomization renders to."""
    command = binary()
    if command is None:
        return build(folder)
    done = subprocess.run(
        [*command, str(folder)], capture_output=True, text=True, timeout=120, check=True
    )
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


# --- the fallback ----------------------------------------------------------------------


def build(folder: Path) -> list[Resource]:
    spec = yaml.safe_load((folder / "kustomization.yaml").read_text())
    resources: list[Resource] = []
    for entry in spec.get("resources", []):
        path = (folder / entry).resolve()
        if path.is_dir():
            resources.extend(build(path))
        else:
            resources.extend(doc for doc in yaml.safe_load_all(path.read_text()) if doc)
    for patch in spec.get("patches", []):
        if "path" in patch:
            (change,) = [d for d in yaml.safe_load_all((folder / patch["path"]).read_text()) if d]
            target = find(resources, change["kind"], change["metadata"]["name"])
            merge(target, change)
        else:
            target = find(resources, patch["target"]["kind"], patch["target"]["name"])
            for op in yaml.safe_load(patch["patch"]):
                json_patch(target, op)
    if "namespace" in spec:
        for resource in resources:
            resource["metadata"]["namespace"] = spec["namespace"]
    for label in spec.get("labels", []):
        for resource in resources:
            resource["metadata"].setdefault("labels", {}).update(label["pairs"])
    for image in spec.get("images", []):
        for resource in resources:
            for container in containers(resource):
                if container["image"].split("@")[0].split(":")[0] == image["name"]:
                    container["image"] = retag(container["image"], image)
    for replacement in spec.get("replacements", []):
        source = replacement["source"]
        value = delimited(
            get(find(resources, source["kind"], source["name"]), source["fieldPath"]),
            source.get("options", {}),
        )
        for target in replacement["targets"]:
            resource = find(resources, target["select"]["kind"], target["select"]["name"])
            for field_path in target["fieldPaths"]:
                old = get(resource, field_path)
                put(resource, field_path, substitute(old, value, target.get("options", {})))
    return resources


def find(resources: list[Resource], kind: str, name: str) -> Resource:
    (found,) = [r for r in resources if r["kind"] == kind and r["metadata"]["name"] == name]
    return found


def merge(target: Any, change: Any) -> None:
    """A strategic merge as the manifests use it: maps merge, lists of named maps merge
    by name, any other value is replaced."""
    for key, value in change.items():
        old = target.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            merge(old, value)
        elif isinstance(value, list) and isinstance(old, list) and all("name" in v for v in value):
            by_name = {item.get("name"): item for item in old if isinstance(item, dict)}
            for item in value:
                if item["name"] in by_name:
                    merge(by_name[item["name"]], item)
                else:
                    old.append(copy.deepcopy(item))
        else:
            target[key] = copy.deepcopy(value)


def json_patch(target: Resource, op: dict[str, Any]) -> None:
    *parents, last = op["path"].strip("/").split("/")
    node: Any = target
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    key: Any = int(last) if isinstance(node, list) else last
    if op["op"] == "remove":
        del node[key]
    else:
        node[key] = copy.deepcopy(op["value"])


def containers(resource: Resource) -> list[dict[str, Any]]:
    pod = resource.get("spec", {}).get("template", {}).get("spec", {})
    return [*pod.get("initContainers", []), *pod.get("containers", [])]


def retag(current: str, image: dict[str, str]) -> str:
    name = image.get("newName", current.split("@")[0].split(":")[0])
    if "digest" in image:
        return f"{name}@{image['digest']}"
    if "newTag" in image:
        return f"{name}:{image['newTag']}"
    return name


def path_parts(field_path: str) -> list[str]:
    return field_path.split(".")


def step(node: Any, part: str) -> Any:
    if part.startswith("[") and part.endswith("]"):  # [name=web]: the list item so named
        key, wanted = part[1:-1].split("=", 1)
        (item,) = [i for i in node if i.get(key) == wanted]
        return item
    return node[part]


def get(resource: Resource, field_path: str) -> Any:
    node: Any = resource
    for part in path_parts(field_path):
        node = step(node, part)
    return node


def put(resource: Resource, field_path: str, value: Any) -> None:
    *parents, last = path_parts(field_path)
    node: Any = resource
    for part in parents:
        node = step(node, part)
    node[last] = value


def delimited(value: str, options: dict[str, Any]) -> str:
    if "delimiter" not in options:
        return value
    return value.split(options["delimiter"])[options.get("index", 0)]


def substitute(old: str, value: str, options: dict[str, Any]) -> str:
    if "delimiter" not in options:
        return value
    parts = old.split(options["delimiter"])
    parts[options.get("index", 0)] = value
    return options["delimiter"].join(parts)
