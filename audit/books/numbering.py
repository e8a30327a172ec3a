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

from casino_ops.plugins import Registry


@dataclass(frozen=True)
class Numbering:
    model: Any
    number: str  # the field holding the number
    within: tuple[str, ...]  # the fields a number runs within (none: one series for the book)
    counter: str  # the counter's field on the model of ``within[0]`` ("": no counter)
    counter_filter: tuple[tuple[str, Any], ...]  # which counter rows count for this book
    at: str  # the moment an entry was written (the monthly report's period)
    corrects: str  # the field naming the entry a correction replaces ("": none)
    explanation: str  # the field holding a correction's explanation

    @property
    def table(self) -> str:
        return str(self.model._meta.db_table)


#: the numbered books, by table
NUMBERINGS: Registry[Numbering] = Registry("audit.books.numbering.NUMBERINGS")


def register_numbering(
    model: Any,
    *,
    number: str = "number",
    within: Iterable[str] = (),
    counter: str = "",
    counter_filter: dict[str, Any] | None = None,
    at: str = "recorded_at",
    corrects: str = "",
    explanation: str = "",
) -> Numbering:
    """Declare ``model``'s ``number`` a series without gaps, each ``within`` group its own
    series from n° 1. ``counter``: the field of the row ``within[0]`` points at that keeps the
    last number given (``counter_filter``: which of those rows are this book's). ``at``: when
    an entry was written; ``corrects`` and ``explanation``: a correction's entry replaced and
    why (the monthly numbering exception report prints them)."""
    within = tuple(within)
    if counter and not within:
        raise ValueError(f"{model._meta.label}: a counter is kept on the row the numbering runs within")
    numbering = Numbering(
        model=model,
        number=number,
        within=within,
        counter=counter,
        counter_filter=tuple(sorted((counter_filter or {}).items())),
        at=at,
        corrects=corrects,
        explanation=explanation,
    )
    return NUMBERINGS.register(numbering.table, numbering)


def numberings() -> list[Numbering]:
    return sorted(NUMBERINGS, key=lambda n: n.table)


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
    return [f"{label}: {problem}" for problem in _series(entries)]


def _series(entries: list[tuple[Any, int]]) -> list[str]:
    problems: list[str] = []
    seen: dict[int, Any] = {}
    highest: tuple[Any, int] | None = None
    for pk, number in entries:
        if number in seen:
            problems.append(f"n° {number} given twice (pk {seen[number]} and pk {pk})")
            continue
        seen[number] = pk
        if highest is not None and number < highest[1]:
            problems.append(f"n° {number} (pk {pk}) was written after n° {highest[1]} (pk {highest[0]})")
        if highest is None or number > highest[1]:
            highest = (pk, number)
    if highest is not None:
        missing = [n for n in range(1, highest[1] + 1) if n not in seen]
        for first, last in _ranges(missing):
            gap = f"n° {first}" if first == last else f"n° {first} to {last}"
            after = seen.get(first - 1)
            follows = f" (after n° {first - 1}, pk {after})" if after is not None else ""
            problems.append(f"{gap} missing{follows}")
    return problems


def _groups(numbering: Numbering, using: str) -> dict[tuple[Any, ...], list[tuple[Any, int]]]:
    """Group -> ``(pk, number)`` in the order written (by key)."""
    groups: dict[tuple[Any, ...], list[tuple[Any, int]]] = {}
    attnames = _attnames(numbering)
    rows = (
        numbering.model._base_manager.using(using)
        .order_by(*attnames, "pk")
        .values_list(*attnames, "pk", numbering.number)
    )
    for row in rows.iterator(chunk_size=5000):
        groups.setdefault(tuple(row[:-2]), []).append((row[-2], row[-1]))
    return groups


def check_numbering(using: str = "default") -> list[str]:
    """Every declared numbering read from its table (in the caller's snapshot): the problems."""
    problems: list[str] = []
    for numbering in numberings():
        groups = _groups(numbering, using)
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


# --- The monthly numbering exception report -------------------------------------------------


@dataclass
class Series:
    """One numbered series (a book, or a book's group) over a period."""

    book: str  # as a reader names it: the book's name, and the group's
    first: int | None  # the first and last numbers given in the period (None: none given)
    last: int | None
    given: int
    exceptions: list[str]  # gaps, numbers given twice or out of order (of the whole series)


@dataclass
class Replaced:
    """An entry replaced by a correction written in the period, with the correction's explanation."""

    book: str
    number: int
    by: int
    explanation: str


def _book_name(numbering: Numbering, group: tuple[Any, ...]) -> str:
    meta = numbering.model._meta
    name = str(meta.verbose_name_plural)
    parts = []
    for field_name, value in zip(numbering.within, group, strict=True):
        field = meta.get_field(field_name)
        if field.is_relation:
            target = field.related_model._base_manager.filter(pk=value).first()
            parts.append(str(target) if target is not None else f"{field_name} {value}")
        else:
            parts.append(str(dict(field.flatchoices).get(value, value)))
    return f"{name} — {', '.join(parts)}" if parts else name


def numbering_report(
    start: Any, end: Any, using: str = "default"
) -> tuple[list[Series], list[Replaced], list[str]]:
    """Each numbered series with the numbers given in ``[start, end)`` and its exceptions (every
    series that has either), the entries replaced by a correction written in the period, and
    the depot's counters out of step."""
    series: list[Series] = []
    replaced: list[Replaced] = []
    counters: list[str] = []
    for numbering in numberings():
        groups = _groups(numbering, using)
        manager = numbering.model._base_manager.using(using)
        in_period = manager.filter(**{f"{numbering.at}__gte": start, f"{numbering.at}__lt": end})
        given: dict[tuple[Any, ...], list[int]] = {}
        for row in in_period.values_list(*_attnames(numbering), numbering.number):
            given.setdefault(tuple(row[:-1]), []).append(row[-1])
        for group in sorted(set(groups) | set(given), key=lambda g: tuple(str(v) for v in g)):
            numbers = sorted(given.get(group, []))
            exceptions = _series(groups.get(group, []))
            if numbers or exceptions:
                series.append(
                    Series(
                        book=_book_name(numbering, group),
                        first=numbers[0] if numbers else None,
                        last=numbers[-1] if numbers else None,
                        given=len(numbers),
                        exceptions=exceptions,
                    )
                )
        if numbering.corrects:
            corrections = (
                in_period.exclude(**{f"{numbering.corrects}__isnull": True})
                .select_related(numbering.corrects)
                .order_by(numbering.at, "pk")
            )
            for entry in corrections:
                old = getattr(entry, numbering.corrects)
                group = tuple(getattr(entry, name) for name in _attnames(numbering))
                replaced.append(
                    Replaced(
                        book=_book_name(numbering, group),
                        number=getattr(old, numbering.number),
                        by=getattr(entry, numbering.number),
                        explanation=str(getattr(entry, numbering.explanation, "") or ""),
                    )
                )
        if numbering.counter:
            counters.extend(_counter_problems(numbering, groups, using))
    return series, replaced, counters
