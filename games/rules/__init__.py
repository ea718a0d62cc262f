"""Pure rules engines. Nothing under this package imports Django."""

from __future__ import annotations

from games.rules.base import Ruleset

_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.key] = ruleset
    return ruleset


def get_ruleset(key: str) -> Ruleset:
    # Looked up several times per move: the imports only while the key is unknown.
    ruleset = _REGISTRY.get(key)
    if ruleset is None:
        _load_builtin()
        ruleset = _REGISTRY[key]
    return ruleset


def all_rulesets() -> list[Ruleset]:
    _load_builtin()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def _load_builtin() -> None:
    # Imported lazily so that one broken engine cannot stop the others from loading in
    # tests; each package registers itself on import.
    import importlib

    for module in ("kingdoms", "kingdom_builder", "kingdom_cards"):
        try:
            importlib.import_module(f"games.rules.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"games.rules.{module}":
                raise
