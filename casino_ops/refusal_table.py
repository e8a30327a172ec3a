"""The table of every refusal code and the article it applies, made from the registry.

Each member of :class:`casino_ops.refusals.Refusal` gives its code, the rules whose articles
it cites (their FR and LU citations, from ``casino_ops.regulations.ARTICLES``) and its
message; the modules it is raised in are those that call ``Refusal.<member>.error``.
``docs/refusals.md`` is this table; a test fails when the file no longer matches the
registry.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from django.utils import translation

from .refusals import DECLARED_REFUSALS, GIVEN, UNCITED, Refusal
from .regulations import ARTICLES

APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")
ROOT = Path(__file__).resolve().parent.parent

SAID_BY_RULE = "(selon la règle)"


@dataclass(frozen=True)
class Row:
    code: str
    fr: str
    lu: str
    module: str
    message: str = ""


def _citations(rule: str | None) -> tuple[str, str]:
    if rule is GIVEN:
        return SAID_BY_RULE, SAID_BY_RULE
    if rule == UNCITED:
        return "", ""
    texts = ARTICLES[rule]
    return texts.get("FR", ""), texts.get("LU", "")


def _raised_by(tree: ast.Module) -> set[str]:
    """The members ``tree`` raises: each ``Refusal.<member>.error`` it calls."""
    return {
        node.func.value.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "error"
        and isinstance(node.func.value, ast.Attribute)
        and isinstance(node.func.value.value, ast.Name)
        and node.func.value.value.id == "Refusal"
    }


@functools.cache
def raised_in() -> dict[str, frozenset[str]]:
    """Each member's name and the modules of the apps that raise it."""
    found: dict[str, set[str]] = defaultdict(set)
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for name in _raised_by(ast.parse(path.read_text(encoding="utf-8"))):
                found[name].add(module)
    return {name: frozenset(modules) for name, modules in found.items()}


def _of(module: str, apps: tuple[str, ...]) -> bool:
    return any(module == app or module.startswith(f"{app}.") for app in apps)


def refusals(apps: tuple[str, ...] = APPS) -> tuple[Row, ...]:
    """Every refusal of the registry, under each rule it cites, in each module raising it; a
    refusal declared beside its rules (``casino_ops.refusals.declare``) in its module, when that
    module is one of ``apps`` (the product's: an app the tests alone install is not listed)."""
    where = raised_in()
    rows: set[Row] = set()
    declared = [
        (r, frozenset({r.value.declared_in})) for r in DECLARED_REFUSALS if _of(r.value.declared_in, apps)
    ]
    with translation.override(None):  # the French of the code, whatever the active language
        for refusal, modules in [*((r, where.get(r.name, frozenset())) for r in Refusal), *declared]:
            message = " ".join(str(refusal.message).split())
            for rule in refusal.rules:
                fr, lu = _citations(rule)
                for module in modules:
                    rows.add(Row(refusal.code, fr, lu, module, message))
    return tuple(sorted(rows, key=lambda r: (r.code, r.fr, r.lu, r.module, r.message)))


def _cell(text: str, limit: int = 160) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def markdown(apps: tuple[str, ...] = APPS) -> str:
    by_code: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
    said: dict[tuple[str, str, str], str] = {}
    for refusal in refusals(apps):
        by_code[refusal.code][(refusal.fr, refusal.lu)].add(refusal.module)
        if refusal.message and not said.get((refusal.code, refusal.fr, refusal.lu)):
            said[(refusal.code, refusal.fr, refusal.lu)] = refusal.message
    lines = [
        "# Refusal codes",
        "",
        "Every refusal of a regulated act is `{code, message, field, article}` (HTTP 400 in the API,",
        "the message under its field in the admin, one line on a command's error output). This table",
        "is made from the registry of refusals, `casino_ops/refusals.py` (`python manage.py",
        "refusal_table --write`; a test fails when it is out of date): each code, the article it",
        "cites under each profile, and the modules raising it. An empty cell: that profile has no",
        "article for the rule; “(selon la règle)”: the article is the rule's the refusal is about",
        "(the book, the act, the game). The message is the registry's for the code under that",
        "article (the first module's, when several say it), in French (`%(…)s`: filled in with",
        "the act's values).",
        "",
        "| code | FR | LU | message | raised in |",
        "|---|---|---|---|---|",
    ]
    for code in sorted(by_code):
        for (fr, lu), modules in sorted(by_code[code].items()):
            message = _cell(said.get((code, fr, lu), ""))
            where = ", ".join(f"`{m}`" for m in sorted(modules))
            lines.append(f"| `{code}` | {fr} | {lu} | {message} | {where} |")
    return "\n".join(lines) + "\n"
