"""HTML -> PDF (WeasyPrint) -> signed PDF (pyHanko), for any register.

Every page carries the casino, the register's name and legal model number,
the period, the audit chain's head (sequence and hash) at the moment of
printing, and "page X / Y"; the signature (FR art. 68) covers the whole file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from audit import signing
from audit.chain import head
from casino_ops.regulations import cite

from .base import Register, Request

Progress = Callable[[int], None]


@dataclass
class Printed:
    pdf: bytes
    sha256: str
    pages: int
    rows: int
    head_seq: int
    head_hash: str


def _css_string(text: str) -> str:
    """A CSS string literal's content: no quote, backslash or tag can break out of it."""
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("<", "\\3c ")
        .replace(">", "\\3e ")
        .replace("\n", " ")
    )


def period_label(request: Request) -> str:
    if request.date_from == request.date_to:
        return _("Journée du %(d)s") % {"d": request.date_from.strftime("%d/%m/%Y")}
    return _("Du %(a)s au %(b)s") % {
        "a": request.date_from.strftime("%d/%m/%Y"),
        "b": request.date_to.strftime("%d/%m/%Y"),
    }


@dataclass
class Html:
    text: str
    head_seq: int
    head_hash: str


def render_html(
    register: Register, request: Request, *, context: dict[str, Any] | None = None, part_label: str = ""
) -> Html:
    """The register as HTML, with its header (context from its selectors unless given)."""
    from casino_ops.models import CasinoSettings

    casino = CasinoSettings.objects.filter(pk=1).first()
    profile = casino.profile if casino else "FR"
    seq, digest = head()
    body = register.context(request) if context is None else context
    printed_at = timezone.localtime()
    footer = _(
        "Registre tenu par ordinateur et validé par signature électronique (FR art. 68). "
        "Chaîne d'audit n° %(seq)s à l'impression."
    ) % {"seq": seq}
    ctx = {
        **body,
        "register": register,
        "request": request,
        "casino_name": casino.name if casino else _("Casino"),
        "casino_authorisation": getattr(casino, "authorisation_reference", "") if casino else "",
        "profile": profile,
        "article": cite(register.rule, profile),
        "period_label": period_label(request),
        "table_label": (_("Table n° %(n)s") % {"n": request.table}) if request.table is not None else "",
        "part_label": part_label,
        "head_seq": seq,
        "head_hash": digest,
        "printed_at": printed_at,
        "footer_css": _css_string(footer),
    }
    with translation.override("fr"):
        return Html(render_to_string(register.template, ctx), seq, digest)


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


def print_register(
    register: Register,
    request: Request,
    *,
    progress: Progress | None = None,
    context: dict[str, Any] | None = None,
    part_label: str = "",
) -> Printed:
    """Read, render, sign. Refuses before any work when no certificate is configured."""
    step = progress or (lambda _pct: None)
    register.check(request)
    signing.get_signer()  # says clearly that signing is not configured, before rendering
    body = register.context(request) if context is None else context
    step(15)
    html = render_html(register, request, context=body, part_label=part_label)
    rows = row_count(body)
    del body
    step(25)
    pdf, pages = html_to_pdf(html.text)
    seq, digest = html.head_seq, html.head_hash
    del html
    step(85)
    signed = signing.sign_pdf(pdf)
    step(95)
    return Printed(
        pdf=signed,
        sha256=hashlib.sha256(signed).hexdigest(),
        pages=pages,
        rows=rows,
        head_seq=seq,
        head_hash=digest,
    )
