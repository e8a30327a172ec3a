"""Rules refuse, services orchestrate; and the rules take "now" from their caller.

Read on the source's syntax tree, in every app:

- a module of ``<app>/services/`` raises no refusal itself: its ``raise`` statements re-raise
  (``raise`` alone, or the error an ``except`` caught, or what that error carries) or raise a
  programming error (``ValueError``, an unknown row's ``DoesNotExist``…); every refusal is
  raised by a pure function of ``<app>/rules/`` that the service calls with the rows it read;
- a module of ``<app>/rules/`` reads no clock: "now" and "today" are its parameters, the
  service reads the clock once and passes them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection", "tlog", "witness")

#: What a service may raise besides a re-raise: errors of the program, never a refusal.
PROGRAMMING_ERRORS = {"ValueError", "TypeError", "LookupError", "KeyError", "RuntimeError", "DoesNotExist"}

#: Raises of a refusal left in a service, as ``(module, function): reason``; the list only
#: shrinks (a test fails on an entry no longer needed).
ALLOWED_IN_SERVICES: dict[tuple[str, str], str] = {}

#: The clock's reads: a call of one of these names (``timezone.now()``, ``clock.today()``,
#: ``dt.date.today()``, ``get_casino()``, which the rules are given the casino's values of)…
CLOCK_CALLS = {"now", "today", "utcnow", "demo_today", "get_casino", "time", "monotonic"}
#: … or of one of these without an argument (``timezone.localdate()``: today).
CLOCK_WITHOUT_ARGUMENT = {"localdate", "localtime"}


def _modules(part: str) -> list[Path]:
    paths = []
    for app in APPS:
        folder = ROOT / app / part
        if folder.is_dir():
            paths += sorted(folder.rglob("*.py"))
        if (ROOT / app / f"{part}.py").is_file():
            paths.append(ROOT / app / f"{part}.py")
    return paths


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _caught(handler_names: set[str], exc: ast.expr) -> bool:
    """The error an ``except … as name`` caught, what it carries (``name.error``, ``name.x()``),
    or an error wrapping it (``Wrapper(name, …)``, unwrapped and raised again by its caller)."""
    if isinstance(exc, ast.Call) and any(
        isinstance(arg, ast.Name) and arg.id in handler_names for arg in exc.args
    ):
        return True
    base = exc
    while isinstance(base, ast.Attribute | ast.Call):
        base = base.value if isinstance(base, ast.Attribute) else base.func
    return isinstance(base, ast.Name) and base.id in handler_names


def _kept_from_handlers(function: ast.AST) -> set[str]:
    """The names a function keeps a caught error in (``first = first or exc`` in ``except …
    as exc``), to raise it again later: a re-raise, not a refusal of the function's own."""
    kept: set[str] = set()
    for handler in ast.walk(function):
        if isinstance(handler, ast.ExceptHandler) and handler.name:
            for node in ast.walk(handler):
                if isinstance(node, ast.Assign) and any(
                    isinstance(n, ast.Name) and n.id == handler.name for n in ast.walk(node.value)
                ):
                    kept |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return kept


def _refusals_raised(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, function: str, caught: set[str]) -> None:
        for child in ast.iter_child_nodes(node):
            name, names = function, caught
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name, names = child.name, _kept_from_handlers(child)
            elif isinstance(child, ast.ExceptHandler) and child.name:
                names = caught | {child.name}
            elif isinstance(child, ast.Raise) and child.exc is not None:
                exc = child.exc
                called = _name(exc.func) if isinstance(exc, ast.Call) else _name(exc)
                if not _caught(caught, exc) and called not in PROGRAMMING_ERRORS:
                    found.append((function, child.lineno))
            visit(child, name, names)

    visit(tree, "<module>", set())
    return found


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_no_service_raises_a_refusal_itself():
    offenders = [
        f"{_relative(path)}:{line} in {function}()"
        for path in _modules("services")
        for function, line in _refusals_raised(path)
        if (_relative(path), function) not in ALLOWED_IN_SERVICES
    ]
    assert offenders == [], "a refusal raised in a service, not in the app's rules: " + ", ".join(offenders)


def test_every_allowed_raise_is_still_there():
    raising = {
        (_relative(path), function) for path in _modules("services") for function, _ in _refusals_raised(path)
    }
    assert [entry for entry in ALLOWED_IN_SERVICES if entry not in raising] == []


def test_the_check_sees_a_refusal_and_lets_a_re_raise_pass(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        "def act(profile):\n"
        "    try:\n"
        "        check(profile)\n"
        "    except RegulationError as error:\n"
        "        raise error.with_field('x') from None\n"
        "    except KeyError:\n"
        "        raise\n"
        "    except OSError as failed:\n"
        "        raise Wrapped(failed, profile) from failed\n"
        "    if profile is None:\n"
        "        raise ValueError('no profile')\n"
        "    raise Refusal.SESSION_STATE.error(profile)\n",
        encoding="utf-8",
    )
    assert _refusals_raised(module) == [("act", 12)]


def _clock_reads(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name in CLOCK_CALLS or (name in CLOCK_WITHOUT_ARGUMENT and not node.args and not node.keywords):
            lines.append(node.lineno)
    return lines


def test_no_rule_reads_the_clock():
    offenders = [f"{_relative(path)}:{line}" for path in _modules("rules") for line in _clock_reads(path)]
    assert offenders == [], "a rule reads the clock instead of being given now: " + ", ".join(offenders)


def test_the_check_sees_every_clock(tmp_path):
    module = tmp_path / "sample.py"
    module.write_text(
        "def rule(day, at):\n"
        "    a = timezone.now()\n"
        "    b = timezone.localdate()\n"
        "    c = clock.today()\n"
        "    d = dt.date.today()\n"
        "    e = get_casino().gaming_day(at)\n"
        "    return timezone.localdate(at), timezone.localtime(at)\n",
        encoding="utf-8",
    )
    assert _clock_reads(module) == [2, 3, 4, 5, 6]


def test_every_app_with_services_has_rules():
    assert all(
        (path.parent.parent / "rules").is_dir()
        for path in _modules("services")
        if path.parent.name == "services"
    )
