"""How values are written in the registers: the days, moments and amounts of every screen
(``casino_ops.dates``), in French when printed (the registers are printed in French)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from cards_registry.selectors import colour

# the registers write days, moments and amounts as every screen does (re-exported)
from casino_ops.dates import amount as amount
from casino_ops.dates import day as day
from casino_ops.dates import moment as moment


def person(user: Any) -> str:
    if user is None:
        return ""
    if isinstance(user, str):
        return user
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()


def visa(who: Any, at: dt.datetime | None, fingerprint: str = "") -> str:
    """A recorded visa as printed: who, when, and the short fingerprint of the officer's passkey
    signature (verify_audit checks it); empty when there is none (room left for it)."""
    name = person(who)
    if not name:
        return ""
    signed = " — " + str(_("signature %(f)s") % {"f": fingerprint}) if fingerprint else ""
    return f"{name} — {moment(at)}{signed}"


def visa_of(obj: Any, attr: str = "visa", fingerprints: dict[str, str] | None = None) -> str:
    """``obj``'s visa; ``fingerprints``: the officers' signatures by the entry's key
    (``audit.reads.officer_fingerprints``, read once for the register)."""
    stamp = getattr(obj, attr, None)
    if stamp is None:
        return ""
    fingerprint = (fingerprints or {}).get(str(obj.pk), "")
    return visa(getattr(stamp, "officer", None), getattr(stamp, "at", None), fingerprint)


def _field_label(obj: Any, name: str) -> str:
    """A corrected field by its label ("couleur du dos"), never its code ("back_colour")."""
    try:
        return str(obj._meta.get_field(name).verbose_name)
    except Exception:  # a field gone since the correction: its name as recorded
        return name


def corrections_of(obj: Any, number: Any) -> list[dict[str, Any]]:
    """The corrections of an entry, as red lines printed right under it (FR art. 68)."""
    rows: list[dict[str, Any]] = []
    manager = getattr(obj, "corrections", None)
    if manager is None:
        return rows
    for c in manager.all():
        rows.append(
            {
                "number": number,
                "correction": _(
                    "Rectification du %(at)s — %(field)s : « %(old)s » devient « %(new)s » — motif : "
                    "%(reason)s — approuvée par %(by)s"
                )
                % {
                    "at": moment(c.at),
                    "field": _field_label(obj, c.field),
                    "old": c.old_value,
                    "new": c.new_value,
                    "reason": c.reason,
                    "by": person(c.approved_by),
                },
            }
        )
    return rows


_TAIL = re.compile(r"^(.*?)(\d+)$")


def prefixed(prefix: str, text: str) -> str:
    """``text`` behind ``prefix`` ("BL", a maker's code), unless it already starts with it:
    a delivery note typed "BL 202612-01" or a serial that carries its maker's code
    ("CDF2612-16") is printed once, never "BL BL …" or "CDF CDF…"."""
    if not text:
        return ""
    if text.replace(" ", "").upper().startswith(prefix.replace(" ", "").upper()):
        return text
    return f"{prefix} {text}"


def deck_label(deck: Any) -> str:
    """A deck as the books name it: maker's code, serial, back colour."""
    return f"{prefixed(deck.manufacturer.code, deck.serial)} ({colour(deck.back_colour)})"


def serial_ranges(serials: Iterable[str]) -> str:
    """``A-001, A-002, A-003, A-007`` -> ``A-001 à A-003, A-007``."""
    out: list[str] = []
    run: list[str] = []
    prev: tuple[str, int, int] | None = None
    for serial in serials:
        m = _TAIL.match(serial)
        key = (m.group(1), int(m.group(2)), len(m.group(2))) if m else None
        if run and key and prev and key[0] == prev[0] and key[2] == prev[2] and key[1] == prev[1] + 1:
            run.append(serial)
        else:
            if run:
                out.append(run[0] if len(run) == 1 else f"{run[0]} à {run[-1]}")
            run = [serial]
        prev = key
    if run:
        out.append(run[0] if len(run) == 1 else f"{run[0]} à {run[-1]}")
    return ", ".join(out)


def column(label: Any, width: float, css: str = "") -> dict[str, Any]:
    return {"label": label, "width": width, "css": css}


def section(
    columns: Sequence[dict[str, Any]],
    rows: list[dict[str, Any]],
    *,
    title: Any = "",
    meta: Sequence[tuple[Any, Any]] = (),
    totals: Sequence[dict[str, Any]] = (),
    closing: Sequence[tuple[Any, Any]] = (),
) -> dict[str, Any]:
    return {
        "title": title,
        "columns": list(columns),
        "rows": rows,
        "span": len(columns) - 1,
        "meta": list(meta),
        "totals": list(totals),
        "closing": list(closing),
    }


def row(columns: Sequence[dict[str, Any]], values: Sequence[Any], css: str = "") -> dict[str, Any]:
    return {"cells": [(v, c["css"]) for v, c in zip(values, columns, strict=True)], "css": css}


def total(label: Any, span: int, cells: Sequence[tuple[Any, str]]) -> dict[str, Any]:
    return {"label": label, "span": span, "cells": list(cells)}
