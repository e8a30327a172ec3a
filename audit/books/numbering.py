"""The numbered books: every number given once, in order, without a gap (FR art. 39, 68; LU art. 6, 10).

An app declares which of its books are numbered, by which field and within what (an order's
number within its book, an advance-book line within its table):
:func:`register_numbering`. :func:`check_numbering` reads them and names every gap (numbers
missing between n° 1 and the last one), every number given twice and every number written
after a higher one (the entries in the order they were written, their keys'); and, for a book
whose next number is kept in a counter row (the depot's ``Book.last_number``), every counter
that no longer says the last number written. ``verify_audit`` runs it beside the books check,
which already names any entry that differs from the chain, that no event created or that is
gone: the numbers read here are those the chain bound.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Numbering:
    model: Any
    number: str  # the field holding the number
    within: tuple[str, ...]  # the fields a number runs within (none: one series for the book)
    counter: str  # the counter's field on the model of ``within[0]`` ("": no counter)
    counter_filter: tuple[tuple[str, Any], ...]  # which counter rows count for this book

    @property
    def table(self) -> str:
        return str(self.model._meta.db_table)


_NUMBERINGS: dict[Any, Numbering] = {}


def register_numbering(
    model: Any,
    *,
    number: str = "number",
    within: Iterable[str] = (),
    counter: str = "",
    counter_filter: dict[str, Any] | None = None,
) -> Numbering:
    """Declare ``model``'s ``number`` a series without gaps, each ``within`` group its own
    series from n° 1. ``counter``: the field of the row ``within[0]`` points at that keeps the
    last number given (``counter_filter``: which of those rows are this book's)."""
    within = tuple(within)
    if counter and not within:
        raise ValueError(f"{model._meta.label}: a counter is kept on the row the numbering runs within")
    numbering = Numbering(
        model=model,
        number=number,
        within=within,
        counter=counter,
        counter_filter=tuple(sorted((counter_filter or {}).items())),
    )
    _NUMBERINGS[model] = numbering
    return numbering


def numberings() -> list[Numbering]:
    return sorted(_NUMBERINGS.values(), key=lambda n: n.table)


def _attnames(numbering: Numbering) -> list[str]:
    meta = numbering.model._meta
    return [meta.get_field(name).attname for name in numbering.within]


def _group_label(numbering: Numbering, group: tuple[Any, ...]) -> str:
    if not numbering.within:
        return numbering.table
    said = ", ".join(f"{name} {value}" for name, value in zip(numbering.within, group, strict=True))
    return f"{numbering.table} ({said})"


def _ranges(missing: list[int]) -> list[tuple[int, int]]:
    ranges: list[tuple[int, int]] = []
    for n in missing:
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    return ranges


def series_problems(label: str, entries: list[tuple[Any, int]]) -> list[str]:
    """``entries``: ``(pk, number)`` in the order they were written; what breaks the series
    n° 1, 2, 3… (each sentence starts with ``label``)."""
    problems: list[str] = []
    seen: dict[int, Any] = {}
    highest: tuple[Any, int] | None = None
    for pk, number in entries:
        if number in seen:
            problems.append(f"{label}: n° {number} given twice (pk {seen[number]} and pk {pk})")
            continue
        seen[number] = pk
        if highest is not None and number < highest[1]:
            problems.append(
                f"{label}: n° {number} (pk {pk}) was written after n° {highest[1]} (pk {highest[0]})"
            )
        if highest is None or number > highest[1]:
            highest = (pk, number)
    if highest is not None:
        missing = [n for n in range(1, highest[1] + 1) if n not in seen]
        for first, last in _ranges(missing):
            gap = f"n° {first}" if first == last else f"n° {first} to {last}"
            after = seen.get(first - 1)
            follows = f" (after n° {first - 1}, pk {after})" if after is not None else ""
            problems.append(f"{label}: {gap} missing{follows}")
    return problems


def check_numbering(using: str = "default") -> list[str]:
    """Every declared numbering read from its table (in the caller's snapshot): the problems."""
    problems: list[str] = []
    for numbering in numberings():
        groups: dict[tuple[Any, ...], list[tuple[Any, int]]] = {}
        attnames = _attnames(numbering)
        rows = (
            numbering.model._base_manager.using(using)
            .order_by(*attnames, "pk")
            .values_list(*attnames, "pk", numbering.number)
        )
        for row in rows.iterator(chunk_size=5000):
            groups.setdefault(tuple(row[:-2]), []).append((row[-2], row[-1]))
        for group, entries in groups.items():
            problems.extend(series_problems(_group_label(numbering, group), entries))
        if numbering.counter:
            problems.extend(_counter_problems(numbering, groups, using))
    return problems


def _counter_problems(
    numbering: Numbering, groups: dict[tuple[Any, ...], list[tuple[Any, int]]], using: str
) -> list[str]:
    field = numbering.model._meta.get_field(numbering.within[0])
    holder = field.related_model
    last = {group[0]: max(n for _pk, n in entries) for group, entries in groups.items()}
    out = []
    counters = (
        holder._base_manager.using(using)
        .filter(**dict(numbering.counter_filter))
        .order_by("pk")
        .values_list("pk", numbering.counter)
    )
    for pk, counter in counters:
        written = last.get(pk, 0)
        if counter != written:
            out.append(
                f"{holder._meta.db_table} pk {pk}: its counter {numbering.counter} says n° {counter}, "
                f"the last entry of {numbering.table} in it is n° {written}"
            )
    return out
