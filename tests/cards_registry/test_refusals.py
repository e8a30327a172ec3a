"""The remaining refusals of the depot's acts, each with its code, article and field; nothing is written."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from cards_registry import services
from casino_ops.regulations import RegulationError
from tests.support.builders import books_read_under

pytestmark = pytest.mark.django_db


def _now() -> dt.datetime:
    return timezone.now()


def _incident(ctx: dict[str, Any], **kw: Any) -> dict[str, Any]:
    args = dict(
        actor=ctx["director"],
        kind="missing",
        occurred_at=_now() - dt.timedelta(minutes=2),
        day=timezone.localdate(),
        decks=ctx["decks"][:1],
        officer_informed=ctx["officer"],
        officer_informed_at=_now() - dt.timedelta(minutes=1),
        circumstances="Carte manquante.",
    )
    args.update(kw)
    return args


CASES: list[tuple[str, str, str | None, Any]] = [
    (
        "FIELD_REQUIRED",
        "FR art. 39",
        "ministry",
        lambda c: (
            services.register_manufacturer,
            dict(
                actor=c["director"],
                code="M2",
                name="N",
                approval_reference="R",
                ministry=" ",
                valid_from=dt.date(2024, 1, 1),
            ),
        ),
    ),
    (
        "ORDER_UNIT",
        "FR art. 39",
        "lines",
        lambda c: (
            services.create_order,
            dict(
                actor=c["director"],
                manufacturer=c["maker"],
                ordered_on=timezone.localdate(),
                lines=[{"quantity": 1, "unit": "box", "back_colour": "bleu"}],
            ),
        ),
    ),
    (
        "ORDER_COLOUR",
        "FR art. 39",
        "lines",
        lambda c: (
            services.create_order,
            dict(
                actor=c["director"],
                manufacturer=c["maker"],
                ordered_on=timezone.localdate(),
                lines=[{"quantity": 1, "unit": "deck", "back_colour": " "}],
            ),
        ),
    ),
    (
        "RECEPTION_EMPTY",
        "FR art. 39",
        "decks",
        lambda c: (
            services.receive,
            dict(actor=c["director"], order=c["order"], received_on=timezone.localdate()),
        ),
    ),
    (
        "COLOUR_REQUIRED",
        "FR art. 39",
        "decks",
        lambda c: (
            services.receive,
            dict(
                actor=c["director"],
                order=c["order"],
                received_on=timezone.localdate(),
                decks=[{"serial": "Q1"}],
            ),
        ),
    ),
    (
        "COLOUR_REQUIRED",
        "FR art. 39",
        "decks",
        lambda c: (
            services.receive,
            dict(
                actor=c["director"],
                order=c["order"],
                received_on=timezone.localdate(),
                sixains=[
                    {
                        "serial": "SQ",
                        "decks": [{"serial": f"Q{i}", "back_colour": "bleu"} for i in range(3)]
                        + [{"serial": f"R{i}"} for i in range(3)],
                    }
                ],
            ),
        ),
    ),
    (
        "TABLE_REQUIRED",
        "FR art. 40",
        "table_number",
        lambda c: (
            services.issue_decks,
            dict(actor=c["director"], table_number=0, day=timezone.localdate(), decks=c["decks"][:1]),
        ),
    ),
    (
        "ISSUE_EMPTY",
        "FR art. 40",
        "decks",
        lambda c: (
            services.issue_decks,
            dict(actor=c["director"], table_number=1, day=timezone.localdate(), decks=[]),
        ),
    ),
    (
        "RETURN_EMPTY",
        "FR art. 40",
        "results",
        lambda c: (
            services.return_decks,
            dict(actor=c["director"], table_number=1, day=timezone.localdate(), results=[]),
        ),
    ),
    (
        "RETURN_RESULT",
        "FR art. 40",
        "results",
        lambda c: (
            services.return_decks,
            dict(
                actor=c["director"],
                table_number=1,
                day=timezone.localdate(),
                results=[(c["decks"][0], "lost")],
            ),
        ),
    ),
    ("INCIDENT_KIND", "FR art. 40", "kind", lambda c: (services.report_incident, _incident(c, kind="fire"))),
    (
        "INCIDENT_IN_FUTURE",
        "FR art. 40",
        "occurred_at",
        lambda c: (
            services.report_incident,
            _incident(
                c,
                occurred_at=_now() + dt.timedelta(hours=1),
                officer_informed_at=_now() + dt.timedelta(hours=2),
            ),
        ),
    ),
    ("INCIDENT_DECKS", "FR art. 40", "decks", lambda c: (services.report_incident, _incident(c, decks=[]))),
    (
        "DESTRUCTION_EMPTY",
        "FR art. 39",
        "decks",
        lambda c: (services.destroy_decks, dict(actor=c["director"], officer=c["officer"], checks=[])),
    ),
    (
        "KEY_SAME_HOLDER",
        "FR art. 39",
        "receiver",
        lambda c: (services.hand_over_key, dict(actor=c["director"], receiver=c["director"])),
    ),
]


@pytest.mark.parametrize(("code", "article", "field", "make"), CASES, ids=[c[0] for c in CASES])
def test_refusal(
    code: str,
    article: str,
    field: str | None,
    make: Any,
    director: Any,
    officer: Any,
    maker: Any,
    sent_order: Any,
    decks: list[Any],
) -> None:
    fn, kwargs = make(
        {"director": director, "officer": officer, "maker": maker, "order": sent_order, "decks": decks}
    )
    events = AuditEvent.objects.count()
    with pytest.raises(RegulationError) as info:
        fn(**kwargs)
    assert (info.value.code, info.value.article, info.value.field) == (code, article, field)
    assert AuditEvent.objects.count() == events


def test_incident_closure_refusals(director: Any, officer: Any, decks: list[Any]) -> None:
    incident = services.report_incident(
        **_incident({"director": director, "officer": officer, "decks": decks})
    )
    with pytest.raises(RegulationError) as info:
        services.close_incident(actor=officer, incident=incident, finding=" ")
    assert (info.value.code, info.value.article) == ("FINDING_REQUIRED", "FR art. 40")
    with pytest.raises(RegulationError) as info:
        services.close_incident(actor=officer, incident=incident, finding="Vu", decks_fit=[decks[3]])
    assert (info.value.code, info.value.field) == ("DECK_NOT_IN_INCIDENT", "decks_fit")


def test_sending_after_the_approval_ended_is_refused(director: Any, officer: Any, casino: Any) -> None:
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    ending = services.register_manufacturer(
        actor=director,
        code="END",
        name="Fin d'agrément",
        approval_reference="R",
        ministry="Intérieur",
        valid_from=dt.date(2024, 1, 1),
        valid_until=yesterday,
    )
    order = services.create_order(
        actor=director,
        manufacturer=ending,
        ordered_on=yesterday,
        lines=[{"quantity": 1, "unit": "deck", "back_colour": "bleu"}],
    )
    services.stamp_order(actor=officer, order=order)
    with pytest.raises(RegulationError) as info:
        services.send_order(actor=director, order=order)
    assert (info.value.code, info.value.article) == ("MANUFACTURER_NOT_APPROVED", "FR art. 39")


def test_destruction_stamped_twice_is_refused(director: Any, officer: Any, decks: list[Any]) -> None:
    today = timezone.localdate()
    services.issue_decks(actor=director, table_number=1, day=today, decks=decks[:1])
    services.return_decks(actor=director, table_number=1, day=today, results=[(decks[0], "worn", "", 52)])
    destruction = services.destroy_decks(
        actor=director, officer=officer, checks=[{"deck": decks[0], "complete": True, "unmarked": True}]
    )
    services.stamp_destruction(actor=officer, destruction=destruction)
    with pytest.raises(RegulationError) as info:
        services.stamp_destruction(actor=officer, destruction=destruction)
    assert (info.value.code, info.value.article) == ("ALREADY_STAMPED", "FR art. 39")


def test_lu_articles_follow_the_profile(director: Any, officer: Any, decks: list[Any]) -> None:

    books_read_under("LU")
    with pytest.raises(RegulationError) as info:
        services.report_incident(
            **_incident({"director": director, "officer": officer, "decks": decks}, officer_informed=None)
        )
    assert info.value.article == "LU art. 7"
    with pytest.raises(RegulationError) as info:
        services.stamp_order(actor=director, order=decks[0].reception.order)
    assert info.value.article == "LU art. 6"
