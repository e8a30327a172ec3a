"""The record against its witnesses' cosignatures: each note as the casino signed it, each
cosignature under the policy's keys, and every event's time between the witnesses' times.

A witness's cosignature of the checkpoint of size ``n`` says: at time T (the witness's clock,
not the casino's), the log held at least ``n`` events. So an event of sequence ``e`` was
recorded before the first cosignature of a checkpoint covering it (size ``>= e``), and after
the last cosignature of a checkpoint not covering it (size ``< e``), within
``AUDIT_WITNESS_TIME_TOLERANCE`` seconds (the sealing of an event recorded as a checkpoint is
made, the clocks' drift). A server clock set back shows as events dated before a cosignature
that came before them; a clock set forward, as events dated after the cosignature that covers
them. ``verify_audit`` prints each such event.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection
from rfc3161_client import decode_timestamp_response

from tlog import checkpoint as checkpoints
from tlog import note as notes

from . import note_timestamps as stamps
from . import notes as casino_notes
from .models import Checkpoint, CheckpointNote, NoteTimeStamp
from .witnesses import policy, policy_error

SHOWN = 50  # events named at most (then how many more)


@dataclass
class TimeCheck:
    cosigned: int = 0  # notes cosigned per the policy
    last: tuple[int, dt.datetime] | None = None  # the highest size cosigned, and when first
    problems: list[str] = field(default_factory=list)


def _utc(timestamp: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(timestamp, dt.UTC)


def check() -> TimeCheck:
    found = policy()
    key = casino_notes.verifier()
    result = TimeCheck()
    if policy_error():
        result.problems.append(policy_error())
    if key is None:
        return result
    result.problems.extend(_time_stamps())
    if found is None:
        return result
    # (size, first cosignature time, last cosignature time) of each note, cosignatures verified
    times: list[tuple[int, int, int | None]] = []
    stored = {c.pk: c for c in Checkpoint.objects.exclude(root_hash="")}
    for note in CheckpointNote.objects.prefetch_related("cosignatures").order_by("size"):
        label = f"C2SP checkpoint of size {note.size}"
        checkpoint = stored.get(note.checkpoint_id)
        if checkpoint is None:
            result.problems.append(f"{label}: the signed checkpoint it was made from is gone")
            continue
        try:
            opened = notes.open_note(note.note, [key])
            head = checkpoints.parse(opened.text)
        except (notes.NoteError, checkpoints.CheckpointError) as error:
            result.problems.append(f"{label}: not signed by the casino's note key ({error})")
            continue
        if (head.size, head.root.hex()) != (checkpoint.seq, checkpoint.root_hash):
            result.problems.append(
                f"{label}: its tree head is not the one of checkpoint n° {checkpoint.number}"
            )
            continue
        stamps = []
        for cosignature in note.cosignatures.all():
            witness = found.witnesses.get(cosignature.witness)
            try:
                cosigned = (
                    notes.open_note(note.note + cosignature.line, [witness.verifier]) if witness else None
                )
            except notes.NoteError as error:
                result.problems.append(
                    f"{label}: the cosignature of {cosignature.witness} does not verify ({error})"
                )
                continue
            signature = cosigned.signed_by(witness.verifier) if cosigned and witness else None
            if signature is not None and signature.timestamp is not None:
                stamps.append(signature.timestamp)
        if stamps:
            times.append((note.size, min(stamps), max(stamps)))
        if found.satisfied({c.witness for c in note.cosignatures.all()} & set(found.witnesses)):
            result.cosigned += 1
    if times:
        size, first, _last = times[-1]
        result.last = (size, _utc(first))
    result.problems.extend(_events_out_of_bounds(times))
    return result


def _time_stamps() -> list[str]:
    """The RFC 3161 time-stamps of the notes checked, and their times as upper bounds."""
    problems = []
    times: list[tuple[int, int, int | None]] = []
    for stamp in NoteTimeStamp.objects.select_related("note").order_by("note__size"):
        try:
            at = stamps.check(
                decode_timestamp_response(bytes(stamp.response)), stamp.note.note.encode("utf-8")
            )
        except (ValueError, stamps.TimeStampError) as error:
            problems.append(
                f"the RFC 3161 time-stamp of the C2SP checkpoint of size {stamp.note.size}: {error}"
            )
            continue
        times.append((stamp.note.size, int(at.timestamp()), None))
    return problems + _events_out_of_bounds(times, source="the RFC 3161 time-stamp")


def _events_out_of_bounds(
    times: list[tuple[int, int, int | None]], source: str = "the first witness's cosignature"
) -> list[str]:
    """Every event dated after the first cosignature covering it or before the last one that
    did not, named with both times (a time-stamp: an upper bound only, ``last`` None)."""
    if not times:
        return []
    tolerance = dt.timedelta(seconds=float(getattr(settings, "AUDIT_WITNESS_TIME_TOLERANCE", 120.0)))
    upper: list[int] = []  # the earliest cosignature of a note of this size or more
    earliest = None
    for _size, first, _last in reversed(times):
        earliest = first if earliest is None else min(earliest, first)
        upper.append(earliest)
    upper.reverse()
    rows: list[tuple[int, int | None, dt.datetime | None, dt.datetime | None]] = []
    lo, before = 0, None
    for (size, _first, last), bound in zip(times, upper, strict=True):
        rows.append((lo, size, _utc(bound) + tolerance, _utc(before) - tolerance if before else None))
        if last is not None:
            lo, before = size, last if before is None else max(before, last)
        else:
            lo = size
    rows.append(
        (lo, None, None, _utc(before) - tolerance if before else None)
    )  # after the last cosigned size
    values = ", ".join(["(%s::bigint, %s::bigint, %s::timestamptz, %s::timestamptz)"] * len(rows))
    params = [v for row in rows for v in row]
    sql = (
        f"WITH b(lo, hi, upper_at, lower_at) AS (VALUES {values}) "
        "SELECT e.seq, e.recorded_at, b.upper_at, b.lower_at FROM audit_event e JOIN b "
        "ON e.seq > b.lo AND (b.hi IS NULL OR e.seq <= b.hi) "
        "WHERE e.recorded_at > b.upper_at OR e.recorded_at < b.lower_at ORDER BY e.seq"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    problems = []
    for seq, recorded_at, upper_at, lower_at in found[:SHOWN]:
        if upper_at is not None and recorded_at > upper_at:
            problems.append(
                f"event #{seq} is dated {recorded_at:%Y-%m-%d %H:%M:%S} UTC, after {source} "
                f"covering it ({upper_at - tolerance:%Y-%m-%d %H:%M:%S} UTC): the server's clock ran ahead"
            )
        else:
            problems.append(
                f"event #{seq} is dated {recorded_at:%Y-%m-%d %H:%M:%S} UTC, before the witness's cosignature "
                f"of a checkpoint preceding it ({lower_at + tolerance:%Y-%m-%d %H:%M:%S} UTC): the server's clock "
                "was set back"
            )
    if len(found) > SHOWN:
        problems.append(f"{len(found) - SHOWN} more event(s) out of the witnesses' times")
    return problems
