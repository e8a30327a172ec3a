"""Every management command of the project says what it writes into the books, and is held to it
(the procedure holds against whoever runs the system: FR art. 68; LU art. 10). A command of demo or development
data is refused on a database in service (one holding any act), with its code and article, and
writes nothing; a command that writes the books does so only through the services' acts (each
checked and recorded); one that says it writes nothing makes no write of its own."""

from __future__ import annotations

import ast
import importlib
import inspect as pyinspect
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command, get_commands, load_command_class

from audit.models import AuditEvent
from casino_ops.commands import Writes

ROOT = Path(__file__).resolve().parents[1]
#: The casino's apps; the authority's witness (``witness``) is deployed apart, on its own database.
CASINO_APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")
WITNESS = "witness"
#: Where the acts are: the apps' services, and the printing of a register (an act recorded).
ACT_MODULES = (".services", "inspection.registers.reports")
#: The ORM's and the database's writes, none of which a command makes itself.
WRITES = {"save", "create", "bulk_create", "update", "delete", "update_or_create", "get_or_create", "execute"}
#: A write a command makes outside the books, with why it is no book's.
OUTSIDE_THE_BOOKS = {
    ("add_staff", "save"): "the person's user row (his roles, the book, go through grant_role)",
}
#: How to run each demo command in the test (its required arguments).
DEMO_ARGUMENTS: dict[str, list[str]] = {
    "make_dev_certificate": ["--out", "{tmp}"],
    "make_dev_authority": ["--out", "{tmp}"],
    "seed_demo": [],
}


def _project_commands() -> dict[str, str]:
    return {name: app for name, app in get_commands().items() if app in CASINO_APPS}


def _module(name: str, app: str) -> Any:
    return importlib.import_module(f"{app}.management.commands.{name}")


def _writes_in(module: Any) -> set[str]:
    """The write calls the command's module makes itself (method names)."""
    tree = ast.parse(pyinspect.getsource(module))
    return {
        node.func.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES
    }


def _imports_acts(module: Any) -> bool:
    tree = ast.parse(pyinspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            if any(part in name or name.endswith(part) for name in names for part in ACT_MODULES):
                return True
    return False


def test_the_project_has_the_commands_this_test_knows() -> None:
    found = {name for name in _project_commands()}
    on_disk = {
        path.stem
        for app in CASINO_APPS
        for path in (ROOT / app / "management" / "commands").glob("*.py")
        if path.stem != "__init__"
    }
    assert found == on_disk


@pytest.mark.parametrize("name", sorted(n for n, app in _project_commands().items() if app in CASINO_APPS))
def test_each_command_says_what_it_writes_and_holds_to_it(name: str) -> None:
    app = _project_commands()[name]
    command = load_command_class(app, name)
    writes = getattr(command, "writes", None)
    assert isinstance(writes, Writes), (
        f"{name}: say what it writes into the books (casino_ops.commands.Writes)"
    )
    module = _module(name, app)
    own = {w for w in _writes_in(module) if (name, w) not in OUTSIDE_THE_BOOKS}
    if writes == Writes.ACTS:
        assert _imports_acts(module), f"{name}: writes the books, but through no service's act"
        assert not own, f"{name}: writes {own} itself rather than through an act"
    elif writes == Writes.NOTHING:
        assert not _imports_acts(module) and not own, f"{name}: says it writes nothing"
    elif writes == Writes.RECORD:
        assert app == "audit", f"{name}: only the record's own commands seal and sign"
    else:
        assert writes == Writes.DEMO and name in DEMO_ARGUMENTS, f"{name}: a demo command this test runs"


def test_the_witness_commands_are_the_authoritys() -> None:
    """The witness (``python -m witness``) is deployed apart from any casino, on its own database:
    its commands write none of the casino's books and import nothing of its apps."""
    paths = sorted((ROOT / WITNESS / "management" / "commands").glob("witness_*.py"))
    assert paths
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            (node.module or "").split(".")[0]
            if isinstance(node, ast.ImportFrom)
            else alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for alias in node.names
        }
        assert not imported & set(CASINO_APPS), path.name


@pytest.mark.parametrize("name", sorted(DEMO_ARGUMENTS))
def test_a_demo_command_refuses_a_database_in_service(
    name: str, director: Any, casino: Any, tmp_path: Path, settings: Any
) -> None:
    from tables.services import create_table

    settings.DEBUG = True  # even on a developer's machine
    create_table(actor=director, number=3, code="BJ03")
    held = AuditEvent.objects.count()
    out = tmp_path / "out"
    args = [a.format(tmp=out) for a in DEMO_ARGUMENTS[name]]
    with pytest.raises(CommandError) as refused:
        call_command(name, *args)
    said = str(refused.value)
    assert said.split(":")[0] in ("DEMO_IN_SERVICE", "SEED_DATABASE_IN_SERVICE") and "FR art. 68" in said
    assert AuditEvent.objects.count() == held and not out.exists()


@pytest.mark.parametrize("name", ["make_dev_certificate", "make_dev_authority"])
def test_a_dev_command_works_on_a_database_without_acts(name: str, db: None, tmp_path: Path) -> None:
    out = tmp_path / "out"
    call_command(name, "--out", str(out))
    assert any(out.iterdir())
