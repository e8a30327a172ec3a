"""The table of every refusal code and the article it applies, read from the code itself.

Each ``RegulationError("CODE", message, article)`` of the apps is found by reading their
modules (never by importing them); its article is the ``cite(rule, profile)`` it passes,
directly or through a name assigned in the same function, and the table gives that
rule's FR and LU citations. ``docs/refusals.md`` is this table; a test fails when the
file no longer matches the code.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .regulations import ARTICLES

APPS = ("casino_ops", "audit", "cards_registry", "tables", "house_books", "inspection")
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Refusal:
    code: str
    fr: str
    lu: str
    module: str
    message: str = ""


def _message(node: ast.expr | None) -> str:
    """The French text of a refusal's message (``_("…")``, or ``_("…") % {…}``)."""
    if isinstance(node, ast.BinOp):
        node = node.left
    if isinstance(node, ast.Call) and node.args:
        node = node.args[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " ".join(node.value.split())
    return ""


def _rule(node: ast.expr, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _article(node: ast.expr | None, names: dict[str, ast.expr], constants: dict[str, str]) -> tuple[str, str]:
    if isinstance(node, ast.Name) and node.id in names:
        node = names[node.id]
    if node is None:
        return "", ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value, "") if node.value.startswith("FR") else ("", node.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "cite"
        and node.args
        and _rule(node.args[0], constants) in ARTICLES
    ):
        texts = ARTICLES[_rule(node.args[0], constants) or ""]
        return texts.get("FR", ""), texts.get("LU", "")
    return "(selon la règle)", "(selon la règle)"


def _is_refusal(call: ast.Call) -> bool:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return (
        name == "RegulationError"
        and bool(call.args)
        and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str)
    )


def _refusals_in(tree: ast.Module, module: str) -> Iterator[Refusal]:
    constants = {
        node.targets[0].id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }
    scopes = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    seen: set[int] = set()
    for scope in [*scopes, tree]:
        names: dict[str, ast.expr] = {}
        for node in ast.walk(scope):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                names[node.targets[0].id] = node.value
        for node in ast.walk(scope):
            if isinstance(node, ast.Call) and _is_refusal(node) and id(node) not in seen:
                seen.add(id(node))
                article = node.args[2] if len(node.args) > 2 else None
                for keyword in node.keywords:
                    if keyword.arg == "article":
                        article = keyword.value
                fr, lu = _article(article, names, constants)
                first = node.args[0]
                assert isinstance(first, ast.Constant) and isinstance(first.value, str)
                second = node.args[1] if len(node.args) > 1 else None
                yield Refusal(first.value, fr, lu, module, _message(second))


def refusals() -> list[Refusal]:
    # in the order of the source (a dict, not a set): a code's first message is the same every run
    found: set[Refusal] = set()
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found.update(_refusals_in(ast.parse(path.read_text(encoding="utf-8")), module))
    return sorted(found, key=lambda r: (r.code, r.fr, r.lu, r.module, r.message))


def _cell(text: str, limit: int = 160) -> str:
    text = text.replace("|", "\\|")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def markdown() -> str:
    by_code: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
    said: dict[tuple[str, str, str], str] = {}
    for refusal in refusals():
        by_code[refusal.code][(refusal.fr, refusal.lu)].add(refusal.module)
        if refusal.message and not said.get((refusal.code, refusal.fr, refusal.lu)):
            said[(refusal.code, refusal.fr, refusal.lu)] = refusal.message
    lines = [
        "# Refusal codes",
        "",
        "Every refusal of a regulated act is `{code, message, field, article}` (HTTP 400 in the API,",
        "the message under its field in the admin, one line on a command's error output). This table",
        "is made from the code (`python manage.py refusal_table --write`; a test fails when it is out",
        "of date): each code, the article it cites under each profile, and where it is raised. An",
        "empty cell: that profile has no article for the rule; “(selon la règle)”: the article is",
        "the rule's the refusal is about (the book, the act, the game). The message is the first the",
        "code gives, in French (`%(…)s`: filled in with the act's values).",
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
