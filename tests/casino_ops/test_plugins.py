"""One registry mechanism for what the apps plug into each other (casino_ops.plugins): every
plug-in registry of the project is a ``Registry``, none is kept by hand, and all are closed once
Django has started (nothing registers under a running process); tests register for a while only
through ``Registry.temporarily``."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Any

import pytest

from casino_ops.plugins import Registry, RegistryClosed, registries

ROOT = Path(__file__).resolve().parents[2]
APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")
SKIP_DIRS = {"migrations", "templates", "static"}
#: where each plug-in registry lives, and its name in that module
EXPECTED = {
    ("casino_ops.act_checks", "CHECKS"),
    ("casino_ops.checks", "CHECKS"),
    ("audit.books.registry", "BOOKS"),
    ("audit.books.numbering", "NUMBERINGS"),
    ("cards_registry.floor", "TABLE_CHECKS"),
    ("cards_registry.floor", "DAY_CLOSED"),
    ("cards_registry.history", "PROVIDERS"),
    ("inspection.registers.base", "REGISTERS"),
    # the members of the closed vocabularies declared beside the acts that use them
    ("casino_ops.access", "DECLARED_ACTS"),
    ("casino_ops.access", "DECLARED_RULES"),
    ("audit.actions", "DECLARED_ACTIONS"),
    ("audit.actions", "DECLARED_LABELS"),
    ("casino_ops.refusals", "DECLARED_REFUSALS"),
    ("audit.verification", "CHECKS"),
    ("casino_ops.admin_display", "FORMER_LABELS"),
}


def _modules() -> list[tuple[str, Path]]:
    found = []
    for top in APPS:
        for path in sorted((ROOT / top).rglob("*.py")):
            if SKIP_DIRS.intersection(path.relative_to(ROOT).parts):
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.append((".".join(parts), path))
    return found


WRITES = {"append", "add", "extend", "insert", "update", "setdefault", "pop", "remove", "discard", "clear"}


def _module_containers(tree: ast.Module) -> set[str]:
    """The names a module binds at its top to a dict, list or set made there."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        made = isinstance(value, ast.Dict | ast.List | ast.Set) or (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in {"dict", "list", "set"}
        )
        if made:
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _kept_by_hand(path: Path) -> list[str]:
    """A function named ``register…`` that writes a module's own dict, list or set, or a global:
    a registry kept by hand."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    containers = _module_containers(tree)
    found = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or not function.name.startswith("register"):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                found.append(f"{function.name}: global {', '.join(node.names)}")
            elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
                if isinstance(node.value, ast.Name) and node.value.id in containers:
                    found.append(f"{function.name}: writes {node.value.id}")
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in containers
                and node.func.attr in WRITES
            ):
                found.append(f"{function.name}: {node.func.value.id}.{node.func.attr}()")
    return found


def test_every_plug_in_registry_is_a_registry_closed_after_start_up() -> None:
    found = set()
    for name, _path in _modules():
        module = importlib.import_module(name)
        for attribute, value in vars(module).items():
            if isinstance(value, Registry) and getattr(value, "name", "") == f"{name}.{attribute}":
                found.add((name, attribute))
                assert value.closed, f"{name}.{attribute} is still open after start-up"
    assert found == EXPECTED
    assert {r.name for r in registries()} == {f"{module}.{name}" for module, name in EXPECTED}


def test_no_registry_is_kept_by_hand() -> None:
    by_hand = {
        name: found
        for name, path in _modules()
        if name != "casino_ops.plugins" and (found := _kept_by_hand(path))
    }
    assert by_hand == {}


@pytest.mark.parametrize("registry", registries(), ids=lambda r: r.name)
def test_registering_after_start_up_raises(registry: Registry[object]) -> None:
    before = registry.items()
    with pytest.raises(RegistryClosed, match="after start-up"):
        registry.register("test.late", object())
    assert registry.items() == before


def test_a_test_registers_for_a_while_then_what_was_there_is_back() -> None:
    from cards_registry import history

    before = history.PROVIDERS.items()
    assert before, "the tables register the shoes a deck served"
    [(name, provider)] = before

    def other(deck: object) -> list[history.HistoryLine]:
        return []

    with history.PROVIDERS.temporarily("test.other", other):
        assert history.PROVIDERS.names() == [name, "test.other"]
        with history.PROVIDERS.temporarily(name, None):
            assert list(history.PROVIDERS) == [other]
    assert history.PROVIDERS.items() == before
    with history.PROVIDERS.temporarily("test.other", other, alone=True):
        assert list(history.PROVIDERS) == [other]
    assert history.PROVIDERS.items() == before


def test_a_registry_keeps_the_order_of_registration_and_refuses_a_name_twice() -> None:
    registry: Registry[str] = Registry("test.registry", track=False)
    registry.register("b", "first")
    registry.register("a", "second")
    registry.register("b", "first")  # the same item again: a module imported twice
    assert registry.names() == ["b", "a"] and list(registry) == ["first", "second"]
    assert registry["a"] == "second" and registry.get("c") is None and "b" in registry
    with pytest.raises(ValueError, match="'b' registered twice"):
        registry.register("b", "other")
    registry.close()
    with pytest.raises(RegistryClosed):
        registry.register("c", "third")
    assert registry not in registries()


def test_a_member_declared_outside_its_enum_is_one_of_its_members_but_not_of_its_class() -> None:
    """casino_ops.plugins.declare_member: what a new act declares beside its service (its Act,
    its Action, its Refusal) is an instance of the enum, found by its value, never taking a
    name or a value the enum has, and kept in a registry closed after start-up."""
    from enum import StrEnum

    from casino_ops.plugins import declare_member, declared_member

    members: Registry[Any] = Registry("test.members", track=False)

    class Colour(StrEnum):
        RED = "red"

        @classmethod
        def _missing_(cls, value: object) -> Any:
            return declared_member(members, value)

    green = declare_member(Colour, members, "GREEN", "green")
    assert (
        isinstance(green, Colour)
        and Colour("green") is green
        and (green.name, green.value) == ("GREEN", "green")
    )
    assert list(Colour) == [Colour.RED] and list(members) == [green]
    assert {green: 1}["green"] == 1 and green == "green"
    assert declare_member(Colour, members, "GREEN", "green") is green  # the module imported again
    for name, value in (("RED", "crimson"), ("CRIMSON", "red"), ("VERT", "green")):
        with pytest.raises(ValueError, match="declared already"):
            declare_member(Colour, members, name, value)
    members.close()
    with pytest.raises(RegistryClosed):
        declare_member(Colour, members, "BLUE", "blue")
    with pytest.raises(ValueError):
        Colour("blue")


@pytest.mark.parametrize("app", ["cards_registry", "tables", "house_books"])
def test_every_module_of_the_apps_services_is_imported_at_start_up(app: str) -> None:
    """A service added in a module of its own is found without a line in its package's
    ``__init__`` (casino_ops.acts.discover): the registry holds its declaration."""
    import pkgutil
    import sys

    names = {f"{app}.services.{info.name}" for info in pkgutil.iter_modules([str(ROOT / app / "services")])}
    assert names and names <= set(sys.modules), sorted(names - set(sys.modules))
