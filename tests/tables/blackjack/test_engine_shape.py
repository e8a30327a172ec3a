"""The engine reads in named steps: no function of ``tables/blackjack/`` over 80 lines or over a
cyclomatic complexity of 20.

The complexity is counted as ruff's C901 (McCabe) counts it: one, plus one for each ``if`` and
``elif``, loop, ``except`` clause, ``case`` and nested function, each loop's or ``try``'s
``else`` body counted with its statement; boolean operators and expressions are not branches.
The count is checked against ruff's own on the engine's source, so the two cannot drift apart.
A function's lines run from its ``def`` to its last line (decorators excluded, nested functions
and the docstring included).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[3] / "tables" / "blackjack"
MAX_LINES = 80
MAX_COMPLEXITY = 20

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def _functions() -> Iterator[tuple[str, Function]]:
    """Every function and method of the engine, nested ones included, as ``path:qualified name``."""
    for path in _modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        yield from _functions_in(tree, f"{path.relative_to(ENGINE.parents[1])}:")


def _functions_in(node: ast.AST, prefix: str) -> Iterator[tuple[str, Function]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{prefix}{child.name}", child
            yield from _functions_in(child, f"{prefix}{child.name}.")
        elif isinstance(child, ast.ClassDef):
            yield from _functions_in(child, f"{prefix}{child.name}.")
        else:
            yield from _functions_in(child, prefix)


def _body(stmts: list[ast.stmt]) -> int:
    return sum(_stmt(s) for s in stmts)


def _stmt(s: ast.stmt) -> int:
    """The decision points of one statement and of those it holds (ruff's C901 rule)."""
    if isinstance(s, ast.If):
        return 1 + _body(s.body) + _body(s.orelse)  # an elif is an If in orelse: one more
    if isinstance(s, ast.For | ast.AsyncFor | ast.While):
        return 1 + _body(s.body) + _body(s.orelse)
    if isinstance(s, ast.With | ast.AsyncWith):
        return _body(s.body)
    if isinstance(s, ast.Try | ast.TryStar):
        handlers = sum(1 + _body(h.body) for h in s.handlers)
        return _body(s.body) + _body(s.orelse) + _body(s.finalbody) + handlers
    if isinstance(s, ast.Match):
        return sum(1 + _body(c.body) for c in s.cases)
    if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
        return 1 + _body(s.body)
    if isinstance(s, ast.ClassDef):
        return _body(s.body)
    return 0


def complexity(fn: Function) -> int:
    return 1 + _body(fn.body)


def lines(fn: Function) -> int:
    assert fn.end_lineno is not None
    return fn.end_lineno - fn.lineno + 1


def test_the_engine_has_functions_to_measure() -> None:
    names = {name.rsplit(":", 1)[1] for name, _fn in _functions()}
    assert {"replay", "replay_valid", "validate", "simulate"} <= names


def test_no_function_of_the_engine_is_over_80_lines() -> None:
    long = {name: lines(fn) for name, fn in _functions() if lines(fn) > MAX_LINES}
    assert long == {}, f"over {MAX_LINES} lines: {long}"


def test_no_function_of_the_engine_is_over_complexity_20() -> None:
    tangled = {name: complexity(fn) for name, fn in _functions() if complexity(fn) > MAX_COMPLEXITY}
    assert tangled == {}, f"over complexity {MAX_COMPLEXITY}: {tangled}"


def test_no_complexity_rule_is_silenced_in_the_engine() -> None:
    silenced = [
        f"{path.name}:{i}"
        for path in _modules()
        for i, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"noqa\b[^#]*C901", line)
    ]
    assert silenced == []


def _ruff() -> str:
    found = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed")
    return found


def test_the_count_is_ruffs() -> None:
    """ruff reports every function over complexity 0 with its count: each is the count here."""
    out = subprocess.run(
        [
            _ruff(),
            "check",
            "--no-cache",
            "--isolated",
            "--ignore-noqa",
            "--select",
            "C901",
            "--config",
            "lint.mccabe.max-complexity = 0",
            "--output-format",
            "json",
            str(ENGINE),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    theirs: dict[tuple[str, int], int] = {}
    for item in json.loads(out.stdout):
        m = re.search(r"`([^`]+)` is too complex \((\d+) > 0\)", item["message"])
        assert m, item["message"]
        theirs[(Path(item["filename"]).resolve().as_posix(), item["location"]["row"])] = int(m[2])
    ours: dict[tuple[str, int], int] = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                ours[(path.resolve().as_posix(), node.lineno)] = complexity(node)
    assert len(theirs) > 50
    assert ours == theirs
