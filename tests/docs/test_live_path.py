"""docs/live-path.md names the code a move runs through as `path/module.py` `name` (a
function, a class, or Class.method): each must exist, so the page cannot drift from the
code without this failing."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"`([\w/]+\.py)`\s+`([\w.]+)`")


def defined_names(path: Path) -> set[str]:
    """Top-level functions, classes and assignments, and each class's methods as
    Class.method."""
    names: set[str] = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                names |= {
                    f"{node.name}.{item.name}"
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                }
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def test_every_module_and_name_the_live_path_names_exists():
    pairs = NAMED.findall((ROOT / "docs" / "live-path.md").read_text())
    assert len(pairs) > 20, "the page names the code it describes"
    missing = [
        f"{module} {name}"
        for module, name in pairs
        if not (ROOT / module).is_file() or name not in defined_names(ROOT / module)
    ]
    assert missing == []
