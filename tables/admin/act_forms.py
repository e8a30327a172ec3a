"""The forms of the tables' acts: each ``act()`` calls its service (casino_ops.admin_acts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from cards_registry.selectors import colour, decks_checked_for_play
from casino_ops import roles
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActPageForm, model_choice_field
from casino_ops.regulations import RegulationError
from casino_ops.services import get_casino
from casino_ops.validators import validate_no_control_characters

from .. import services
from ..models import (
    AdvanceEntry,
    AuthorisedMinimum,
    ControlDay,
    ControlLine,
    DiscrepancyAcknowledgement,
    HandLogSource,
    MaximumChange,
    MinistryNotice,
    Session,
    Shoe,
    Table,
)
from ._shared import money_field, role_users

if TYPE_CHECKING:
    _ModelMultipleChoiceField = forms.ModelMultipleChoiceField[Any]
else:  # generic in the stubs only
    _ModelMultipleChoiceField = forms.ModelMultipleChoiceField


class DeckChoiceField(_ModelMultipleChoiceField):
    """Decks named as the director reads them on the decks: serial, back colour, sixain."""

    def label_from_instance(self, deck: Any) -> str:
        sixain = _("sixain %(s)s") % {"s": deck.sixain.serial} if deck.sixain_id else _("sans sixain")
        return f"{deck.serial} — {colour(deck.back_colour)}, {sixain}"


class OpenSessionForm(ActPageForm):
    declared = declaration(services.open_session)
    model = Session
    table = forms.ModelChoiceField(label=_("table"), queryset=Table.objects.filter(in_service=True))
    day = forms.DateField(
        label=_("journée de jeu"),
        required=False,
        help_text=_("Vide : la journée de jeu en cours, la seule pour laquelle une séance s'ouvre."),
    )
    minimum = money_field(_("minimum des mises"))
    maximum = money_field(_("maximum par case"))
    advance_amount = money_field(_("avance initiale comptée et annoncée"))
    croupier = forms.ModelChoiceField(
        label=_("compté par (chef de table)"), queryset=role_users(roles.CROUPIER)
    )
    guarantee_fund = money_field(_("fonds de garantie justifié (LU)"), required=False)
    ministry_notice = forms.ModelChoiceField(
        label=_("information du ministre (LU, minimum relevé)"),
        queryset=MinistryNotice.objects.all(),
        required=False,
        help_text=_("L'information inscrite huit jours au moins avant la journée (LU art. 26)."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["day"].initial = get_casino().gaming_day(timezone.now())

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.open_session(actor=actor, **data)


class SessionActForm(ActPageForm):
    """An act on one séance (its page's acts)."""

    def __init__(self, *args: Any, session: Session, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.session = session


class AdvanceForm(SessionActForm):
    declared = declaration(services.add_advance)
    model = AdvanceEntry
    amount = money_field(_("montant compté et annoncé"))
    counted_by = forms.ModelChoiceField(label=_("compté par"), queryset=role_users(roles.CROUPIER))

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.add_advance(
            actor=actor, session=self.session, amount=data["amount"], counted_by=data["counted_by"]
        )


class MaximumForm(SessionActForm):
    declared = declaration(services.change_maximum)
    model = MaximumChange
    maximum = money_field(_("nouveau maximum par case"))
    display_changed = forms.BooleanField(
        label=_("l'affichage de la table indique le nouveau maximum"), required=False
    )

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.change_maximum(
            actor=actor,
            session=self.session,
            maximum=data["maximum"],
            display_changed=data["display_changed"],
        )


class InterruptForm(SessionActForm):
    declared = declaration(services.interrupt_session)
    model = AdvanceEntry
    mode = forms.ChoiceField(
        label=_("interruption"),
        choices=[("counted", _("encaisse comptée et inscrite")), ("locked", _("encaisse déposée sous clé"))],
    )
    amount = money_field(_("encaisse comptée"), required=False)
    key_holder = forms.ModelChoiceField(
        label=_("détenteur de la clé"),
        queryset=role_users(roles.DIRECTOR, roles.COMMITTEE, roles.CROUPIER),
        required=False,
    )
    signed_by = forms.ModelChoiceField(
        label=_("signataire de l'encaisse comptée (LU : directeur ou membre du comité)"),
        queryset=role_users(roles.DIRECTOR, roles.COMMITTEE),
        required=False,
    )
    cashier = forms.ModelChoiceField(
        label=_("caissier présent (LU, encaisse comptée)"), queryset=role_users(roles.CASHIER), required=False
    )

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.interrupt_session(
            actor=actor,
            session=self.session,
            mode=data["mode"],
            amount=data["amount"],
            key_holder=data["key_holder"],
            signed_by=data["signed_by"],
            cashier=data["cashier"],
        )


class ResumeForm(SessionActForm):
    declared = declaration(services.resume_session)
    confirm = forms.BooleanField(label=_("la partie reprend"))

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.resume_session(actor=actor, session=self.session)


class CloseForm(SessionActForm):
    declared = declaration(services.close_session)
    model = Session
    closing_cash = money_field(_("encaisse comptée, annoncée et inscrite"))
    counted_by = forms.ModelChoiceField(label=_("compté par"), queryset=role_users(roles.CROUPIER))
    cashier = forms.ModelChoiceField(
        label=_("caissier présent"), queryset=role_users(roles.CASHIER), required=False
    )
    certified_exact = forms.BooleanField(label=_("je certifie l'inscription « exacte »"), required=False)

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.close_session(
            actor=actor,
            session=self.session,
            closing_cash=data["closing_cash"],
            counted_by=data["counted_by"],
            cashier=data["cashier"],
            certified_exact=data["certified_exact"],
        )


class ShoeForm(SessionActForm):
    """The six decks are chosen among those the depot issued to the session's table for
    its day, by serial and sixain (what the director reads on the decks)."""

    declared = declaration(services.fill_shoe)
    model = Shoe
    decks = DeckChoiceField(
        label=_("jeux remis à la table (six : trois de chaque couleur de dos)"),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "invalid_choice": _(
                "Un jeu choisi n'est pas (ou plus) remis à cette table pour la journée : rechargez la page."
            ),
            "invalid_pk_value": _("Choisissez les jeux dans la liste."),
        },
    )
    label = forms.CharField(label=_("identifiant du sabot (facultatif)"), required=False)

    def __init__(self, *args: Any, session: Session, **kwargs: Any) -> None:
        super().__init__(*args, session=session, **kwargs)
        field = model_choice_field(self, "decks")
        # only the decks unsealed or checked at the table that day (FR art. 40, LU art. 7)
        field.queryset = decks_checked_for_play(table_number=session.table.number, day=session.day)

    def clean_decks(self) -> list[int]:
        return [deck.pk for deck in self.cleaned_data["decks"]]

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.fill_shoe(
            actor=actor, session=self.session, deck_ids=data["decks"], label=data["label"]
        )


class HandLogForm(SessionActForm):
    declared = declaration(services.upload_hand_log)
    file = forms.FileField(label=_("journal de mains (.json : un sabot ; .jsonl : un sabot par ligne)"))

    def act(self, actor: Any, data: dict[str, Any]) -> list[Any]:
        """A .json file holds one log, a .jsonl file one log per line, like ``manage.py replay``:
        all the file's logs are received, or none (a refusal names the line)."""
        upload, session = data["file"], self.session
        raw = upload.read()
        if not (upload.name or "").lower().endswith(".jsonl"):
            return [
                services.upload_hand_log(actor=actor, session=session, raw=raw, source=HandLogSource.ADMIN)
            ]
        logs = []
        with transaction.atomic():
            for number, line in enumerate(raw.split(b"\n"), 1):
                if not line.strip():
                    continue
                try:
                    logs.append(
                        services.upload_hand_log(
                            actor=actor, session=session, raw=line.rstrip(b"\r"), source=HandLogSource.ADMIN
                        )
                    )
                except RegulationError as error:
                    raise RegulationError(
                        error.code,
                        _("Ligne %(n)s : %(m)s") % {"n": number, "m": error.message},
                        error.article,
                        field=error.field,
                    ) from None
        return logs


class CorrectionForm(ActPageForm):
    """A line of the advance book or of the control register corrected by a new line (FR art. 68)."""

    declared = declaration(services.correct_control_line)
    model = ControlLine
    amount = forms.DecimalField(label=_("montant correct"), max_digits=14, decimal_places=2)
    approval = forms.CharField(label=_("approbation du directeur, en toutes lettres"), widget=forms.Textarea)
    reason = forms.CharField(label=_("motif"), widget=forms.Textarea)

    def __init__(self, *args: Any, line: AdvanceEntry | ControlLine, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.line = line

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        if isinstance(self.line, AdvanceEntry):
            return services.correct_advance_entry(
                actor=actor,
                entry=self.line,
                amount=data["amount"],
                approval=data["approval"],
                reason=data["reason"],
            )
        return services.correct_control_line(
            actor=actor,
            line=self.line,
            result=data["amount"],
            approval=data["approval"],
            reason=data["reason"],
        )


class ExplanationForm(ActPageForm):
    """The director's explanation when he takes note of discrepancies (required for a log of a
    shoe the séance never filled, FR art. 40, LU art. 7)."""

    declared = declaration(services.acknowledge_discrepancies)
    model = DiscrepancyAcknowledgement
    note = forms.CharField(
        label=_("explication du directeur"),
        widget=forms.Textarea,
        validators=[validate_no_control_characters],
        help_text=_("D'où venaient les cartes du sabot inconnu, ce qui a été vérifié."),
    )

    def __init__(self, *args: Any, discrepancies: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.discrepancies = discrepancies

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.acknowledge_discrepancies(
            actor=actor, discrepancies=self.discrepancies, note=data["note"]
        )


class DelegationForm(ActPageForm):
    declared = declaration(services.grant_delegation)
    delegate = forms.ModelChoiceField(
        label=_("membre du comité de direction délégué"), queryset=role_users(roles.COMMITTEE)
    )
    approval_reference = forms.CharField(label=_("référence de l'agrément du ministre"), max_length=200)
    approved_on = forms.DateField(label=_("agréé le"))
    valid_from = forms.DateField(label=_("en vigueur du"))
    valid_until = forms.DateField(label=_("en vigueur jusqu'au (facultatif)"), required=False)

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.grant_delegation(actor=actor, **data)


class MinistryNoticeForm(ActPageForm):
    declared = declaration(services.record_ministry_notice)
    minimum = money_field(_("minimum annoncé"))
    sent_on = forms.DateField(label=_("envoyée le"))
    reference = forms.CharField(
        label=_("référence de l'information (courrier, accusé de réception)"),
        max_length=120,
        validators=[validate_no_control_characters],
    )

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.record_ministry_notice(actor=actor, **data)


class AuthorisedMinimumForm(ActPageForm):
    declared = declaration(services.record_authorised_minimum)
    minimum = money_field(_("mise minimale autorisée"))
    decree_reference = forms.CharField(label=_("référence de l'arrêté"), max_length=200)
    decree_date = forms.DateField(label=_("arrêté du"))
    in_force_on = forms.DateField(label=_("en vigueur le"))

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.record_authorised_minimum(actor=actor, **data)


# -- the acts run from a list's action (casino_ops.admin_acts.act_action) -----------------------


class TableServiceForm(ActPageForm):
    """A table put out of service, or back in service."""

    declared = declaration(services.set_table_in_service)

    def __init__(self, *args: Any, table: Table, in_service: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table, self.in_service = table, in_service

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.set_table_in_service(actor=actor, table=self.table, in_service=self.in_service)

    def done(self, result: Any) -> tuple[int, str]:
        return messages.SUCCESS, _("Acte enregistré : %(t)s.") % {"t": self.table}


class StampMinimumForm(ActPageForm):
    """An officer's visa on the authorised minimum of a decree."""

    declared = declaration(services.stamp_authorised_minimum)

    def __init__(self, *args: Any, minimum: AuthorisedMinimum, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.minimum = minimum

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.stamp_authorised_minimum(actor=actor, act=self.minimum)

    def done(self, result: Any) -> tuple[int, str]:
        return messages.SUCCESS, _("Acte visé : %(a)s.") % {"a": self.minimum}


class AcknowledgeForm(ActPageForm):
    """The director takes note of discrepancies (without an explanation)."""

    declared = declaration(services.acknowledge_discrepancies)

    def __init__(self, *args: Any, discrepancies: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.discrepancies = discrepancies

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.acknowledge_discrepancies(actor=actor, discrepancies=self.discrepancies)

    def done(self, result: Any) -> tuple[int, str]:
        return messages.SUCCESS, _("%(n)s écart(s) pris en compte.") % {"n": len(result)}


class CloseDayForm(ActPageForm):
    """The director closes a day of the control register."""

    declared = declaration(services.close_day)

    def __init__(self, *args: Any, control_day: ControlDay, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.control_day = control_day

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return services.close_day(actor=actor, day=self.control_day.day)

    def done(self, result: Any) -> tuple[int, str]:
        return messages.SUCCESS, _("Journée du %(d)s arrêtée.") % {"d": self.control_day}
