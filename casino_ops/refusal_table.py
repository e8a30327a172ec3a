"""The table of every refusal code and the article it applies, read from the code itself.

Each ``RegulationError("CODE", message, article)`` of the apps is found by reading their
modules (never by importing them); its article is the ``cite(rule, profile)`` it passes,
directly or through a name assigned in the same function, or, when a rule function receives
its article as a parameter, the ``cite(…)`` its callers pass for it; and the table gives that
rule's FR and LU citations. ``docs/refusals.md`` is this table; a test fails when the
file no longer matches the code.
"""

from __future__ import annotations

import ast
import functools
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


SAID_BY_RULE = "(selon la règle)"


@dataclass(frozen=True)
class _Call:
    """A call of a function by its name, in the scope it is made from."""

    node: ast.Call
    names: dict[str, ast.expr]  # the names assigned in the calling function
    constants: dict[str, str]
    caller: ast.FunctionDef | ast.AsyncFunctionDef | None


def _params(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    return [arg.arg for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]]


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


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
    return SAID_BY_RULE, SAID_BY_RULE


def _is_refusal(call: ast.Call) -> bool:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return (
        name == "RegulationError"
        and bool(call.args)
        and isinstance(call.args[0], ast.Constant)
        and isinstance(call.args[0].value, str)
    )


def _constants(tree: ast.Module) -> dict[str, str]:
    return {
        node.targets[0].id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def _scopes(
    tree: ast.Module,
) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, dict[str, ast.expr]]]:
    """Each function of the module (then the module itself) and the names assigned in it."""
    functions = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    for scope in [*functions, tree]:
        names: dict[str, ast.expr] = {}
        for node in ast.walk(scope):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                names[node.targets[0].id] = node.value
        yield (scope if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) else None), names


class _Callers:
    """Every call in the apps, by the called function's name: the articles a rule function
    receives as a parameter are the ones its callers pass."""

    def __init__(self, trees: dict[str, ast.Module]) -> None:
        self.calls: dict[str, list[_Call]] = defaultdict(list)
        self.defs: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = defaultdict(list)
        for tree in trees.values():
            constants = _constants(tree)
            seen: set[int] = set()
            for function, names in _scopes(tree):
                if function is not None:
                    self.defs[function.name].append(function)
                for node in ast.walk(function or tree):
                    if isinstance(node, ast.Call) and id(node) not in seen:
                        seen.add(id(node))
                        self.calls[_called_name(node)].append(_Call(node, names, constants, function))
        self._memo: dict[tuple[str, str], set[tuple[str, str]]] = {}

    def articles(self, function: str, param: str) -> set[tuple[str, str]]:
        """The (FR, LU) articles the callers of ``function`` pass as its ``param``."""
        key = (function, param)
        if key in self._memo:
            return self._memo[key]
        self._memo[key] = found = set()  # a call cycle finds nothing more
        positions = {
            _params(d).index(param) - (1 if _params(d)[:1] in (["self"], ["cls"]) else 0)
            for d in self.defs.get(function, ())
            if param in _params(d)[: len(d.args.posonlyargs) + len(d.args.args)]
        }
        for call in self.calls.get(function, ()):
            node: ast.expr | None = next((k.value for k in call.node.keywords if k.arg == param), None)
            if node is None:
                positional = [call.node.args[p] for p in sorted(positions) if 0 <= p < len(call.node.args)]
                node = positional[0] if positional else None
            if node is None:
                continue
            if isinstance(node, ast.Name) and node.id in call.names:
                node = call.names[node.id]
            if isinstance(node, ast.Name) and call.caller is not None and node.id in _params(call.caller):
                found |= self.articles(call.caller.name, node.id)
                continue
            if isinstance(node, ast.Constant) and not str(node.value).startswith(("FR", "LU")):
                continue  # not an article (a field's name, a value)
            fr, lu = _article(node, call.names, call.constants)
            if SAID_BY_RULE not in (fr, lu) and (fr or lu):
                found.add((fr, lu))
        return found


def _refusals_in(tree: ast.Module, module: str, callers: _Callers | None = None) -> Iterator[Refusal]:
    constants = _constants(tree)
    seen: set[int] = set()
    for function, names in _scopes(tree):
        scope = function or tree
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
                given = (
                    callers.articles(function.name, article.id)
                    if callers is not None
                    and function is not None
                    and isinstance(article, ast.Name)
                    and article.id not in names
                    and article.id in _params(function)
                    else set()
                )
                for cited_fr, cited_lu in sorted(given) or [(fr, lu)]:
                    yield Refusal(first.value, cited_fr, cited_lu, module, _message(second))


@functools.cache
def refusals() -> tuple[Refusal, ...]:
    """Every refusal the apps' source raises, read once per process (the source does not change
    under a running process; the command and the docs' check both read it)."""
    # in the order of the source (a dict, not a set): a code's first message is the same every run
    trees: dict[str, ast.Module] = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            trees[module] = ast.parse(path.read_text(encoding="utf-8"))
    callers = _Callers(trees)
    found: set[Refusal] = set()
    for module, tree in trees.items():
        found.update(_refusals_in(tree, module, callers))
    return tuple(sorted(found, key=lambda r: (r.code, r.fr, r.lu, r.module, r.message)))


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
