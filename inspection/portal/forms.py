"""Forms of the portal: login with a TOTP code, the code step, filters."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from casino_ops import roles
from casino_ops.forms import SafeForm

from . import access
from .auth import check_code, needs_second_factor, two_factor_required

# A date input's value is always ISO (2026-12-01), whatever the language: the
# browser shows it in the officer's own format.
_DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

_CODE_WIDGET = forms.TextInput(
    attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "pattern": "[0-9 ]*", "size": 8}
)


class OfficerLoginForm(SafeForm):
    """Username, password and the code of the authenticator app, in one step."""

    username = forms.CharField(label=_("Identifiant"), max_length=150)
    password = forms.CharField(label=_("Mot de passe"), strip=False, widget=forms.PasswordInput)
    code = forms.CharField(
        label=_("Code à usage unique"),
        max_length=12,
        widget=_CODE_WIDGET,
        required=False,
        help_text=_("Direction : le code de votre application. Un officier présente ensuite sa clé d'accès."),
    )

    error_messages = {
        "invalid": _("Identifiant ou mot de passe incorrect."),
        "not_officer": _("Ce portail est réservé aux officiers de police et de contrôle."),
        "code": _("Code à usage unique incorrect ou expiré."),
    }

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        self.request = request
        self.user: Any = None
        self.device: Any = None
        super().__init__(*args, **kwargs)
        if not two_factor_required():
            # TWO_FACTOR_REQUIRED=0: the officers sign in with their password only.
            del self.fields["code"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        user = authenticate(self.request, username=data["username"], password=data["password"])
        if user is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        if not access.may_log_in(user):
            raise forms.ValidationError(self.error_messages["not_officer"], code="not_officer")
        if not needs_second_factor(user) or roles.has_role(user, roles.OFFICER):
            # an officer gives his passkey at the next step (the session is not verified before)
            self.user = user
            return data
        if not data.get("code"):
            self.add_error("code", forms.ValidationError(self.error_messages["code"], code="code"))
            return data
        device = check_code(self.request, user, data.get("code", ""))
        if device is None:
            self.add_error("code", forms.ValidationError(self.error_messages["code"], code="code"))
            return data
        self.user, self.device = user, device
        return data


class CodeForm(SafeForm):
    """The second step for a user already signed in with a password (the admin)."""

    code = forms.CharField(label=_("Code à usage unique"), max_length=12, widget=_CODE_WIDGET)

    def __init__(self, request: HttpRequest, *args: Any, **kwargs: Any) -> None:
        self.request = request
        self.device: Any = None
        super().__init__(*args, **kwargs)

    def clean_code(self) -> str:
        code: str = self.cleaned_data["code"]
        self.device = check_code(self.request, self.request.user, code)
        if self.device is None:
            raise forms.ValidationError(_("Code à usage unique incorrect ou expiré."), code="code")
        return code


class EnrolForm(SafeForm):
    """Confirm a new authenticator app with its first code."""

    code = forms.CharField(label=_("Premier code affiché"), max_length=12, widget=_CODE_WIDGET)

    def __init__(self, device: Any, *args: Any, **kwargs: Any) -> None:
        self.device = device
        super().__init__(*args, **kwargs)

    def clean_code(self) -> str:
        code: str = self.cleaned_data["code"].strip().replace(" ", "")
        if not code.isdigit() or not self.device.verify_token(code):
            raise forms.ValidationError(_("Code incorrect : vérifiez l'heure du téléphone."), code="code")
        return code


class AuditSearchForm(SafeForm):
    q = forms.CharField(label=_("Recherche"), required=False, max_length=200)
    action = forms.CharField(label=_("Acte"), required=False, max_length=64)
    actor = forms.CharField(label=_("Auteur"), required=False, max_length=150)
    object_type = forms.CharField(label=_("Type d'objet"), required=False, max_length=100)
    object_id = forms.CharField(label=_("N° de l'objet"), required=False, max_length=64)
    since = forms.DateField(label=_("Depuis le"), required=False, widget=_DATE)
    until = forms.DateField(label=_("Jusqu'au"), required=False, widget=_DATE)
    before = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class SessionFilterForm(SafeForm):
    table = forms.IntegerField(label=_("Table n°"), required=False, min_value=1, max_value=99)
    since = forms.DateField(label=_("Du"), required=False, widget=_DATE)
    until = forms.DateField(label=_("Au"), required=False, widget=_DATE)
    status = forms.ChoiceField(
        label=_("État"),
        required=False,
        choices=[
            ("", "—"),
            ("open", _("ouverte")),
            ("interrupted", _("interrompue")),
            ("closed", _("clôturée")),
        ],
    )


class RegisterFilterForm(SafeForm):
    date_from = forms.DateField(label=_("Du"), widget=_DATE)
    date_to = forms.DateField(label=_("Au"), widget=_DATE)
    table = forms.IntegerField(label=_("Table n°"), required=False, min_value=1, max_value=99)

    def __init__(self, *args: Any, needs_table: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].required = needs_table
        if not needs_table:
            del self.fields["table"]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            self.add_error("date_to", _("La date de fin précède la date de début."))
        if data.get("date_from") and data.get("date_to") and (data["date_to"] - data["date_from"]).days > 366:
            self.add_error(
                "date_to", _("Une période d'un an au plus s'affiche à l'écran ; demandez le PDF pour plus.")
            )
        return data


class SignatureCheckForm(SafeForm):
    MAX_BYTES = 50 * 1024 * 1024

    pdf = forms.FileField(
        label=_("Fichier PDF à vérifier"),
        widget=forms.ClearableFileInput(attrs={"accept": "application/pdf"}),
    )

    def clean_pdf(self) -> Any:
        upload = self.cleaned_data["pdf"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("Fichier trop volumineux (50 Mo au plus)."), code="size")
        head = upload.read(5)
        upload.seek(0)
        if head != b"%PDF-":
            raise forms.ValidationError(
                _("Ce fichier n'est pas un PDF (il ne commence pas par %PDF-)."), code="type"
            )
        return upload


class AdvanceBookForm(SafeForm):
    table = forms.IntegerField(label=_("Table n°"), min_value=1, max_value=99)
    date_from = forms.DateField(label=_("Du"), widget=_DATE)
    date_to = forms.DateField(label=_("Au"), widget=_DATE)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if data.get("date_from") and data.get("date_to") and data["date_from"] > data["date_to"]:
            self.add_error("date_to", _("La date de fin précède la date de début."))
        return data


class ControlDayForm(SafeForm):
    day = forms.DateField(label=_("Journée"), widget=_DATE)
