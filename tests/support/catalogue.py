"""The English catalogue (locale/en) read as a .po file."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

LOCALE_DIR = Path(settings.BASE_DIR) / "locale"


PO = LOCALE_DIR / "en" / "LC_MESSAGES" / "django.po"


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (or msgstr[n]), flags.

    Enough of the format for a file written by msgmerge: comments, flags and
    keywords each followed by one or more quoted lines. Obsolete entries (``#~``)
    are skipped.
    """
    entries: list[dict] = []
    entry: dict = {"flags": set()}
    key: str | None = None

    def flush() -> None:
        nonlocal entry
        if "msgid" in entry:
            entries.append(entry)
        entry = {"flags": set()}

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            flush()
            key = None
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#,"):
            if "msgid" in entry:
                flush()
            entry["flags"].update(f.strip() for f in line[2:].split(","))
            continue
        if line.startswith("#"):
            if "msgid" in entry and key is not None and not key.startswith("msgid"):
                flush()
            continue
        if line.startswith('"'):
            assert key is not None, f"continuation line without keyword: {raw!r}"
            entry[key] += ast.literal_eval(line)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in entry):
            flush()
        key = keyword
        entry[key] = ast.literal_eval(rest)
    flush()
    return entries
