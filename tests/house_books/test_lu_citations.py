"""Under LU every refusal cites a Luxembourg article, never a French one, and the books name
no French model number (the LU books' models are fixed by the Minister of Finances)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from casino_ops import access
from casino_ops.access import ACTS, RoleRequired
from casino_ops.regulations import ARTICLES, RegulationError, cite
from house_books import services
from house_books.models import BankFailure, TipsCount
from house_books.services.bank import record_bank_failure
from inspection.registers import REGISTERS, get_register
from inspection.registers.base import Request
from inspection.registers.render import footer_lines, header_of

TODAY = timezone.localdate()
D = TODAY - dt.timedelta(days=3)


@pytest.mark.parametrize("rule", sorted(ARTICLES))
def test_every_rule_cites_a_luxembourg_article_under_lu(rule: str) -> None:
    article = cite(rule, "LU")
    assert article.startswith("LU art. "), (rule, article)
    assert "FR" not in article, (rule, article)


@pytest.mark.parametrize("act", sorted((a for a, r in ACTS.items() if r.rule), key=str))
def test_every_role_refusal_with_a_rule_cites_a_luxembourg_article_under_lu(act: Any) -> None:
    with pytest.raises(RoleRequired) as refused:
        access.require(None, act, profile="LU")
    assert refused.value.article.startswith("LU art. "), (act, refused.value.article)


@pytest.mark.django_db
def test_an_act_of_the_books_refused_to_a_croupier_cites_the_books_article(
    lu_casino: Any, croupier: Any
) -> None:
    at = timezone.make_aware(dt.datetime.combine(D, dt.time(2)))
    with pytest.raises(RegulationError) as refused:
        record_bank_failure(
            actor=croupier,
            occurred_at=at,
            description="Encaisse insuffisante",
            officer_name="Insp. Weber",
            officer_told_at=at,
            minister_told_at=at,
        )
    assert (refused.value.field, refused.value.article) == ("actor", "LU art. 11")
    with pytest.raises(RegulationError) as refused:
        services.record_orphan(
            actor=croupier, found_at=at, kind="floor", amount="5.00", description="Jeton à terre"
        )
    assert (refused.value.field, refused.value.article) == ("actor", "LU art. 8")


@pytest.mark.django_db
def test_lu_registers_name_no_french_model_and_cite_no_french_article(lu_casino: Any) -> None:
    request = Request(D, D, 1)
    for name in sorted(REGISTERS.names()):
        header = header_of(get_register(name), request)
        assert "n° 1" not in header["model"] and "n° 2" not in header["model"], (name, header["model"])
        assert header["article"].startswith("LU art. "), (name, header["article"])
    footer = " ".join(footer_lines(request, 1, "0" * 64, timezone.now()))
    assert "FR art." not in footer and "signature électronique" in footer


@pytest.mark.django_db
def test_fr_registers_keep_their_model_numbers(casino: Any) -> None:
    header = header_of(get_register("advance-book"), Request(D, D, 1))
    assert header["model"] == "Modèle n° 10" and header["article"].startswith("FR art.")
    assert "(FR art. 68)" in footer_lines(Request(D, D, 1), 1, "0" * 64, timezone.now())[0]


# -- Refusal codes with their article ------------------------------------------------------------


@pytest.mark.django_db
def test_tips_counted_by_a_croupier_refused_tips_count_role(
    lu_casino: Any, croupier: Any, committee: Any, client: Any
) -> None:
    with pytest.raises(RegulationError) as refused:
        services.count_tips(
            actor=croupier, day=D, box="Tirelire n° 1", amount="12.00", witness=committee, note=""
        )
    assert (refused.value.code, refused.value.article, refused.value.field) == (
        "TIPS_COUNT_ROLE",
        "LU art. 57",
        "actor",
    )
    assert not TipsCount.objects.exists()


@pytest.mark.django_db
def test_a_second_failure_before_the_new_authorisation_refused_bank_failure_pending(
    lu_casino: Any, director: Any
) -> None:
    def _fail(hour: int) -> BankFailure:
        at = timezone.make_aware(dt.datetime.combine(D, dt.time(hour)))
        return record_bank_failure(
            actor=director,
            occurred_at=at,
            description="Encaisse insuffisante",
            officer_name="Insp. Weber",
            officer_told_at=at,
            minister_told_at=at,
        )

    _fail(2)
    with pytest.raises(RegulationError) as refused:
        _fail(3)
    assert (refused.value.code, refused.value.article, refused.value.field) == (
        "BANK_FAILURE_PENDING",
        "LU art. 11",
        "occurred_at",
    )
    assert BankFailure.objects.count() == 1
