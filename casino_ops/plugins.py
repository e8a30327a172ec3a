"""One registry for what the apps plug into each other when Django starts.

A lower app asks something of the apps above it without importing them (design: nothing imports
what stands above it): it keeps a :class:`Registry`, and the apps above register into it from
their ``AppConfig.ready()`` (or from a module that ``ready()`` imports). Once every app is ready,
:func:`close_all` closes every registry (``inspection``, the last app, calls it): from then on
:meth:`Registry.register` raises :class:`RegistryClosed`, so what the project obeys is fixed at
start-up and cannot change under a running process.

The registries: the checks of the lower apps' acts (:mod:`casino_ops.act_checks`), the
self-inspection's checks (:mod:`casino_ops.checks`), the books bound to the chain
(:mod:`audit.books.registry`), the gaming floor's answers to the depot (:mod:`cards_registry.floor`),
the lines other apps add to a deck's history (:mod:`cards_registry.history`), the signed
registers (:mod:`inspection.registers.base`), what the record's verification checks beside the
books (:data:`audit.verification.CHECKS`), and the former labels of models that moved to another
app (:data:`casino_ops.admin_display.FORMER_LABELS`).

The project's closed vocabularies (``casino_ops.access.Act``, ``audit.actions.Action``,
``casino_ops.refusals.Refusal``) take members declared beside the code that uses them too
(:func:`declare_member`): a new act names who may perform it, its event and its refusals in its
own modules, and they join the one enum at start-up, kept in a registry of their own, closed with
the others.

A test that needs another item for a while uses :meth:`Registry.temporarily`, a context manager
that registers (or, given ``None``, hides) an item whether or not the registry is closed, and puts
back what was there on leaving.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import Enum
from typing import Any, Generic, TypeVar

T = TypeVar("T")
E = TypeVar("E", bound=Enum)


class RegistryClosed(RuntimeError):
    """Something was registered after start-up."""


class Registry(Generic[T]):
    """Items of type ``T`` under unique names, in the order they were registered (the apps' order
    in ``INSTALLED_APPS``, then the order of each app's registrations): a stable order. ``name`` is
    where it lives (``"cards_registry.history.PROVIDERS"``); ``track=False`` leaves it out of
    :func:`registries` and :func:`close_all` (a test's own registry)."""

    def __init__(self, name: str, *, track: bool = True) -> None:
        self.name = name
        self._items: dict[str, T] = {}
        self._closed = False
        if track:
            _REGISTRIES.append(self)

    def __repr__(self) -> str:
        return f"<Registry {self.name}: {len(self._items)} items{', closed' if self._closed else ''}>"

    def register(self, name: str, item: T) -> T:
        """Register ``item`` under ``name`` and return it. The same item again is a no-op (a module
        imported twice); another item under a name taken is a :class:`ValueError`; after start-up,
        :class:`RegistryClosed`."""
        existing = self._items.get(name)
        if existing is not None and existing is not item:
            raise ValueError(f"{self.name}: {name!r} registered twice")
        if self._closed:
            raise RegistryClosed(f"{self.name}: {name!r} registered after start-up (the registry is closed)")
        self._items[name] = item
        return item

    def close(self) -> None:
        self._closed = True

    @property
    def closed(self) -> bool:
        return self._closed

    def get(self, name: str) -> T | None:
        return self._items.get(name)

    def __getitem__(self, name: str) -> T:
        return self._items[name]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        """The items, in the order they were registered (a copy: safe to iterate while a test
        registers)."""
        return iter(list(self._items.values()))

    def names(self) -> list[str]:
        return list(self._items)

    def items(self) -> list[tuple[str, T]]:
        return list(self._items.items())

    @contextmanager
    def temporarily(self, name: str, item: T | None, *, alone: bool = False) -> Iterator[None]:
        """For tests: ``item`` under ``name`` (``None``: no item under it) inside the block, even
        after start-up (``alone``: and no other item); what was there before is put back on
        leaving, in its place."""
        saved = dict(self._items)
        if alone:
            self._items.clear()
        if item is None:
            self._items.pop(name, None)
        else:
            self._items[name] = item
        try:
            yield
        finally:
            self._items.clear()
            self._items.update(saved)


_REGISTRIES: list[Registry[Any]] = []


def registries() -> list[Registry[Any]]:
    """Every registry made so far."""
    return list(_REGISTRIES)


def close_all() -> None:
    """Close every registry: called once every app is ready."""
    for registry in _REGISTRIES:
        registry.close()


def declare_member(enum: type[E], members: Registry[E], name: str, value: Any) -> E:
    """A member of ``enum`` declared outside its class, at start-up, beside the code that uses it
    (a new act's ``Act``, its ``Action``, its ``Refusal``), kept in ``members`` under ``name``.

    It is an instance of ``enum`` with its ``name`` and ``value`` (``isinstance`` holds, it
    compares, hashes and pickles as the enum's own do, and ``enum(value)`` finds it through the
    enum's ``_missing_``), but iterating ``enum`` still gives the members written in its class
    only. A name or a value the enum already has is refused; the same declaration again (its
    module imported twice) gives the same member; after start-up, :class:`RegistryClosed`."""
    existing = members.get(name)
    if existing is not None and existing.value == value:
        return existing
    if (
        name in enum.__members__
        or any(m.value == value for m in enum)
        or any(m.value == value for m in members)
    ):
        raise ValueError(f"{enum.__name__}: {name!r} or its value {value!r} is declared already")
    # a member made as the enum makes its own (Python's documented ``_name_`` and ``_value_``)
    member: E = str.__new__(enum, value) if issubclass(enum, str) else object.__new__(enum)
    member._name_ = name
    member._value_ = value
    return members.register(name, member)


def declared_member(members: Registry[E], value: Any) -> E | None:
    """The member declared in ``members`` whose value is ``value`` (an enum's ``_missing_``)."""
    return next((member for member in members if member.value == value), None)
