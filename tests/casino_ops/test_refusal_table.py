"""docs/refusals.md lists every refusal code of the code with its articles."""

from django.core.management import call_command

from casino_ops import refusal_table


def test_the_refusal_table_in_the_docs_is_the_codes_own() -> None:
    written = (refusal_table.ROOT / "docs" / "refusals.md").read_text(encoding="utf-8")
    assert written == refusal_table.markdown(), "run: python manage.py refusal_table --write"
    call_command("refusal_table", "--check")


def test_the_table_reads_the_article_each_refusal_cites() -> None:
    found = {(r.code, r.fr, r.lu) for r in refusal_table.refusals()}
    assert ("ADVANCE_TOO_SMALL", "FR art. 49", "LU art. 21") in found
    assert ("SESSION_WITHOUT_DEVICE", "règlement intérieur du casino", "LU art. 32, 40, 52") in found
    # a code raised with an article name assigned in its function
    assert ("REASON_REQUIRED", "FR art. 39", "LU art. 6") in found


def test_a_refusal_is_listed_under_each_rule_its_callers_give() -> None:
    table = {(r.code, r.lu, r.module) for r in refusal_table.refusals()}
    # a house rule given its article by its services: listed with each of theirs
    for lu in ("LU art. 8", "LU art. 23", "LU art. 57"):
        assert ("AMOUNT_INVALID", lu, "house_books.rules.common") in table
    assert ("BANK_FAILURE_PENDING", "LU art. 11", "house_books.rules.bank") in table


def test_the_modules_raising_a_refusal_are_those_calling_it() -> None:
    import ast

    tree = ast.parse(
        "def f(profile):\n"
        "    raise Refusal.ADVANCE_TOO_SMALL.error(profile, e='1')\n"
        "def g():\n"
        "    return Refusal.KEY_HOLDER.code\n"
    )
    assert refusal_table._raised_by(tree) == {"ADVANCE_TOO_SMALL"}
