"""The depot's checks for the self-inspection (``manage.py inspect_books``, the nightly task):
every open breach of the card procedure an inspector would find (FR art. 39-40, LU art. 6-7).

Each check reads the books as they stand and yields one :class:`~casino_ops.checks.Breach`
per object at fault, with the article of the casino's profile and the portal page to see it.
The decks in two live shoes and the hand logs of unknown shoes are the tables' checks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from django.db.models import Count, Q
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.books import check_numbering
from casino_ops import dates
from casino_ops.checks import Breach, check
from casino_ops.regulations import cite
from casino_ops.services import get_casino

from . import selectors
from .colours import colour
from .models import (
    CabinetDemand,
    Deck,
    DeckStatus,
    Destruction,
    DestructionLine,
    Incident,
    IssueLine,
    Manufacturer,
    Order,
    Reception,
    ReturnLine,
)
from .rules import MINISTRIES, is_placeholder, names_ministry


def _profile() -> str:
    return get_casino().profile


def _url(name: str, *args: object) -> str:
    try:
        return reverse(f"portal:{name}", args=args)
    except NoReverseMatch:
        return ""


def _deck(deck: Deck) -> str:
    return _("jeu %(serial)s (%(maker)s)") % {"serial": deck.serial, "maker": deck.manufacturer.code}


def _now(day: dt.date | None) -> dt.datetime:
    """The moment the inspection looks at: now, or the end of ``day`` when it is past."""
    now = timezone.now()
    if day is None:
        return now
    end = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min))
    return min(now, end)


@check("depot.decks_out", _("Jeux non rentrés au dépôt après leur journée"))
def decks_out_after_their_day(day: dt.date | None) -> Iterator[Breach]:
    """A deck issued for a day that is over and not yet back (FR art. 40 §5, LU art. 7 §5).

    The gaming day may run past midnight: without ``day``, decks of yesterday are still
    allowed out; with ``day``, every deck issued for that day or before (once it is past).
    """
    today = timezone.localdate()
    lines = IssueLine.objects.filter(return_line__isnull=True).select_related("issue", "deck__manufacturer")
    if day is None:
        lines = lines.filter(issue__day__lt=today - dt.timedelta(days=1))
    elif day < today:
        lines = lines.filter(issue__day__lte=day)
    else:
        return
    article = cite("depot.issue_and_unseal", _profile())
    for line in lines.order_by("issue__day", "issue__table_number", "deck__serial"):
        yield Breach(
            "depot.decks_out",
            article,
            _deck(line.deck),
            _("remis à la table %(t)s pour le %(day)s, jamais rendu")
            % {"t": line.issue.table_number, "day": dates.day(line.issue.day)},
            _url("deck", line.deck_id),
        )


@check("depot.incidents_reported", _("Incidents non signalés à l'officier, ou signalés en retard"))
def incidents_not_reported(day: dt.date | None) -> Iterator[Breach]:
    """An incident is reported "sur-le-champ" to the officer (FR art. 40 §5, LU art. 7 §5)."""
    article = cite("depot.incident", _profile())
    minutes = selectors.depot_settings().incident_report_minutes
    for incident, why in selectors.late_or_unreported_incidents(_now(day)):
        if why == "late":
            detail = _(
                "signalé à %(whom)s %(delay)s après le constat (délai fixé : %(minutes)s min) : "
                "signalement enregistré le %(at)s, déclaré avisé le %(declared)s"
            ) % {
                "whom": incident.told_whom,
                "delay": _delay(incident.report_delay),
                "minutes": minutes,
                "at": dates.moment(incident.told_at),
                "declared": dates.moment(incident.declared_told_at),
            }
        else:
            detail = _("constaté le %(at)s, jamais signalé") % {"at": dates.moment(incident.occurred_at)}
        yield Breach(
            "depot.incidents_reported",
            article,
            _("incident n° %(n)s") % {"n": incident.number},
            detail,
            _url("incidents"),
        )


def _delay(delay: dt.timedelta | None) -> str:
    if delay is None:
        return "—"
    minutes = int(delay.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    return (f"{days} j " if days else "") + (f"{hours} h " if hours or days else "") + f"{minutes} min"


#: The entries an officer stamps: their book, the field of their recording, their article, how
#: they are named and dated, and the field of their day.
_STAMPED: tuple[tuple[Any, str, str, Any, Any, str], ...] = (
    (
        Order,
        "recorded_at",
        "depot.order_book",
        gettext_lazy("bon de commande n° %(n)s"),
        gettext_lazy("établi le %(day)s, non visé"),
        "ordered_on",
    ),
    (
        Reception,
        "recorded_at",
        "depot.receipt_book",
        gettext_lazy("prise en charge n° %(n)s"),
        gettext_lazy("du %(day)s, non visée"),
        "received_on",
    ),
    (
        Destruction,
        "at",
        "depot.destruction",
        gettext_lazy("destruction n° %(n)s"),
        gettext_lazy("du %(day)s, non visée"),
        "at",
    ),
)


@check("depot.unstamped", _("Bons, prises en charge et destructions non visés"))
def unstamped_entries(day: dt.date | None) -> Iterator[Breach]:
    """Orders, receipt-book entries and destructions are stamped by an officer (FR art. 39, LU art. 6);
    one still unstamped after the depot's ``visa_within_days`` is a breach."""
    profile = _profile()
    limit = _now(day) - dt.timedelta(days=selectors.depot_settings().visa_within_days)
    for model, recorded_at, rule, name, dated, day_field in _STAMPED:
        entries = model.objects.filter(visa__isnull=True, **{f"{recorded_at}__lt": limit}).order_by("number")
        for entry in entries:
            yield Breach(
                "depot.unstamped",
                cite(rule, profile),
                name % {"n": entry.number},
                dated % {"day": dates.day(getattr(entry, day_field))},
                _url("visas"),
            )


@check(
    "depot.sixain_cap",
    _(
        "Sixains détenus au-delà du nombre fixé par le ministère ; ce nombre sans sa référence ou "
        "sans le visa de l'officier"
    ),
)
def sixain_cap(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 6: the depot holds no more sixains than the ministry allows; under LU that number is
    the ministry's, recorded with the reference of its decision, never emptied, and stamped by the
    officer (until then named, with the day the director recorded it). A number in force that no
    recorded decision carries (set before decisions were recorded) is named too."""
    profile = _profile()
    limit = selectors.depot_settings().max_sixains
    held = selectors.held_sixains()
    if limit is not None and held > limit:
        yield Breach(
            "depot.sixain_cap",
            cite("depot.max_sixains", profile),
            _("dépôt des cartes"),
            _("%(held)s sixains détenus pour %(limit)s autorisés") % {"held": held, "limit": limit},
            _url("decks"),
        )
    if profile != "LU":
        return
    last = selectors.last_sixain_cap_act()
    if last is None:  # never fixed: receptions are refused by nothing, and nothing to name yet
        return
    if limit is None:
        yield Breach(
            "depot.sixain_cap",
            cite("depot.max_sixains", profile),
            _("dépôt des cartes"),
            _(
                "aucun nombre de sixains fixé par le ministère : le nombre inscrit a été vidé "
                "(%(held)s sixains détenus)"
            )
            % {"held": held},
            _url("decks"),
        )
        return
    wrong = []
    if is_placeholder(last["reference"]):
        wrong.append(
            _("nombre de %(limit)s sixains inscrit le %(at)s sans référence de la décision du ministère")
            % {"limit": limit, "at": dates.moment(last["at"])}
        )
    cap = selectors.sixain_cap_in_force()
    if cap is None or cap.max_sixains != limit:
        wrong.append(
            _(
                "nombre de %(limit)s sixains en vigueur sans décision du ministère inscrite ni visa de l'officier"
            )
            % {"limit": limit}
        )
    elif not hasattr(cap, "visa"):
        wrong.append(
            _(
                "nombre de %(limit)s sixains (%(reference)s) inscrit le %(at)s par %(by)s, en attente du "
                "visa de l'officier"
            )
            % {
                "limit": limit,
                "reference": cap.reference,
                "at": dates.moment(cap.recorded_at),
                "by": cap.recorded_by.get_username(),
            }
        )
    if wrong:
        yield Breach(
            "depot.sixain_cap",
            cite("depot.max_sixains", profile),
            _("dépôt des cartes"),
            " ; ".join(wrong),
            _url("visas") if cap is not None and not hasattr(cap, "visa") else _url("decks"),
        )


@check(
    "depot.maker_approval",
    _("Fabricants agréés sans le ministère, sans la référence de l'agrément ou sans le visa de l'officier"),
)
def maker_approvals(day: dt.date | None) -> Iterator[Breach]:
    """A maker's approval is the ministry's of the casino's profile, recorded with its reference
    (FR art. 39: Interior; LU art. 6: Finance) and stamped by the officer, who checked it: one
    found without them is named, with the receptions of its decks taken in meanwhile."""
    profile = _profile()
    for maker in Manufacturer.objects.select_related("approval_visa").order_by("code"):
        wrong = []
        if not names_ministry(maker.ministry, profile):
            wrong.append(
                _("agréé par « %(by)s », non par le %(ministry)s")
                % {"by": maker.ministry, "ministry": MINISTRIES[profile]}
            )
        if is_placeholder(maker.approval_reference):
            wrong.append(_("référence de l'agrément « %(r)s »") % {"r": maker.approval_reference})
        if not hasattr(maker, "approval_visa"):
            wrong.append(
                _("agrément inscrit le %(day)s en attente du visa de l'officier")
                % {"day": dates.day(maker.registered_at)}
            )
            received = list(
                Reception.objects.filter(manufacturer=maker)
                .order_by("number")
                .values_list("number", "received_on")
            )
            if received:
                wrong.append(
                    _("jeux pris en charge sans ce visa : %(list)s")
                    % {
                        "list": ", ".join(
                            _("prise en charge n° %(n)s du %(day)s") % {"n": number, "day": dates.day(on)}
                            for number, on in received
                        )
                    }
                )
        if wrong:
            yield Breach(
                "depot.maker_approval",
                cite("depot.approved_manufacturer", profile),
                _("fabricant %(code)s (%(name)s)") % {"code": maker.code, "name": maker.name},
                " ; ".join(wrong),
                _url("visas") if not hasattr(maker, "approval_visa") else "",
            )


@check("depot.incomplete_returns", _("Jeux rendus ou détruits incomplets sans incident"))
def incomplete_returns(day: dt.date | None) -> Iterator[Breach]:
    """A deck back with other than 52 cards, or destroyed incomplete, is an incident
    (FR art. 39 §3, 40 §5; LU art. 6 §3, 7 §5): one without its incident is a breach."""
    profile = _profile()
    with_incident = Incident.objects.values("decks")
    for line in (
        ReturnLine.objects.exclude(cards_counted=52)
        .exclude(issue_line__deck__in=with_incident)
        .select_related("issue_line__deck__manufacturer", "deck_return")
        .order_by("id")
    ):
        deck = line.issue_line.deck
        yield Breach(
            "depot.incomplete_returns",
            cite("depot.incident", profile),
            _deck(deck),
            _("rendu avec %(n)s cartes par la table %(t)s le %(day)s, sans incident")
            % {
                "n": line.cards_counted,
                "t": line.deck_return.table_number,
                "day": dates.day(line.deck_return.day),
            },
            _url("deck", deck.pk),
        )
    for destroyed in DestructionLine.objects.filter(Q(complete=False)).select_related(
        "deck__manufacturer", "destruction"
    ):
        yield Breach(
            "depot.incomplete_returns",
            cite("depot.destruction", profile),
            _deck(destroyed.deck),
            _("détruit incomplet (destruction n° %(n)s)") % {"n": destroyed.destruction.number},
            _url("deck", destroyed.deck_id),
        )


@check("depot.deck_states", _("État des jeux contraire aux registres"))
def deck_states(day: dt.date | None) -> Iterator[Breach]:
    """A deck's state follows its books: issued or in play only while out to a table (and out
    once), quarantined only under an open incident (FR art. 40, LU art. 7)."""
    profile = _profile()
    open_lines = IssueLine.objects.filter(return_line__isnull=True)
    for deck in (
        Deck.objects.filter(status__in=[DeckStatus.ISSUED, DeckStatus.IN_PLAY])
        .exclude(issue_lines__in=open_lines)
        .select_related("manufacturer")
    ):
        yield Breach(
            "depot.deck_states",
            cite("depot.issue_and_unseal", profile),
            _deck(deck),
            _("« %(status)s » sans remise en cours à une table") % {"status": deck.get_status_display()},
            _url("deck", deck.pk),
        )
    twice = (
        Deck.objects.annotate(out=Count("issue_lines", filter=Q(issue_lines__return_line__isnull=True)))
        .filter(out__gt=1)
        .select_related("manufacturer")
    )
    for deck in twice:
        yield Breach(
            "depot.deck_states",
            cite("depot.issue_and_unseal", profile),
            _deck(deck),
            _("remis à %(n)s tables à la fois") % {"n": deck.out},
            _url("deck", deck.pk),
        )
    under_incident = Incident.objects.filter(closure__isnull=True).values("decks")
    for deck in (
        Deck.objects.filter(status=DeckStatus.QUARANTINED)
        .exclude(pk__in=under_incident)
        .select_related("manufacturer")
    ):
        yield Breach(
            "depot.deck_states",
            cite("depot.incident", profile),
            _deck(deck),
            _("consigné sans incident ouvert"),
            _url("deck", deck.pk),
        )


# An officer may demand the cabinet be opened "à tout moment": the key holder answers at once.
DEMAND_ANSWER_MINUTES = 60


@check("depot.demands_unanswered", _("Demandes d'ouverture du dépôt restées sans réponse"))
def demands_unanswered(day: dt.date | None) -> Iterator[Breach]:
    """The officer may have the cabinet opened at any time (FR art. 39, LU art. 6): a demand he
    recorded that no opening answered within the hour is a breach."""
    limit = _now(day) - dt.timedelta(minutes=DEMAND_ANSWER_MINUTES)
    article = cite("depot.cabinet_key", _profile())
    for demand in (
        CabinetDemand.objects.filter(openings__isnull=True, at__lt=limit)
        .select_related("officer")
        .order_by("at")
    ):
        yield Breach(
            "depot.demands_unanswered",
            article,
            _("demande d'ouverture du %(at)s") % {"at": dates.moment(demand.at)},
            _("par %(who)s, jamais satisfaite") % {"who": demand.officer.get_username()}
            + (f" ({demand.reason})" if demand.reason else ""),
            _url("demand_opening"),
        )


@check("depot.incidents_open", _("Incidents jamais clos par l'officier"))
def incidents_never_closed(day: dt.date | None) -> Iterator[Breach]:
    """An incident is closed by the officer, who decides what becomes of its decks (FR art. 40 §5,
    LU art. 7 §5): one still open after the depot's ``visa_within_days`` is a breach (its decks
    stay quarantined, out of every use)."""
    limit = _now(day) - dt.timedelta(days=selectors.depot_settings().visa_within_days)
    article = cite("depot.incident", _profile())
    for incident in Incident.objects.filter(closure__isnull=True, occurred_at__lt=limit).order_by("number"):
        yield Breach(
            "depot.incidents_open",
            article,
            _("incident n° %(n)s") % {"n": incident.number},
            _("%(kind)s, constaté le %(day)s, jamais clos par l'officier")
            % {"kind": incident.get_kind_display(), "day": dates.day(incident.occurred_at)},
            _url("incidents"),
        )


@check("depot.over_delivery", _("Jeux pris en charge au-delà du bon de commande"))
def over_deliveries(day: dt.date | None) -> Iterator[Breach]:
    """No more decks are taken in than ordered (FR art. 39, LU art. 6): an order whose
    receptions hold more decks of a colour than it ordered, or a reception recorded as an
    over-delivery, is a breach."""
    article = cite("depot.receipt_book", _profile())
    flagged = set(Reception.objects.filter(over_delivery=True).values_list("order_id", flat=True))
    received = Deck.objects.values("reception__order_id", "back_colour").annotate(n=Count("id")).order_by()
    by_order: dict[int, dict[str, int]] = {}
    for row in received:
        colours = by_order.setdefault(row["reception__order_id"], {})
        typed = row["back_colour"].lower()
        colours[typed] = colours.get(typed, 0) + row["n"]
    orders = Order.objects.filter(pk__in=set(by_order) | flagged).prefetch_related("lines").order_by("number")
    for order in orders:
        ordered: dict[str, int] = {}
        for line in order.lines.all():
            ordered[line.back_colour.lower()] = ordered.get(line.back_colour.lower(), 0) + line.decks
        over = {
            c: n - ordered.get(c, 0) for c, n in by_order.get(order.pk, {}).items() if n > ordered.get(c, 0)
        }
        if not over and order.pk not in flagged:
            continue
        yield Breach(
            "depot.over_delivery",
            article,
            _("bon de commande n° %(n)s") % {"n": order.number},
            _("jeux pris en charge au-delà de la commande")
            + (" : " + ", ".join(f"{colour(c)} +{n}" for c, n in sorted(over.items())) if over else ""),
            _url("visas"),
        )


@check("books.numbering", _("Registres numérotés : lacunes, numéros en double ou dans le désordre"))
def numbering_broken(day: dt.date | None) -> Iterator[Breach]:
    """Every numbered book of the casino (the depot's, the advance book, the shoes, the house
    books: audit.books.numbering) numbered from n° 1 without a gap, a number given twice or out
    of order, and the depot's counters saying their last entry (FR art. 39, 68; LU art. 6, 10)."""
    article = cite("books.no_erasure", _profile())
    for problem in check_numbering():
        where, _sep, what = problem.partition(": ")
        yield Breach("books.numbering", article, where, what)
