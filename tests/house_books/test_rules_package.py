"""The refusals of the casino's other books are raised in house_books/rules/, never in a
service: a service loads, locks and writes; the rule it calls refuses."""

from __future__ import annotations

import ast
from pathlib import Path

import house_books

SERVICES = Path(house_books.__file__).parent / "services"

# Services still raising RegulationError themselves, with the reason; the list only shrinks.
STILL_RAISING: dict[str, str] = {}


def _raises_regulation_error(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            # RegulationError(…), or a refusal of the registry: Refusal.X.error(…)
            registry = name == "error" and "Refusal." in ast.unparse(func)
            if name == "RegulationError" or registry:
                lines.append(node.lineno)
    return lines


def test_no_service_raises_regulation_error_itself():
    offenders = {
        path.name: lines
        for path in sorted(SERVICES.glob("*.py"))
        if path.name not in STILL_RAISING and (lines := _raises_regulation_error(path))
    }
    assert offenders == {}, f"raise RegulationError in a service, not in house_books/rules/: {offenders}"


def test_the_listed_exceptions_still_raise():
    """An entry of STILL_RAISING that no longer raises is taken off the list."""
    stale = [name for name in STILL_RAISING if not _raises_regulation_error(SERVICES / name)]
    assert stale == []


def test_the_rules_do_raise():
    rules = Path(house_books.__file__).parent / "rules"
    assert all(_raises_regulation_error(path) for path in rules.glob("*.py") if path.name != "__init__.py")
