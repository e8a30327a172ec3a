"""Self-inspection of the other books (see casino_ops.checks)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from casino_ops import dates, roles
from casino_ops.checks import Breach, check
from casino_ops.regulations import cite
from casino_ops.services import get_casino
from tables import selectors as tables

from . import selectors
from .services.exclusions import MINISTER_RULE, NOTICE_DAYS, NOTICE_RECORDING_DAYS, OWN_RULE


def _gaming_today() -> dt.date:
    """Today as the books count days: the gaming day now belongs to (between midnight and the
    roll-over hour, the evening's day, whose séances and shoes are still out)."""
    return get_casino().gaming_day(timezone.now())


def _profile() -> str:
    return get_casino().profile


def _each(
    code: str, rule: str, found: Iterable[Any], where: Callable[..., str], what: Callable[..., str]
) -> Iterator[Breach]:
    """A breach ``code`` under ``rule``'s article for each row ``found`` (the article read once,
    when a row is found): ``where`` names the row as an inspector would, ``what`` says what is
    wrong; both are given the row, or its values when it is a tuple."""
    article = ""
    for row in found:
        values = row if isinstance(row, tuple) else (row,)
        article = article or cite(rule, _profile())
        yield Breach(code, article, where(*values), what(*values))


def _session(session: Any) -> str:
    return _("séance de la table %(t)s du %(day)s") % {
        "t": session.table.number,
        "day": dates.day(session.day),
    }


def _exclusion(exclusion: Any) -> str:
    return _("%(kind)s de %(name)s du %(day)s") % {
        "kind": exclusion.get_kind_display(),
        "name": f"{exclusion.last_name.upper()} {exclusion.first_names}",
        "day": dates.day(exclusion.decided_on),
    }


def _device(assignment: Any) -> str:
    return _("sabot n° %(n)s") % {"n": assignment.device.number}


@check("house.orphans_not_transferred", _("Orphelins non versés au bureau de bienfaisance en fin d'exercice"))
def orphans_not_transferred(day: dt.date | None) -> Iterator[Breach]:
    """Every exercise ended before ``day`` with orphans whose balance was not paid over."""
    today = day or _gaming_today()
    yield from _each(
        "house.orphans_not_transferred",
        "house.orphans",
        selectors.orphan_exercises_open(before=today.year),
        lambda year, _balance: _("compte « orphelins » %(year)s") % {"year": year},
        lambda _year, balance: (
            _("solde de %(balance)s non versé au bureau de bienfaisance de la commune") % {"balance": balance}
        ),
    )


@check("house.tips_not_counted", _("Pourboires non comptés un jour de séance"))
def tips_not_counted(day: dt.date | None) -> Iterator[Breach]:
    """A day with a séance whose tips box was not counted (``day``, or the 31 days before today)."""
    if day is not None:
        first, last = day, day
    else:
        last = _gaming_today() - dt.timedelta(days=1)
        first = last - dt.timedelta(days=30)
    played = sorted(
        {s.day for s in tables.sessions().filter(day__gte=first, day__lte=last).only("day", "table")}
    )
    yield from _each(
        "house.tips_not_counted",
        "house.tips",
        selectors.days_without_tips_count(played),
        lambda gaming_day: _("pourboires du %(day)s") % {"day": dates.day(gaming_day)},
        lambda _day: _("séance tenue, tirelire non comptée au registre des pourboires"),
    )


def _period(day: dt.date | None) -> tuple[dt.date, dt.date]:
    """``day`` alone, or the 31 days up to today."""
    if day is not None:
        return day, day
    today = _gaming_today()
    return today - dt.timedelta(days=31), today


_OUTSIDE_HOURS = {
    "early_open": gettext_lazy("ouverte avant l'heure notifiée aux ministres"),
    "early_close": gettext_lazy("arrêtée avant l'heure de fermeture sans motif inscrit"),
    "late_close": gettext_lazy("jouée après l'heure de fermeture autorisée : clôturée après elle"),
    "open_late": gettext_lazy("jouée après l'heure de fermeture autorisée : encore ouverte après elle"),
    "late_shoe": gettext_lazy("jouée après l'heure de fermeture autorisée : sabot garni après elle"),
}


@check("house.session_outside_hours", _("Séances hors des heures notifiées"))
def sessions_outside_hours(day: dt.date | None) -> Iterator[Breach]:
    """Séances opened before the start hour notified to the ministers, closed before the
    closing hour without a recorded reason (players gone, three coups without a stake), or
    played past the closing hour (closed after it, still open after it, a shoe filled after it)."""
    yield from _each(
        "house.session_outside_hours",
        "house.hours",
        selectors.sessions_outside_hours(*_period(day)),
        lambda session, _what: _session(session),
        lambda _seance, what: str(_OUTSIDE_HOURS[what]),
    )


@check("house.session_without_authorisation", _("Séances ouvertes après une défaillance de la contrepartie"))
def sessions_without_authorisation(day: dt.date | None) -> Iterator[Breach]:
    """Séances opened after a bank failure, before the new authorisation was recorded."""
    yield from _each(
        "house.session_without_authorisation",
        "house.bank",
        selectors.sessions_opened_without_authorisation(*_period(day)),
        lambda session, _failure: _session(session),
        lambda _seance, failure: (
            _("ouverte après la défaillance du %(at)s, sans nouvelle autorisation")
            % {"at": dates.moment(failure.occurred_at)}
        ),
    )


@check("house.act_by_unapproved", _("Actes signés ou comptés par une personne non agréée"))
def acts_by_unapproved(day: dt.date | None) -> Iterator[Breach]:
    """Lines of the advance books signed or counted by someone with no approval in force that
    day (once the casino keeps its book of approvals)."""
    if not selectors.approvals_book_kept():
        return
    found = selectors.acts_by_unapproved(*_period(day))
    if not found:
        return
    article = cite("house.approvals", _profile())
    for entry, role, person in found:
        yield Breach(
            "house.act_by_unapproved",
            article,
            _("carnet d'avances de la table %(t)s, ligne %(line)s du %(day)s")
            % {
                "t": entry.session.table.number,
                "line": entry.line,
                "day": dates.day(entry.session.day),
            },
            (
                _("signée par %(name)s, non agréé ce jour")
                if role == "signed_by"
                else _("comptée par %(name)s, non agréé ce jour")
            )
            % {"name": person.get_username()},
        )


@check("house.devices_systematic", _("Sabot affecté systématiquement à la même table"))
def devices_systematic(day: dt.date | None) -> Iterator[Breach]:
    """The same shoe at the same table for every séance of a week (at least three)."""
    first, last = _period(day)
    first -= dt.timedelta(days=first.weekday())
    yield from _each(
        "house.devices_systematic",
        "house.devices",
        selectors.systematic_assignments(first, last),
        lambda number, table, _monday: _("sabot n° %(n)s, table %(t)s") % {"n": number, "t": table},
        lambda _number, _table, monday: (
            _("affecté à chaque séance de la semaine du %(day)s") % {"day": dates.day(monday)}
        ),
    )


@check("house.devices_missing", _("Sabots absents de l'armoire"))
def devices_missing(day: dt.date | None) -> Iterator[Breach]:
    """A shoe assigned for a past séance and never put back in the cabinet."""
    yield from _each(
        "house.devices_missing",
        "house.devices",
        selectors.devices_out_of_cabinet(day or _gaming_today()),
        _device,
        lambda assignment: (
            _("affecté à la table %(t)s le %(day)s, non rentré à l'armoire")
            % {"t": assignment.table_number, "day": dates.day(assignment.day)}
        ),
    )


@check("house.exclusion_not_notified", _("Exclusion par la direction non notifiée au ministre"))
def exclusion_not_notified(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 69: an exclusion or refusal of admission by the casino, not notified at once
    (the day of the decision or the next) to the Minister of Justice, with its reasons."""
    today = day or _gaming_today()
    yield from _each(
        "house.exclusion_not_notified",
        OWN_RULE,
        selectors.own_exclusions_not_notified(today, NOTICE_DAYS),
        _exclusion,
        lambda exclusion: (
            _("avis donné le %(d)s seulement") % {"d": dates.day(exclusion.minister_notified_on)}
            if exclusion.minister_notified_on
            else _("aucun avis au Ministre de la Justice")
        ),
    )


@check(
    "house.exclusion_notice_recorded_late", _("Avis du fichier des exclus daté bien avant son inscription")
)
def exclusion_notice_recorded_late(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 68, 69: the day a notice was given or received is the director's word; the moment
    it was recorded is the system's. A day declared earlier than the recording by more than the
    allowed delay (the day itself or the next) is named with both, whichever the declared day says."""
    late = [n for n in selectors.exclusion_notices(day) if n.gap_days > NOTICE_RECORDING_DAYS]
    if not late:
        return
    profile = _profile()
    for notice in late:
        values = {
            "declared": dates.day(notice.declared),
            "recorded": dates.moment(notice.recorded_at),
            "n": notice.gap_days,
        }
        if notice.kind == "director_notice":
            article = cite(MINISTER_RULE, profile)
            detail = _(
                "décision du ministre notifiée au directeur : déclarée le %(declared)s, inscrite le "
                "%(recorded)s (%(n)s jours plus tard)"
            )
        else:
            article = cite(OWN_RULE, profile)
            detail = _(
                "avis au Ministre de la Justice : déclaré le %(declared)s, inscrit le %(recorded)s "
                "(%(n)s jours plus tard)"
            )
        yield Breach(
            "house.exclusion_notice_recorded_late", article, _exclusion(notice.exclusion), detail % values
        )


@check("house.closing_without_visa", _("Cessation de l'exploitation sans le visa du fonctionnaire"))
def closing_without_visa(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 52: the destruction or hand-over at the closing down is made before an officer
    of the Gendarmerie, whose visa the act bears."""
    for closing in selectors.closings_awaiting_visa():
        yield Breach(
            "house.closing_without_visa",
            cite("house.closing", _profile()),
            _("cessation du %(at)s") % {"at": dates.moment(closing.closed_at)},
            _("non visée par le fonctionnaire présent (%(name)s)") % {"name": closing.officer_name},
        )


@check("house.closing_not_disposed", _("Cartes ou sabots non détruits ni remis à la cessation"))
def closing_not_disposed(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 52: after the closing down, no deck or shoe device is still held."""
    yield from _each(
        "house.closing_not_disposed",
        "house.closing",
        selectors.things_not_disposed(),
        lambda kind, label: (_("jeu %(d)s") if kind == "deck" else _("sabot n° %(d)s")) % {"d": label},
        lambda _kind, _label: _("encore détenu après la cessation de l'exploitation"),
    )


@check("house.table_notice", _("Avis de table absent ou périmé"))
def table_notice_missing(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 74: each table in service shows a notice of its advance, minimum and maximum;
    a change of the limits or of the advance calls for a new notice. Under FR, checked once
    the casino posts such notices (internal rules)."""
    current = _profile()
    if current != "LU" and not selectors.table_notices_kept():
        return
    article = cite("house.table_notice", current)
    for row in selectors.notices_in_force():
        if row["minimum"] is None:
            continue  # never played: nothing fixed yet to show
        notice = row["notice"]
        if notice is None:
            what = _("aucun avis apposé")
        elif row["stale"]:
            what = _("avis du %(day)s (%(min)s / %(max)s, encaisse %(adv)s) différent des limites en vigueur")
            what = what % {
                "day": dates.day(notice.day),
                "min": notice.minimum,
                "max": notice.maximum,
                "adv": notice.advance,
            }
        else:
            continue
        yield Breach("house.table_notice", article, _("table n° %(n)s") % {"n": row["number"]}, what)


@check("house.approvals_book_not_kept", _("Livre des agréments non tenu alors que des séances se tiennent"))
def approvals_book_not_kept(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 51, 54, 63: séances held while not one approval of the direction or the staff
    is in the book (until it is kept, the acts' approvals cannot be checked)."""
    if _profile() != "LU":
        return
    days = selectors.days_played_without_approvals_book(*_period(day))
    if not days:
        return
    yield Breach(
        "house.approvals_book_not_kept",
        cite("house.approvals", _profile()),
        _("livre des agréments"),
        _("aucun agrément inscrit ; %(n)s journée(s) de séance du %(first)s au %(last)s")
        % {"n": len(days), "first": dates.day(days[0]), "last": dates.day(days[-1])},
    )


@check("house.committee_incomplete", _("Comité de direction incomplet"))
def committee_incomplete(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 51 I: a casino playing counterpart games other than the boule and the vingt-trois
    has a management committee of at least four members, the director included, each approved
    by the Minister of Justice (checked once the casino keeps its book of approvals)."""
    if _profile() != "LU" or not selectors.approvals_book_kept():
        return
    when = day or _gaming_today()
    members = selectors.committee_in_force(when)
    if len(members) >= selectors.COMMITTEE_MINIMUM:
        return
    yield Breach(
        "house.committee_incomplete",
        cite("house.approvals.direction", _profile()),
        _("comité de direction au %(day)s") % {"day": dates.day(when)},
        _("%(n)s membre(s) agréé(s), directeur responsable compris, au lieu d'au moins %(min)s : %(names)s")
        % {
            "n": len(members),
            "min": selectors.COMMITTEE_MINIMUM,
            "names": ", ".join(a.person.get_username() for a in members) or "—",
        },
    )


@check("house.orphan_entered_late", _("Orphelin inscrit après la journée où il a été trouvé"))
def orphan_entered_late(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 8: a sum found is paid at once into the casino's cash and written in the carnet
    des orphelins; an entry written after the gaming day it was found is named, whatever the
    delay (``day``: on the day it was found and on the day it was written)."""
    yield from _each(
        "house.orphan_entered_late",
        "house.orphans",
        selectors.orphans_entered_late(day),
        lambda entry: _("orphelin n° %(n)s") % {"n": entry.number},
        lambda entry: (
            _("trouvé le %(found)s, inscrit le %(recorded)s")
            % {"found": dates.moment(entry.found_at), "recorded": dates.moment(entry.recorded_at)}
        ),
    )


@check("house.device_before_inventory", _("Sabot affecté avant son inscription à l'armoire"))
def device_before_inventory(day: dt.date | None) -> Iterator[Breach]:
    """LU art. 32 §3, 40: a shoe enters the cabinet's book before it serves at a table."""
    yield from _each(
        "house.device_before_inventory",
        "house.devices",
        selectors.devices_used_before_registered(*_period(day)),
        _device,
        lambda assignment: (
            _("affecté à la table %(t)s le %(day)s, inscrit à l'armoire le %(at)s seulement")
            % {
                "t": assignment.table_number,
                "day": dates.day(assignment.day),
                "at": dates.day(assignment.device.recorded_at),
            }
        ),
    )


@check("people.role_without_act", _("Rôles détenus ou perdus sans acte du livre des rôles"))
def role_without_act(day: dt.date | None) -> Iterator[Breach]:
    """FR art. 68, 69; LU art. 10, 51, 54: a role is given and taken back only by the director's
    act in the book of roles; a role held that no act gave (a group changed in the admin or in
    SQL), or given and gone with no act taking it back, is named. The officer's role is the
    authority's enrolment, not this book's."""
    yield from _each(
        "people.role_without_act",
        "people.roles",
        selectors.roles_not_by_act(),
        lambda user, _role, _held: selectors.person_name(user),
        lambda _user, role, held: (
            (
                _("détient le rôle « %(r)s » qu'aucun acte du livre des rôles ne lui a attribué")
                if held
                else _("a perdu le rôle « %(r)s » sans acte de retrait au livre des rôles")
            )
            % {"r": roles.LABELS.get(role, role)}
        ),
    )


@check("people.name_changed", _("Noms de personnes changés sans acte"))
def name_changed(day: dt.date | None) -> Iterator[Breach]:
    """FR art. 68; LU art. 10: the books name people as the book of roles wrote them; a name
    changed since without the director's act is named."""
    yield from _each(
        "people.name_changed",
        "people.roles",
        selectors.names_changed(),
        lambda _user, recorded, _now: recorded,
        lambda _user, recorded, now: (
            _("nommé « %(now)s » sans acte au livre des rôles (inscrit « %(was)s »)")
            % {"now": now, "was": recorded}
        ),
    )


@check("people.incompatible_roles", _("Personnes détenant des rôles incompatibles"))
def incompatible_roles(day: dt.date | None) -> Iterator[Breach]:
    """FR art. 39, 69; LU art. 6, 10, 51: an officer is never casino staff; whoever signs for the
    direction never counts as croupier or cashier; the hand-log machine is no person."""
    found = selectors.incompatible_roles()
    if not found:
        return
    for user, held in found:
        officer = roles.OFFICER in held
        yield Breach(
            "people.incompatible_roles",
            cite("people.officer" if officer else "people.incompatible", _profile()),
            selectors.person_name(user),
            _("détient ensemble les rôles %(roles)s")
            % {"roles": ", ".join(f"« {roles.LABELS[r]} »" for r in held)},
        )


@check("people.superuser_unrecorded", _("Superutilisateurs créés sur une base en service sans être inscrits"))
def superuser_unrecorded(day: dt.date | None) -> Iterator[Breach]:
    """FR art. 68; LU art. 10: a superuser made once the books held acts is recorded (DEBUG) or
    refused; one that joined after the first act with no event saying so was made behind the
    acts' back (SQL, a loaded fixture)."""
    yield from _each(
        "people.superuser_unrecorded",
        "people.roles",
        selectors.superusers_unrecorded(),
        selectors.person_name,
        lambda user: (
            _("superutilisateur apparu le %(at)s, base en service, sans acte qui l'inscrive")
            % {"at": dates.moment(user.date_joined)}
        ),
    )
