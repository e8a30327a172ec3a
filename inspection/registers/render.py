"""HTML -> PDF (WeasyPrint) -> numbered, signed PDF (pypdf, pyHanko), for any register.

A register is printed by periods (:func:`part_periods`: calendar months, or
days for the daily books), each starting on a new page with its own header
(the casino, the register's name and legal model number, the period, the
hash of the books' content it shows). The pages are the same whether the
register is printed whole (one WeasyPrint pass over every period,
:func:`print_register`) or assembled from parts printed once and reused
(:mod:`inspection.registers.parts`), because what depends on the moment of
printing is not laid out by WeasyPrint but stamped on every page afterwards
(:func:`stamp`): "page X / Y" over the whole document, the period asked for,
the time of printing and the audit chain's head (sequence and hash) at that
moment.

Why stamp rather than number the pages in CSS: a part rendered with
``counter(page)`` would carry numbers that depend on where it falls in a
given print (the period asked for, the parts before it), so it could never
be reused as it is; rendering with a page offset would make a part valid for
one offset only. Stamped numbers keep a part's pages independent of the
print. A stored part carries its own stamp (its period, "p. N / M" of the
part), which is taken off when it is merged (:func:`merge`), so that a page
read from a reused part is the same page as in a whole print. The signature
(FR art. 68) covers the whole file.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.template.loader import get_template, render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from audit import signing
from audit.chain import head
from casino_ops import dates
from casino_ops.models import CasinoSettings
from casino_ops.regulations import cite

from .base import Register, Request
from .issuing import ATTACHMENT, Issuance, footer_line, unproven_line

Progress = Callable[[int], None]

#: bump when the way a part is laid out changes in code (templates are hashed by themselves)
LAYOUT = "2"
_STAMP_MARK = b"%register-stamp"


@dataclass
class Printed:
    pdf: bytes
    sha256: str
    pages: int
    rows: int
    head_seq: int
    head_hash: str
    parts: int = 1


@dataclass
class Chunk:
    """One period of a register, read: what its pages show and the hash of it."""

    request: Request
    header: dict[str, Any]
    body: dict[str, Any]
    content_hash: str
    rows: int = 0
    empty: bool = False


def period_label(request: Request) -> str:
    if request.date_from == request.date_to:
        return _("Journée du %(d)s") % {"d": dates.day(request.date_from)}
    return _("Du %(a)s au %(b)s") % {
        "a": dates.day(request.date_from),
        "b": dates.day(request.date_to),
    }


def _month_end(day: dt.date) -> dt.date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def part_periods(register: Register, request: Request) -> list[Request]:
    """The periods ``request`` is printed by: the calendar months (days for the daily
    books) cut to the period asked for that have an entry; one part for the whole period
    when none has. A month without any entry is left out of the print, so it is not planned
    either: a long period costs the months of its entries, not all its months."""
    out: list[Request] = []
    if register.part_unit == "day":
        days = register.days_with_entries(request)
        for day in days:
            out.append(Request(day, day, request.table))
        return out or [request]
    start = request.date_from
    while start <= request.date_to:
        end = min(_month_end(start), request.date_to)
        out.append(Request(start, end, request.table))
        start = end + dt.timedelta(days=1)
    if len(out) == 1:
        return out
    return _with_entries(register, out) or [request]


def _with_entries(register: Register, months: list[Request]) -> list[Request]:
    """The ``months`` (consecutive) that have an entry. A span of months read as one and
    found empty is left out whole, else halved: about two reads per month with entries and
    halving (a dozen reads for 28 years with entries in a few months), not one per month.
    Emptiness is the print's own (:func:`is_empty`): a span has an entry when one of its
    months has."""
    span = Request(months[0].date_from, months[-1].date_to, months[0].table)
    if read_chunk(register, span).empty:
        return []
    if len(months) == 1:
        return months
    middle = len(months) // 2
    return _with_entries(register, months[:middle]) + _with_entries(register, months[middle:])


def header_of(register: Register, request: Request) -> dict[str, Any]:
    """What a part's header shows (all of it goes into the part's content hash)."""
    casino = CasinoSettings.objects.filter(pk=1).first()
    profile = casino.profile if casino else "FR"
    with translation.override("fr"):
        return {
            "title": str(register.title),
            "model": str(register.model_for(profile)),
            "casino_name": casino.name if casino else _("Casino"),
            "casino_authorisation": getattr(casino, "authorisation_reference", "") if casino else "",
            "profile": profile,
            "article": str(cite(register.rule, profile)),
            "period_label": period_label(request),
            "table_label": (_("Table n° %(n)s") % {"n": request.table}) if request.table is not None else "",
        }


@cache
def _layout_version(template: str) -> str:
    sources = [LAYOUT]
    for name in ("registers/base.html", template):
        # the Django backend's wrapper holds the engine's template, which knows its source
        sources.append(getattr(getattr(get_template(name), "template", None), "source", ""))
    return hashlib.sha256("\x00".join(sources).encode()).hexdigest()


def content_hash(register: Register, header: dict[str, Any], body: dict[str, Any]) -> str:
    """SHA-256 of everything a part's pages show: header, rows and totals, layout version."""
    with translation.override("fr"):
        text = json.dumps(
            {"layout": _layout_version(register.template), "header": header, "body": body},
            default=str,
            sort_keys=True,
            ensure_ascii=False,
        )
    return hashlib.sha256(text.encode()).hexdigest()


def read_chunk(register: Register, request: Request, *, context: dict[str, Any] | None = None) -> Chunk:
    """Read one period of the register (from its selectors unless ``context`` is given)."""
    with translation.override("fr"):
        body = register.context(request) if context is None else context
    header = header_of(register, request)
    return Chunk(request, header, body, content_hash(register, header, body), row_count(body), is_empty(body))


def render_html(register: Register, chunks: Sequence[Chunk]) -> str:
    """The periods as one HTML document, each period starting on a new page."""
    ctx = {
        "register": register,
        "chunks": [
            {
                **chunk.header,
                **chunk.body,
                "content_hash": chunk.content_hash,
                "title_lines": title_lines(register),
            }
            for chunk in chunks
        ],
    }
    with translation.override("fr"):
        return render_to_string(register.template, ctx)


def title_lines(register: Register) -> str:
    """The register's title with its last two words bound, so no word is left alone on a line."""
    words = str(register.title).upper().split()
    if len(words) < 2:
        return " ".join(words)
    return " ".join(words[:-2] + [f"{words[-2]}\u00a0{words[-1]}"])


def is_empty(context: dict[str, Any]) -> bool:
    """Nothing to print: no section has a line or a closing."""
    return all(not s.get("rows") and not s.get("closing") for s in context.get("sections", []))


def row_count(context: dict[str, Any]) -> int:
    return sum(
        1 for section in context.get("sections", []) for r in section["rows"] if not r.get("correction")
    )


def html_to_pdf(html: str) -> tuple[bytes, int]:
    from weasyprint import HTML

    document = HTML(string=html).render()
    pages = len(document.pages)
    pdf = document.write_pdf()
    del document
    return pdf, pages


# --- Merge and stamp (pypdf) ----------------------------------------------------------------

# Helvetica-Bold advance widths (AFM, 1/1000 em) of what "page N / M" uses.
_BOLD_WIDTHS = {
    **dict.fromkeys("0123456789", 556),
    " ": 278,
    "/": 278,
    "p": 611,
    "a": 556,
    "g": 611,
    "e": 556,
}
_BOLD_WIDTHS.update({".": 278})


def _pdf_string(text: str) -> bytes:
    data = text.encode("cp1252", errors="replace")
    return b"(" + data.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _stream(writer: Any, data: bytes) -> Any:
    from pypdf.generic import DecodedStreamObject

    stream = DecodedStreamObject()
    stream.set_data(data)
    return writer._add_object(stream)


def _fonts(writer: Any) -> tuple[Any, Any]:
    from pypdf.generic import DictionaryObject, NameObject

    def font(name: str) -> Any:
        return writer._add_object(
            DictionaryObject(
                {
                    NameObject("/Type"): NameObject("/Font"),
                    NameObject("/Subtype"): NameObject("/Type1"),
                    NameObject("/BaseFont"): NameObject(name),
                    NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
                }
            )
        )

    return font("/Helvetica"), font("/Helvetica-Bold")


def stamp(writer: Any, lines: Sequence[str], page_label: str = "page") -> None:
    """Write ``lines`` and "page N / M" at the foot of every page of ``writer`` (pypdf).

    The stamp is added as a content stream of its own after the page's, the
    page's content wrapped in q/Q, so that :func:`unstamp` can take it off.
    """
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject

    regular, bold = _fonts(writer)
    opening = _stream(writer, b"q\n")
    total = len(writer.pages)
    for number, page in enumerate(writer.pages, 1):
        box = page.mediabox
        left, bottom, width = float(box.left), float(box.bottom), float(box.width)
        margin = 34.0  # 12 mm
        if "/Resources" not in page:
            page[NameObject("/Resources")] = DictionaryObject()
        resources = page["/Resources"]
        if "/Font" not in resources:
            resources[NameObject("/Font")] = DictionaryObject()
        fonts = resources["/Font"]
        fonts[NameObject("/RegStamp")] = regular
        fonts[NameObject("/RegStampB")] = bold
        numbering = f"{page_label} {number} / {total}"
        size = 8.0
        text_width = sum(_BOLD_WIDTHS.get(c, 556) for c in numbering) * size / 1000
        ops = [_STAMP_MARK + b"\nQ\nq 0 g BT"]
        y = bottom + 24.0
        for i, line in enumerate(lines):
            ops.append(
                b"/RegStamp %.1f Tf 1 0 0 1 %.2f %.2f Tm %s Tj"
                % (6.0 if i == 0 else 5.5, left + margin, y - 8.0 * i, _pdf_string(line))
            )
        ops.append(
            b"/RegStampB %.1f Tf 1 0 0 1 %.2f %.2f Tm %s Tj"
            % (size, left + width - margin - text_width, y, _pdf_string(numbering))
        )
        ops.append(b"ET Q\n")
        existing: list[Any] = []
        if "/Contents" in page:
            contents = page.raw_get("/Contents")
            resolved = contents.get_object()
            existing = list(resolved) if isinstance(resolved, ArrayObject) else [contents]
        page[NameObject("/Contents")] = ArrayObject([opening, *existing, _stream(writer, b"\n".join(ops))])


def unstamp(page: Any) -> None:
    """Take a stamp made by :func:`stamp` off a page (the page reads as it was rendered)."""
    from pypdf.generic import ArrayObject, NameObject

    if "/Contents" not in page:
        return
    contents = page.raw_get("/Contents").get_object()
    if not isinstance(contents, ArrayObject):
        return
    items = list(contents)
    if len(items) >= 3 and items[-1].get_object().get_data().startswith(_STAMP_MARK):
        if items[0].get_object().get_data() == b"q\n":
            page[NameObject("/Contents")] = ArrayObject(items[1:-1])


def merge(pdfs: Sequence[bytes]) -> Any:
    """One pypdf writer with the pages of ``pdfs`` in order: stamps, annotations and
    signature fields of the parts taken off (the whole gets its own)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for data in pdfs:
        reader = PdfReader(io.BytesIO(data))
        for page in reader.pages:
            unstamp(page)
            writer.add_page(page, excluded_keys=("/Annots",))
    return writer


def footer_lines(request: Request, seq: int, digest: str, printed_at: dt.datetime) -> list[str]:
    casino = CasinoSettings.objects.filter(pk=1).first()
    with translation.override("fr"):
        kept = (
            # FR art. 68 allows computerised books validated by an electronic signature; the
            # LU règlement has no such article: the footer says what is done, citing nothing
            _(
                "Registre tenu par ordinateur et validé par signature électronique — %(period)s — imprimé le %(at)s"
            )
            if casino is not None and casino.profile == "LU"
            else _(
                "Registre tenu par ordinateur et validé par signature électronique (FR art. 68) — "
                "%(period)s — imprimé le %(at)s"
            )
        )
        return [
            kept
            % {
                "period": period_label(request),
                "at": timezone.localtime(printed_at).strftime("%d/%m/%Y à %H:%M:%S"),
            },
            _("Chaîne d'audit à l'impression : n° %(seq)s — %(hash)s") % {"seq": seq, "hash": digest},
        ]


def finish(
    writer: Any,
    register: Register,
    request: Request,
    *,
    printed_at: dt.datetime | None = None,
    sign: bool = True,
    issuance: Issuance | None = None,
) -> tuple[bytes, int, str]:
    """Stamp every page (numbers over the whole, time, chain head), write, sign.

    With ``issuance`` (:mod:`inspection.registers.issuing`), the footer names the issuing event
    and its content digest, and the event's tlog proof is attached to the PDF before signing."""
    seq, digest = head()
    lines = footer_lines(request, seq, digest, printed_at or timezone.now())
    if issuance is not None:
        with translation.override("fr"):
            lines.append(footer_line(issuance))
            unproven = unproven_line(issuance)
            if unproven is not None:
                lines.append(unproven)
    stamp(writer, lines)
    if issuance is not None and issuance.proof is not None:
        writer.add_attachment(ATTACHMENT, issuance.proof.encode("utf-8"))
    header = header_of(register, request)
    writer.add_metadata(
        {
            "/Title": f"{header['title']} — {header['model']}",
            "/Author": header["casino_name"],
            "/Subject": header["period_label"],
        }
    )
    out = io.BytesIO()
    writer.write(out)
    pdf = out.getvalue()
    return (signing.sign_pdf(pdf) if sign else pdf), seq, digest


def render_part(register: Register, chunk: Chunk) -> tuple[bytes, int]:
    """One period as a standalone signed PDF, stamped with its own period and page numbers."""
    from pypdf import PdfReader, PdfWriter

    pdf, pages = html_to_pdf(render_html(register, [chunk]))
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    with translation.override("fr"):
        line = _("Partie du registre : %(period)s — empreinte du contenu %(hash)s") % {
            "period": period_label(chunk.request),
            "hash": chunk.content_hash,
        }
    stamp(writer, [line], page_label="p.")
    out = io.BytesIO()
    writer.write(out)
    return signing.sign_pdf(out.getvalue()), pages


def print_register(
    register: Register,
    request: Request,
    *,
    progress: Progress | None = None,
    context: dict[str, Any] | None = None,
    printed_at: dt.datetime | None = None,
) -> Printed:
    """The whole register in one WeasyPrint pass: read, render, stamp, sign.

    Periods without any entry are left out; a register without any entry in
    the whole period prints its headers once, for that period.

    Refuses before any work when no certificate is configured. With
    ``context`` (rows given rather than read), the period is printed as one part.
    """
    from pypdf import PdfReader, PdfWriter

    step = progress or (lambda _pct: None)
    register.check(request)
    signing.get_signer()  # says clearly that signing is not configured, before rendering
    if context is not None:
        chunks = [read_chunk(register, request, context=context)]
    else:
        chunks = [read_chunk(register, period) for period in part_periods(register, request)]
        chunks = [chunk for chunk in chunks if not chunk.empty] or [
            chunks[0] if len(chunks) == 1 else read_chunk(register, request)
        ]
    step(15)
    html = render_html(register, chunks)
    rows = sum(chunk.rows for chunk in chunks)
    del chunks
    step(25)
    pdf, pages = html_to_pdf(html)
    del html
    step(85)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    signed, seq, digest = finish(writer, register, request, printed_at=printed_at)
    step(95)
    return Printed(
        pdf=signed,
        sha256=hashlib.sha256(signed).hexdigest(),
        pages=pages,
        rows=rows,
        head_seq=seq,
        head_hash=digest,
    )
