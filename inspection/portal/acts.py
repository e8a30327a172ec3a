"""The officer's acts in the portal, one form each, with the admin's machinery
(:mod:`casino_ops.admin_acts`): the form's fields are the act's input, refused on the field
before anything is called; once they are valid, its ``act(actor, data)`` calls the service with
the officer's signature; a refusal (``RegulationError``) lands on the field it names, or on the
form, with its article, and nothing is recorded.

An act the officer signs with his passkey is posted twice: first to prepare the statement his
authenticator signs (``prepare=1``: the fields are checked, the act is not performed), then
with the signature (:mod:`inspection.portal.passkey`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, cast

from django import forms
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from audit.actions import DEPOT_STAMPED, Action
from cards_registry import selectors as depot
from cards_registry import services as depot_services
from cards_registry.selectors import colour
from cards_registry.services.incidents import closure_fields
from casino_ops import dates
from casino_ops.access import acting_user
from casino_ops.acts import declaration
from casino_ops.admin_acts import ActPageForm
from casino_ops.forms import describe_errors
from house_books.selectors import closings_awaiting_visa
from house_books.services import stamp_closing
from inspection.registers.reports import request_report
from tables.selectors import authorised_minimum_acts, control_days_to_stamp
from tables.services import stamp_authorised_minimum, stamp_control_day

from . import passkey
from .forms import _DATE


class OfficerActForm(ActPageForm):
    """One act of the officer: ``target`` what it acts on (None for a demand of his own);
    ``action`` the act he signs (None: not signed with the passkey)."""

    action: ClassVar[str | None] = None

    def __init__(self, data: Any = None, *, request: HttpRequest | None = None, target: Any = None) -> None:
        self.request = request
        self.target = target
        self.preparing = (
            self.action is not None
            and request is not None
            and data is not None
            and passkey.is_prepare(request)
        )
        actor = acting_user(request) if request is not None else None
        super().__init__(data, actor=actor)

    def full_clean(self) -> None:
        super().full_clean()
        if self.is_bound:
            describe_errors(self)  # each field's error tied to it, as on the portal's other forms

    def _perform(self, data: dict[str, Any]) -> None:
        if not self.preparing:  # the statement to sign is prepared; the act waits for its signature
            super()._perform(data)

    def signature(self) -> Any:
        return passkey.signature_from(self.request) if self.request is not None else None

    def signed_fields(self) -> dict[str, Any]:
        """The fields of the statement the officer signs."""
        return {}

    def done_message(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def error_prefix(self) -> str:
        """What the form's errors are about, when its page lists several (an incident)."""
        return ""

    def error_texts(self) -> list[str]:
        """Each of the form's errors, after its field's label (a refusal with its article)."""
        texts = []
        for name, errors in self.errors.items():
            label = self.fields[name].label if name != NON_FIELD_ERRORS and name in self.fields else ""
            text = " ".join(map(str, errors))
            if label:
                text = _("%(label)s : %(errors)s") % {"label": label, "errors": text}
            texts.append(f"{self.error_prefix()}{text}")
        return texts


def answer(
    request: HttpRequest,
    form: OfficerActForm,
    back: str,
    page: Callable[[OfficerActForm], HttpResponse] | None = None,
) -> HttpResponse:
    """The answer to an officer's act posted: the statement to sign when he prepares it; else the
    act performed by the form and its message, then ``back``. A form refused on a field comes
    back on its ``page`` (the page showing it, given the form as posted): each error next to its
    field (a refusal with its article), those of the whole form above it, as the admin's act
    pages do. A form refused as a whole (its entry stamped meanwhile, the act refused to him),
    or without a page, has each of its errors a message of ``back``."""
    if form.is_valid():
        if form.preparing and form.action is not None:
            return passkey.prepare_response(
                request, act=form.action, target=form.target, fields=form.signed_fields()
            )
        messages.success(request, form.done_message())
    elif page is not None and any(name != NON_FIELD_ERRORS for name in form.errors):
        return page(form)
    else:
        for text in form.error_texts():
            messages.error(request, text)
    return HttpResponseRedirect(back)


class StampForm(OfficerActForm):
    """A visa with the officer's remarks (FR art. 39, 40, 68, 72; LU art. 6, 10, 52)."""

    remark = forms.CharField(label=gettext_lazy("Observations"), required=False, max_length=300)

    #: the entries awaiting this visa, among which its target is found
    @staticmethod
    def entries() -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def signed_fields(self) -> dict[str, Any]:
        return {"remark": self.cleaned_data["remark"]}

    def done_message(self) -> str:
        return _("%(entry)s : visa apposé.") % {"entry": self.target}


class StampOrderForm(StampForm):
    action = DEPOT_STAMPED["order"]
    declared = declaration(depot_services.stamp_order)

    @staticmethod
    def entries() -> Any:
        return depot.entries_to_stamp("order")

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.stamp_order(
            actor=actor, order=self.target, remark=data["remark"], signature=self.signature()
        )


class StampReceptionForm(StampForm):
    action = DEPOT_STAMPED["reception"]
    declared = declaration(depot_services.stamp_reception)

    @staticmethod
    def entries() -> Any:
        return depot.entries_to_stamp("reception")

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.stamp_reception(
            actor=actor, reception=self.target, remark=data["remark"], signature=self.signature()
        )


class StampDestructionForm(StampForm):
    action = DEPOT_STAMPED["destruction"]
    declared = declaration(depot_services.stamp_destruction)

    @staticmethod
    def entries() -> Any:
        return depot.entries_to_stamp("destruction")

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.stamp_destruction(
            actor=actor, destruction=self.target, remark=data["remark"], signature=self.signature()
        )


class StampMakerApprovalForm(StampForm):
    """The approval of a maker the director recorded (FR art. 39, LU art. 6)."""

    action = Action.DEPOT_MAKER_APPROVAL_STAMPED
    declared = declaration(depot_services.stamp_maker_approval)

    @staticmethod
    def entries() -> Any:
        return depot.authority_facts_to_stamp("manufacturer")

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.stamp_maker_approval(
            actor=actor, manufacturer=self.target, remark=data["remark"], signature=self.signature()
        )


class StampSixainCapForm(StampForm):
    """The ministry's limit of sixains the director recorded (FR art. 39, LU art. 6)."""

    action = Action.DEPOT_SIXAIN_CAP_STAMPED
    declared = declaration(depot_services.stamp_sixain_cap)

    @staticmethod
    def entries() -> Any:
        return depot.authority_facts_to_stamp("sixain_cap")

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.stamp_sixain_cap(
            actor=actor, sixain_cap=self.target, remark=data["remark"], signature=self.signature()
        )


class StampClosingForm(StampForm):
    """The closing down of the casino (LU art. 52), stamped by the officer who attended it."""

    action = Action.HOUSE_CLOSING_STAMPED
    declared = declaration(stamp_closing)

    @staticmethod
    def entries() -> Any:
        return closings_awaiting_visa()

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return stamp_closing(
            actor=actor, closing=self.target, remark=data["remark"], signature=self.signature()
        )

    def done_message(self) -> str:
        return _("Cessation de l'exploitation : visa apposé.")


class StampControlDayForm(StampForm):
    """A day closed in the control register (FR art. 72)."""

    action = Action.CONTROL_REGISTER_DAY_STAMPED
    declared = declaration(stamp_control_day)

    @staticmethod
    def entries() -> Any:
        return control_days_to_stamp()

    def signed_fields(self) -> dict[str, Any]:
        return {"remark": self.cleaned_data["remark"].strip()}

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return stamp_control_day(
            actor=actor, control_day=self.target, remark=data["remark"], signature=self.signature()
        )

    def done_message(self) -> str:
        return _("Registre de contrôle du %(day)s : visa apposé.") % {"day": self.target}


class StampMinimumForm(StampForm):
    """The act of the authorised minimum (FR art. 55-5; LU art. 26, 33): a visa without remarks."""

    action = Action.AUTHORISED_MINIMUM_STAMPED
    declared = declaration(stamp_authorised_minimum)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["remark"]

    @staticmethod
    def entries() -> Any:
        return authorised_minimum_acts()

    def signed_fields(self) -> dict[str, Any]:
        return {}

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return stamp_authorised_minimum(actor=actor, act=self.target, signature=self.signature())

    def done_message(self) -> str:
        return _("Minimum autorisé (%(reference)s) : visa apposé.") % {
            "reference": self.target.decree_reference
        }


# The visas by the kind named in the portal's address (its part of the URL).
STAMPS: dict[str, type[StampForm]] = {
    "commande": StampOrderForm,
    "prise-en-charge": StampReceptionForm,
    "destruction": StampDestructionForm,
    "agrement-fabricant": StampMakerApprovalForm,
    "sixains": StampSixainCapForm,
    "minimum-autorise": StampMinimumForm,
    "cessation": StampClosingForm,
    "registre-de-controle": StampControlDayForm,
}


class CloseIncidentForm(OfficerActForm):
    """The officer closes an incident: his findings, and which decks are fit again (FR art. 40,
    LU art. 7)."""

    action = Action.DEPOT_INCIDENT_CLOSED
    declared = declaration(depot_services.close_incident)

    finding = forms.CharField(
        label=gettext_lazy("Constatations"), widget=forms.Textarea(attrs={"rows": 3}), max_length=4000
    )
    decks_fit: forms.ModelMultipleChoiceField[Any] = forms.ModelMultipleChoiceField(
        label=gettext_lazy("Jeux rendus à l'usage (les autres sont mis hors d'usage)"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        decks_fit = cast("forms.ModelMultipleChoiceField[Any]", self.fields["decks_fit"])
        decks_fit.queryset = self.target.decks.all()
        decks_fit.label_from_instance = lambda obj: f"{obj.serial} ({colour(obj.back_colour)})"  # type: ignore[method-assign]
        self.prefix = f"incident-{self.target.pk}"

    def signed_fields(self) -> dict[str, Any]:
        fit = {deck.pk for deck in self.cleaned_data["decks_fit"]}
        decks = list(self.target.decks.all())
        return closure_fields(
            self.cleaned_data["finding"],
            [d.serial for d in decks if d.pk in fit],
            [d.serial for d in decks if d.pk not in fit],
        )

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.close_incident(
            actor=actor,
            incident=self.target,
            finding=data["finding"],
            decks_fit=list(data["decks_fit"]),
            signature=self.signature(),
        )

    def error_prefix(self) -> str:
        return _("Incident n° %(n)s — ") % {"n": self.target.number}

    def done_message(self) -> str:
        return _("Incident n° %(n)s clos.") % {"n": self.target.number}


class DemandOpeningForm(OfficerActForm):
    """The officer's demand to open the card depot's cabinet (FR art. 39, LU art. 6): its reason,
    a text like any other (no control character, no more than its column holds)."""

    action = Action.DEPOT_OPENING_DEMANDED
    declared = declaration(depot_services.demand_opening)

    reason = forms.CharField(label=gettext_lazy("Motif"), max_length=300, required=False)

    def signed_fields(self) -> dict[str, Any]:
        return {"reason": self.cleaned_data["reason"].strip()}

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.demand_opening(actor=actor, reason=data["reason"], signature=self.signature())

    def done_message(self) -> str:
        return _("Demande d'ouverture du dépôt enregistrée le %(at)s.") % {"at": dates.moment(self.result.at)}


class IncidentToldForm(OfficerActForm):
    """The officer acknowledges an incident found by a return, a destruction or a replay (FR art.
    40 §5, LU art. 7 §5): he was told at the moment he acknowledges it, no moment is typed; the
    delay is measured from the finding."""

    declared = declaration(depot_services.record_incident_report)

    #: the incident acknowledged: its page's target, never typed (a disabled field takes no input),
    #: but the field a refusal about the incident lands on, said beside its button
    incident: forms.ModelChoiceField[Any] = forms.ModelChoiceField(
        label=gettext_lazy("incident"), queryset=None, required=False, disabled=True
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        incident = cast("forms.ModelChoiceField[Any]", self.fields["incident"])
        incident.queryset = type(self.target).objects.filter(pk=self.target.pk)
        self.initial["incident"] = self.target.pk
        self.prefix = f"told-{self.target.pk}"

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return depot_services.record_incident_report(
            actor=actor, incident=self.target, officer_informed=actor, informed_at=timezone.now()
        )

    def done_message(self) -> str:
        return _("Avis de l'incident n° %(n)s enregistré.") % {"n": self.target.number}


class RegisterPdfForm(OfficerActForm):
    """A register's signed PDF asked for a period (a print request, which changes no book);
    ``target`` is the register."""

    declared = declaration(request_report)

    date_from = forms.DateField(label=gettext_lazy("Du"), widget=_DATE)
    date_to = forms.DateField(label=gettext_lazy("Au"), widget=_DATE)
    table = forms.IntegerField(label=gettext_lazy("Table n°"), required=False, min_value=1, max_value=99)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.target.needs_table:
            self.fields["table"].required = True
        else:
            del self.fields["table"]

    def clean(self) -> dict[str, Any]:
        data = self.cleaned_data
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            self.add_error("date_to", _("La date de fin précède la date de début."))
        if data.get("date_from") and data.get("date_to") and (data["date_to"] - data["date_from"]).days > 366:
            self.add_error(
                "date_to", _("Une période d'un an au plus s'affiche à l'écran ; demandez le PDF pour plus.")
            )
        return super().clean()

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        return request_report(
            actor=actor,
            register=self.target.name,
            date_from=data["date_from"],
            date_to=data["date_to"],
            table=data.get("table"),
        )

    def done_message(self) -> str:
        return _("PDF signé demandé : %(report)s — %(state)s.") % {
            "report": self.result,
            "state": self.result.get_state_display(),
        }
