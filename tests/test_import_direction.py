"""Which way the imports run (the design's layers), checked on the source's syntax tree.

From the bottom: the pure engine ``tables.blackjack``; ``casino_ops`` (settings, roles,
access, citations); the record, ``audit`` (its chain, checkpoints, signing, Merkle tree,
proofs, models, books, actions, reads), which imports nothing of the project but
``casino_ops``; the depot ``cards_registry``; ``tables``; ``house_books``; then the
officers' side, ``inspection`` (registers, portal, API, admin, tasks, commands), which
reads the apps through their ``selectors`` (and acts through their ``services``). A
module imports nothing that stands above it, so nothing imports ``inspection`` but
``casino_ops/urls.py``, the composition root, which may import every app (the settings
name its middleware and backends by their dotted paths).

An import inside a function is kept only to break a real import cycle, or to keep a
costly library out of the start-up of every process that never uses it (pyHanko, about a
second, for the processes that never sign), and says so with a ``# cycle: ...`` or a
``# deferred: ...`` comment on its line (imports in an ``AppConfig.ready()`` run once the
app registry is ready, and need none). No project module is imported by name
at run time (``importlib``, ``import_string``): a missing module fails loudly at import.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("tables", "casino_ops", "audit", "cards_registry", "house_books", "inspection", "tlog", "witness")
#: Outside the casino's layers: the shared formats, and the authority's witness.
LIBRARY, AUTHORITY = "tlog", "witness"
SKIP_DIRS = {"migrations", "tests", "bench", ".venv", "node_modules"}
ENGINE, BASE, THE_RECORD, DEPOT, TABLES, HOUSE, OFFICERS = range(7)
COMPOSITION_ROOTS = {"casino_ops.urls", "casino_ops.celery"}
#: What the officers' side (and the house books) may import of an app below it: its
#: selectors to read, its services (and their forms) to act.
READ_WRITE_FACES = ("selectors", "services", "forms")
#: The command that composes every app's demo data (it stands above them all).
DEMO_COMPOSER = "inspection.management.commands.seed_demo"
#: Imports against the design, each named with why it stays for now; the test below
#: fails once one is gone, so the list only shrinks.
KNOWN_EXCEPTIONS = {}


def layer(module: str) -> int:
    top = module.split(".")[0]
    if module == "tables.blackjack" or module.startswith("tables.blackjack."):
        return ENGINE
    if top == "casino_ops":
        return BASE
    return {
        "audit": THE_RECORD,
        "cards_registry": DEPOT,
        "tables": TABLES,
        "house_books": HOUSE,
        "inspection": OFFICERS,
    }[top]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> list[Path]:
    return [
        path
        for top in APPS
        for path in sorted((ROOT / top).rglob("*.py"))
        if not SKIP_DIRS.intersection(path.relative_to(ROOT).parts)
    ]


def imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The project modules an import statement names (``from x import y`` names x and x.y)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        # ``from x import y`` names the module x.y when there is one, else x
        names = [f"{base}.{a.name}" if known(f"{base}.{a.name}") else base for a in node.names]
    return [name for name in names if name.split(".")[0] in APPS]


def known(name: str) -> bool:
    """``x.y`` is a module or package of the project (not a name defined in ``x``)."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _refusal(importer: str, target: str) -> str | None:
    if importer in COMPOSITION_ROOTS or target == importer or not known(target):
        return None
    mine_top, their_top = importer.split(".")[0], target.split(".")[0]
    if mine_top == AUTHORITY and their_top not in (AUTHORITY, LIBRARY):
        return "the authority's witness imports nothing of the casino's apps"
    if mine_top == LIBRARY and their_top != LIBRARY:
        return "tlog imports nothing of the project"
    if their_top == AUTHORITY and mine_top != AUTHORITY:
        return "the casino imports nothing of the authority's witness"
    if their_top == LIBRARY or mine_top in (AUTHORITY, LIBRARY):
        return None
    if importer == DEMO_COMPOSER and target.endswith(".demo"):
        return None
    if target.split(".")[0] == importer.split(".")[0]:
        if layer(importer) == ENGINE and layer(target) != ENGINE:
            return "the engine imports nothing of the project"
        return None
    mine, theirs = layer(importer), layer(target)
    if theirs > mine:
        return "imports a module above it"
    if mine == THE_RECORD and theirs != BASE:
        return "the record imports nothing of the project but casino_ops"
    if (
        mine in (HOUSE, OFFICERS)
        and theirs in (DEPOT, TABLES)
        and importer.split(".")[0] != target.split(".")[0]
    ):
        face = target.split(".")[1] if "." in target else ""
        if face not in READ_WRITE_FACES:
            return "reads an app other than through its selectors (or acts other than through its services)"
    return None


def _in_ready(stack: list[ast.AST], module: str) -> bool:
    return module.endswith(".apps") and any(
        isinstance(node, ast.FunctionDef) and node.name == "ready" for node in stack
    )


def file_violations(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    module = module_name(path)
    where = path.relative_to(ROOT)
    found = []
    todo: list[tuple[ast.AST, list[ast.AST]]] = [(ast.parse(source, filename=str(path)), [])]
    while todo:
        node, stack = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            targets = imported(node, module, path.name == "__init__.py")
            for target in targets:
                reason = _refusal(module, target)
                if reason and (module, target) not in KNOWN_EXCEPTIONS:
                    found.append(f"{where}:{node.lineno} {target}: {reason}")
            in_function = any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) for n in stack)
            if targets and in_function and not _in_ready(stack, module):
                span = lines[node.lineno - 1 : (node.end_lineno or node.lineno)]
                if not any("# cycle:" in line or "# deferred:" in line for line in span):
                    found.append(
                        f"{where}:{node.lineno} function-level import without '# cycle:' or '# deferred:'"
                    )
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "import_string", "__import__", "import_by_path"):
                found.append(f"{where}:{node.lineno} {name}(): import the module itself")
        todo.extend((child, [*stack, node]) for child in ast.iter_child_nodes(node))
    return sorted(found)


def violations() -> list[str]:
    return [found for path in project_files() for found in file_violations(path)]


def test_every_project_module_is_scanned():
    scanned = {module_name(p) for p in project_files()}
    assert {
        "audit.chain",
        "casino_ops.urls",
        "tables.blackjack.replay",
        "house_books.selectors",
        "inspection.portal.views.pages",
        "inspection.tasks",
    } <= scanned
    assert not any(".migrations" in m or m.startswith("tests") for m in scanned)


def test_the_checker_refuses_what_the_design_forbids():
    assert _refusal("cards_registry.services.cabinet", "tables.models") == "imports a module above it"
    assert _refusal("casino_ops.services", "audit.chain") == "imports a module above it"
    assert _refusal("audit.chain", "inspection.portal.labels") == "imports a module above it"
    assert _refusal("audit.proofs", "tables.selectors") == "imports a module above it"
    assert _refusal("audit.proofs", "tables.blackjack.replay") == (
        "the record imports nothing of the project but casino_ops"
    )
    assert _refusal("audit.chain", "casino_ops.regulations") is None
    assert _refusal("tables.blackjack.replay", "tables.models") == "the engine imports nothing of the project"
    assert _refusal("inspection.portal.sources", "cards_registry.models").startswith("reads an app")
    assert _refusal("inspection.portal.sources", "cards_registry.selectors") is None
    assert _refusal("inspection.registers.render", "audit.chain") is None
    assert _refusal("inspection.portal.replay", "tables.blackjack.steps") is None
    assert _refusal("tables.services.shoes", "cards_registry.rules") is None
    # nothing below the officers' side imports it, but the composition root
    for below in (
        "casino_ops.access",
        "audit.models",
        "cards_registry.services",
        "tables.selectors",
        "house_books.selectors",
    ):
        assert _refusal(below, "inspection.portal.labels") == "imports a module above it"
    assert _refusal("casino_ops.urls", "inspection.portal.urls") is None
    # the authority's witness stands apart: only the shared formats between it and the casino
    assert (
        _refusal("witness.service", "audit.models")
        == "the authority's witness imports nothing of the casino's apps"
    )
    assert _refusal("witness.settings", "casino_ops.settings") == (
        "the authority's witness imports nothing of the casino's apps"
    )
    assert _refusal("witness.service", "tlog.note") is None
    assert _refusal("audit.witnesses", "tlog.note") is None
    assert (
        _refusal("audit.witnesses", "witness.service")
        == "the casino imports nothing of the authority's witness"
    )
    assert _refusal("tlog.note", "casino_ops.settings") == "tlog imports nothing of the project"


def test_each_known_exception_is_still_there():
    still = set()
    for path in project_files():
        module = module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                still.update(
                    (module, target) for target in imported(node, module, path.name == "__init__.py")
                )
    assert set(KNOWN_EXCEPTIONS) <= still
    assert all(_refusal(importer, target) for importer, target in KNOWN_EXCEPTIONS)


def test_imports_run_the_way_the_design_says():
    assert violations() == []
