"""docs/design.md "Layers": the rules core imports only the standard library (and itself)."""

import ast
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "app" / "games"
FORBIDDEN = (
    "app.api",
    "app.ws",
    "app.store",
    "app.db",
    "app.services",
    "fastapi",
    "starlette",
    "redis",
    "sqlalchemy",
    "pydantic",
)


def imported_modules(path: Path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


def test_rules_core_imports_only_the_standard_library():
    offenders = []
    files = sorted(GAMES.rglob("*.py"))
    assert len(files) >= 8, "the rules core was not found"
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            bad = any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
            outside = top not in sys.stdlib_module_names and top not in ("app", "__future__")
            if bad or outside or (top == "app" and not name.startswith("app.games")):
                offenders.append(f"{path.relative_to(GAMES.parent.parent)} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_the_checker_catches_a_forbidden_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import redis\nfrom sqlalchemy.orm import Session\nfrom . import tiles\n")
    assert list(imported_modules(bad)) == ["redis", "sqlalchemy.orm"]
