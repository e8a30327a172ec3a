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


def test_a_rule_given_its_article_by_its_callers_is_listed_with_theirs() -> None:
    import ast

    rules = ast.parse(
        "def check_pending(pending, article):\n"
        "    if pending:\n"
        "        raise RegulationError('PENDING', _('Déjà inscrite.'), article)\n"
    )
    service = ast.parse(
        "def record(actor):\n"
        "    article = cite('house.bank', profile())\n"
        "    rules.check_pending(True, article)\n"
        "def other(actor):\n"
        "    rules.check_pending(False, article=cite('house.closing', profile()))\n"
    )
    callers = refusal_table._Callers({"app.rules": rules, "app.services": service})
    found = {(r.code, r.fr, r.lu) for r in refusal_table._refusals_in(rules, "app.rules", callers)}
    assert found == {
        ("PENDING", "règlement intérieur du casino", "LU art. 11"),
        ("PENDING", "règlement intérieur du casino", "LU art. 52"),
    }
    # and in the project's own table: the house rules' refusals carry their services' articles
    table = {(r.code, r.lu) for r in refusal_table.refusals()}
    assert ("BANK_FAILURE_PENDING", "LU art. 11") in table
