"""``replay FILE... [--json]``: replay hand logs and report (hand-log.md §5).

``.json`` files hold one log; ``.jsonl`` files one log per line, read line by
line (lines end at ``\\n`` only; blank lines are skipped) so that memory does
not grow with the number of logs. With ``--json`` one report per log is
written as a JSON line; otherwise a French summary.

Exit status: 0 when no log has a discrepancy, 1 when some have, 2 when a log
is rejected. A rejected log gets one line on standard error,
``FILE[:LINE]: rejected: FIELD: reason``, and the other logs are still
replayed. No traceback is ever printed for a bad log.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from .parse import Rejected
from .replay import replay
from .summary import summarise

USAGE = "usage: replay FILE... [--json]\n"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _load(data: bytes) -> Any:
    """Parse one log's bytes: UTF-8 JSON only (NaN and Infinity are not JSON)."""
    return json.loads(data.decode("utf-8"), parse_constant=_no_constant)


def _logs(path: str) -> Iterator[tuple[str, bytes | None, str | None]]:
    """Yield (where, raw bytes, read error) for each log of a file."""
    try:
        if path.endswith(".jsonl"):
            with open(path, "rb") as fh:
                # binary iteration splits at b"\n" only, as the format says
                for lineno, line in enumerate(fh, 1):
                    if line.strip():
                        yield f"{path}:{lineno}", line, None
        else:
            with open(path, "rb") as fh:
                data = fh.read()
            yield path, data, None
    except OSError as exc:
        yield path, None, f"cannot read the file ({exc.strerror or exc})"


def _arguments(argv: list[str], stdout: IO[str], stderr: IO[str]) -> tuple[bool, list[str]] | int:
    """``--json`` and the files named; or the exit status when the command stops here (help, misuse)."""
    as_json = False
    files: list[str] = []
    only_files = False
    for arg in argv:
        if not only_files and arg == "--json":
            as_json = True
        elif not only_files and arg == "--":
            only_files = True
        elif not only_files and arg in ("-h", "--help"):
            stdout.write(USAGE)
            return 0
        elif not only_files and arg.startswith("-") and arg != "-":
            stderr.write(f"replay: unknown option {arg}\n{USAGE}")
            return 2
        else:
            files.append(arg)
    if not files:
        stderr.write(USAGE)
        return 2
    return as_json, files


def main(argv: list[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run the command; return the exit status (0, 1 or 2)."""
    arguments = _arguments(argv, stdout, stderr)
    if isinstance(arguments, int):
        return arguments
    as_json, files = arguments
    rejected = with_discrepancies = 0
    shoes = 0
    for path in files:
        for where, data, error in _logs(path):
            if data is None:
                stderr.write(f"{where}: rejected: document: {error}\n")
                rejected += 1
                continue
            try:
                doc = _load(data)
            except (UnicodeDecodeError, ValueError, RecursionError) as exc:
                reason = "not UTF-8" if isinstance(exc, UnicodeDecodeError) else str(exc)
                stderr.write(f"{where}: rejected: document: not JSON ({_one_line(reason)})\n")
                rejected += 1
                continue
            try:
                report = replay(doc)  # checks each round as it reaches it
            except Rejected as exc:
                stderr.write(f"{where}: rejected: {exc.field}: {_one_line(exc.reason)}\n")
                rejected += 1
                continue
            shoes += 1
            if not report["ok"]:
                with_discrepancies += 1
            if as_json:
                # one write per line: wrappers that add a line ending stay exact
                stdout.write(json.dumps(report) + "\n")
            else:
                stdout.write(summarise(report))
    if not as_json:
        stdout.write(
            f"{shoes} sabot{'s' if shoes != 1 else ''} rejoué{'s' if shoes != 1 else ''},"
            f" {with_discrepancies} avec écarts, {rejected} rejeté{'s' if rejected != 1 else ''}.\n"
        )
    if rejected:
        return 2
    return 1 if with_discrepancies else 0


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":  # python -m tables.blackjack.cli FILE... [--json]
    import sys

    sys.exit(main(sys.argv[1:], sys.stdout, sys.stderr))
