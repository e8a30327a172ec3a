"""Every refusal is declared once, in ``casino_ops.refusals``: its code, its rule, its message.

No module of the apps writes a refusal's code itself: a ``RegulationError("CODE", …)``, or a
string equal to a code of the registry, anywhere else fails here. The engine's discrepancy
codes are another vocabulary (``tables.blackjack.rules.DISCREPANCY_CODES``): one of them
may be spelled as a refusal is.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.utils import translation

from casino_ops import refusal_table
from casino_ops.refusals import GIVEN, UNCITED, Refusal, Said
from casino_ops.regulations import ARTICLES, RegulationError
from tables.blackjack.rules import DISCREPANCY_CODES

REGISTRY = Path("casino_ops") / "refusals.py"


def literal_codes(tree: ast.Module, codes: set[str]) -> list[tuple[int, str]]:
    """Where ``tree`` writes a refusal's code: the code of a ``RegulationError(…)`` given as a
    string, or any string that is a code of ``codes`` (not a discrepancy code of the engine)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            first = node.args[0] if node.args else None
            if name == "RegulationError" and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((node.lineno, first.value))
        elif isinstance(node, ast.Constant) and node.value in codes and node.value not in DISCREPANCY_CODES:
            found.append((node.lineno, str(node.value)))
    return found


def _app_modules() -> list[Path]:
    return [
        path.relative_to(refusal_table.ROOT)
        for app in refusal_table.APPS
        for path in sorted((refusal_table.ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts
    ]


def test_no_module_writes_a_refusal_code() -> None:
    codes = {refusal.code for refusal in Refusal}
    written = [
        f"{path}:{line}: {code}"
        for path in _app_modules()
        if path != REGISTRY
        for line, code in literal_codes(ast.parse((refusal_table.ROOT / path).read_text("utf-8")), codes)
    ]
    assert not written, "refuse with casino_ops.refusals.Refusal.<code>.error(…):\n" + "\n".join(written)


def test_the_check_finds_a_code_written_by_hand() -> None:
    source = ast.parse(
        "def f(profile):\n"
        "    raise RegulationError('NEW_CODE', _('Non.'), cite('house.bank', profile))\n"
        "def g(error):\n"
        "    return error.code == 'ALREADY_STAMPED'\n"
        "def h(events):\n"
        "    return [e for e in events if e.code == 'TOO_MANY_BOXES']\n"
    )
    assert literal_codes(source, {"ALREADY_STAMPED", "TOO_MANY_BOXES"}) == [
        (2, "NEW_CODE"),
        (4, "ALREADY_STAMPED"),
    ]


def test_every_refusal_of_the_registry_is_raised_somewhere() -> None:
    raised = refusal_table.raised_in()
    assert [refusal.name for refusal in Refusal if refusal.name not in raised] == []


def test_a_refusal_cites_its_rule_under_the_profile() -> None:
    error = Refusal.ADVANCE_TOO_SMALL.error("LU", e="30 000,00")
    assert isinstance(error, RegulationError)
    assert (error.code, error.article, error.field) == ("ADVANCE_TOO_SMALL", "LU art. 21", "advance_amount")
    with translation.override("fr"):
        assert Refusal.ADVANCE_TOO_SMALL.error("FR", e="30 000,00").message == (
            "L'avance au black-jack est d'au moins 3 000 fois le minimum des mises : 30 000,00."
        )
    # another of its rules, named; its field, another
    pending = Refusal.FIELD_REQUIRED_PEOPLE_ROLES
    error = pending.error("LU", rule="house.tips", field="day", what="la journée")
    assert (error.code, error.article, error.field) == ("FIELD_REQUIRED", "LU art. 57", "day")
    with pytest.raises(ValueError, match="not raised under"):
        pending.error("LU", rule="depot.incident", what="x")


def test_a_refusal_given_its_article_says_it_and_a_message_said_otherwise() -> None:
    error = Refusal.ALREADY_STAMPED.error(article="FR art. 39", message="Déjà visé : %(x)s.", x="la commande")
    assert (error.code, error.message, error.article, error.field) == (
        "ALREADY_STAMPED",
        "Déjà visé : la commande.",
        "FR art. 39",
        None,
    )
    # a value named as one of error()'s own keywords is given in values={…}
    error = Refusal.CORRECTION_VALUE.error(
        article="", values={"field": "result", "value": "x", "allowed": "y"}
    )
    assert "« result »" in error.message
    with pytest.raises(ValueError, match="pass article="):
        Refusal.ALREADY_STAMPED.error("FR")


def test_a_member_named_otherwise_keeps_its_code() -> None:
    assert Refusal.ALREADY_STAMPED_HOUSE_CLOSING.code == "ALREADY_STAMPED"
    assert Refusal.ALREADY_STAMPED_HOUSE_CLOSING.error("LU").article == "LU art. 52"
    # every member has its own value (never an alias of another)
    assert len(Refusal.__members__) == len(list(Refusal))


def test_a_refusal_declares_only_rules_of_the_law_map() -> None:
    with pytest.raises(ValueError, match="without an article"):
        Said("", ("house.nowhere",))
    for refusal in Refusal:
        assert all(rule in (GIVEN, UNCITED) or rule in ARTICLES for rule in refusal.rules)
