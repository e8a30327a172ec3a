"""The one way the admin performs a regulated act: a form whose ``act(actor, data)`` calls the
act's service.

:class:`ActFormMixin` runs the act once the form's own fields are valid (in ``clean()``): a
refusal (``RegulationError``, with its article) lands on the field it names, or on the form;
nothing is recorded. The same form is shown three ways, and only these:

- :class:`ActAdmin`: a book's entries read-only, "Ajouter" is the act's :class:`ActForm`
  (offered to whoever may perform its act, :mod:`casino_ops.access`);
- :func:`act_page`: an act on a page of its own (a séance's acts, a correction of a line);
- :func:`act_action`: an act run from a list's action, its refusal shown as a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from . import access
from .access import Act
from .acts import REGISTRY, DeclaredAct
from .admin_display import amount_columns
from .admin_utils import ReadOnlyAdmin
from .forms import SafeFormMixin
from .regulations import RegulationError

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups
    from django_stubs_ext import StrOrPromise

    _ModelForm = forms.ModelForm[Any]
else:  # ModelForm is generic in the stubs only
    _ModelForm = forms.ModelForm


def users_with_role(*names: str) -> QuerySet[Any]:
    """The active users of any of the roles ``names``, by username (the choices of a form)."""
    return (
        get_user_model()
        .objects.filter(groups__name__in=names, is_active=True)
        .distinct()
        .order_by("username")
    )


def model_choice_field(form: forms.BaseForm, name: str) -> forms.ModelChoiceField[Any]:
    """The form's field ``name``, a choice of model instances (to set its queryset per request)."""
    field = form.fields[name]
    if not isinstance(field, forms.ModelChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a ModelChoiceField")
    return field


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field ``name``, a choice (to set its choices per request)."""
    field = form.fields[name]
    if not isinstance(field, forms.ChoiceField):
        raise TypeError(f"{type(form).__name__}.{name} is not a ChoiceField")
    return field


def regulation_error_to_form(form: forms.BaseForm, error: RegulationError) -> None:
    """Put a refusal on the form: on its field when it names one, else on the form."""
    text = str(error)
    field = error.field if error.field in form.fields else None
    form.add_error(field, text)


class ActFormMixin(SafeFormMixin):
    """A form that performs one regulated act: ``act(actor, data)`` calls its service.

    Its fields take their limits from the model's (casino_ops.forms): absurd input is refused
    on the field before the service is called. ``field_map`` names this form's field for a
    field the service names otherwise. ``refusal`` (the acting user's lack of role, given by
    the page) is shown instead of acting. ``declared``: the declaration of the service its
    ``act()`` calls (``declaration(services.x)``, casino_ops.acts), whose acts the page, the
    "Ajouter" or the action is offered under (a test reads ``act()`` and holds it to it)."""

    actor: Any = None
    declared: ClassVar[DeclaredAct | None] = None
    field_map: ClassVar[dict[str, str]] = {}
    result: Any = None
    refused: RegulationError | PermissionDenied | None = None

    def __init__(self, *args: Any, actor: Any = None, refusal: RegulationError | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        if actor is not None:
            self.actor = actor
        self.refusal = refusal

    def act(self, actor: Any, data: dict[str, Any]) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def done(self, result: Any) -> tuple[int, str] | None:
        """The message once the act is done (its level and text); None: the page's own."""
        return None

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()  # type: ignore[misc]
        data: dict[str, Any] = self.cleaned_data if cleaned is None else cleaned  # type: ignore[attr-defined]
        if self.refusal is not None:
            regulation_error_to_form(self, self.refusal)  # type: ignore[arg-type]
        elif not self.errors:  # type: ignore[attr-defined]
            self._perform(data)
        return data

    def _perform(self, data: dict[str, Any]) -> None:
        try:
            self.result = self.act(self.actor, data)
        except RegulationError as error:
            self.refused = error
            error.field = self.field_map.get(error.field or "", error.field)
            regulation_error_to_form(self, error)  # type: ignore[arg-type]
        except PermissionDenied as error:
            self.refused = error
            self.add_error(None, str(error) or _("Vous n'avez pas le droit de faire cet acte."))  # type: ignore[attr-defined]


class ActForm(ActFormMixin, _ModelForm):
    """The act of an :class:`ActAdmin`'s "Ajouter" page (a model form over the book's model,
    with no field of its own: the service saves)."""

    class Meta:
        fields: list[str] = []

    def _post_clean(self) -> None:
        # The act validated and saved through its service; no model validation here.
        pass


class ActPageForm(ActFormMixin, forms.Form):
    """The act of a page of its own (:func:`act_page`) or of a list's action (:func:`act_action`)."""


def declared_acts(form_class: Any) -> tuple[Act, ...]:
    """The acts of the declaration of the service ``form_class``'s ``act()`` calls (none when
    the form declares none)."""
    declared = getattr(form_class, "declared", None)
    return declared.acts if declared is not None else ()


def may_perform(user: Any, form_class: Any) -> bool:
    """May ``user`` perform one of the acts of ``form_class``'s declaration (a door's offer)?"""
    return any(access.may(user, act) for act in declared_acts(form_class))


class ActAdmin(ReadOnlyAdmin):
    """Read-only entries; "Ajouter" runs ``add_form``'s act for whoever may perform its act:
    the acts of the declaration of the service it calls (``add_form.declared``), else ``act``
    (casino_ops.access; a form not yet declared)."""

    add_form: type[ActForm] | None = None
    act: Act = Act.DEPOT
    detail_fields: tuple[str, ...] = ()

    @property
    def add_acts(self) -> tuple[Act, ...]:
        """Who may add: the acts of ``add_form``'s declaration, else ``act``."""
        return declared_acts(self.add_form) or (self.act,)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.add_form is not None and any(access.may(request.user, act) for act in self.add_acts)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> _FieldGroups:
        if obj is None and self.add_form is not None:
            return list(self.add_form.base_fields)
        return list(self.detail_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[Any, ...]:
        return () if obj is None else amount_columns(self.model, self.detail_fields)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        if obj is None and self.add_form is not None:
            return type(self.add_form.__name__, (self.add_form,), {"actor": request.user})
        kwargs["fields"] = ()
        return super().get_form(request, obj, change=change, **kwargs)

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        request._act_outcome = form.done(form.result)  # type: ignore[attr-defined]
        return form.result

    def response_add(
        self, request: HttpRequest, obj: Any, post_url_continue: str | None = None
    ) -> HttpResponse:
        """The form's own message once done (what the act opened, as an incident), else Django's."""
        outcome = getattr(request, "_act_outcome", None)
        if outcome is None:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(request, outcome[1], outcome[0])
        opts = obj._meta
        return HttpResponseRedirect(
            reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        )

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        pass  # saved by the service

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        pass


class _CallsItsDeclaration:
    """The act of a form derived from a declaration: its service, given the form's fields."""

    declared: ClassVar[DeclaredAct | None] = None

    def act(self, actor: Any, data: dict[str, Any]) -> Any:
        if self.declared is None:  # pragma: no cover - only derived forms mix it in
            raise ImproperlyConfigured("a derived act form without its declaration")
        return self.declared.service(actor=actor, **data)


def declared_form(declared: DeclaredAct) -> type[ActForm]:
    """The "Ajouter" form of a declaration's ``book``: the model's fields the declaration's
    ``schema`` names (the API's body), their limits the model's, and its act the service."""
    names = [name for name in declared.schema().fields if name != "actor"]
    meta = type("Meta", (), {"model": declared.book, "fields": names})
    form: type[ActForm] = type(
        f"{declared.book.__name__}Form",
        (_CallsItsDeclaration, ActForm),
        {"Meta": meta, "declared": declared, "__module__": declared.service.__module__},
    )
    return form


class DeclaredBookAdmin(ActAdmin):
    """A book's admin page derived from its act's declaration (``declare_act(book=…)``): its
    entries read-only, each field shown; "Ajouter" the form of :func:`declared_form`."""

    def get_list_display(self, request: HttpRequest) -> Any:
        return self.detail_fields


def register_declared_admins(site: admin.AdminSite) -> None:
    """Register the admin page of every declared act's ``book`` that has none yet (called once
    the apps' services are imported, at start-up)."""
    for declared in sorted(REGISTRY.values(), key=lambda d: d.name):
        if declared.book is None or site.is_registered(declared.book):
            continue
        fields = tuple(f.name for f in declared.book._meta.concrete_fields if not f.primary_key)
        model_admin = type(
            f"{declared.book.__name__}Admin",
            (DeclaredBookAdmin,),
            {
                "add_form": declared_form(declared),
                "detail_fields": fields,
                "__module__": declared.service.__module__,
            },
        )
        site.register(declared.book, model_admin)


def _role_refusal(user: Any, acts: tuple[Act, ...]) -> access.RoleRequired | None:
    """The refusal of ``user`` for the first of ``acts`` when he may perform none of them."""
    if not acts or any(access.may(user, act) for act in acts):
        return None
    try:
        access.require(user, acts[0])
    except access.RoleRequired as error:
        return error
    return None


def act_page(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    *,
    title: StrOrPromise,
    form_class: Callable[..., ActFormMixin],
    back: str,
    perm: str,
    acts: tuple[Act, ...] = (),
    files: bool = False,
    then: Callable[[Any], str] | None = None,
    **form_kwargs: Any,
) -> HttpResponse:
    """An act on a page of its own: the form, and on POST the act (the refusal on its field,
    with the article). ``perm``: the model's view permission to see the page (a read); ``acts``:
    the regulated acts of which the user must be allowed one (casino_ops.access, the one gate of
    every write), by default those of the form's declaration (``form_class.declared``); anyone
    else is shown the refusal (RoleRequired, with its article) and nothing is done. Once done: the form's
    message (else "Acte enregistré : title."), then ``then(result)`` or ``back``."""
    if not perm.split(".", 1)[-1].startswith("view_"):
        raise ImproperlyConfigured(
            f"{perm}: a page is seen by a view permission; its act is decided by access"
        )
    if not request.user.has_perm(perm):
        raise PermissionDenied
    refusal = _role_refusal(request.user, acts or declared_acts(form_class))
    kwargs = {"actor": request.user, "refusal": refusal, **form_kwargs}
    if request.method == "POST":
        form = form_class(request.POST, request.FILES or None, **kwargs)
        if form.is_valid():  # type: ignore[attr-defined]
            level, text = form.done(form.result) or (
                messages.SUCCESS,
                _("Acte enregistré : %(t)s.") % {"t": title},
            )
            modeladmin.message_user(request, text, level)
            return HttpResponseRedirect(then(form.result) if then else back)
    else:
        form = form_class(**kwargs)
        if refusal is not None:
            modeladmin.message_user(request, str(refusal), messages.ERROR)
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "back": back,
        "opts": modeladmin.model._meta,
        "multipart": files,
    }
    return TemplateResponse(request, "admin/act_form.html", context)


def act_action(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    form_class: Callable[..., ActFormMixin],
    *,
    prefix: str = "",
    **form_kwargs: Any,
) -> Any:
    """An act run from a list's action, the form bound to what was chosen above the list:
    once done, the form's message; else each error as a message (a field's with its label,
    a refusal as it is, with its article), after ``prefix`` (the entry acted on). The act's
    result, or None when refused."""
    form = form_class(request.POST, actor=request.user, **form_kwargs)
    if form.is_valid():  # type: ignore[attr-defined]
        outcome = form.done(form.result)
        if outcome is not None:
            modeladmin.message_user(request, outcome[1], outcome[0])
        return form.result
    if form.refused is not None:
        modeladmin.message_user(request, f"{prefix}{form.refused}", messages.ERROR)
        return None
    for name, errors in form.errors.items():  # type: ignore[attr-defined]
        text = " ".join(str(e) for e in errors)
        label = form.fields[name].label if name in form.fields else ""  # type: ignore[attr-defined]
        modeladmin.message_user(
            request, f"{prefix}{label} : {text}" if label else f"{prefix}{text}", messages.ERROR
        )
    return None


#: The field an action's own page posts with its form: the act is then performed (without it,
#: the list's action only opens the page).
ACT_PAGE_SUBMIT = "_act"


def act_action_page(
    modeladmin: admin.ModelAdmin[Any],
    request: HttpRequest,
    queryset: QuerySet[Any],
    form_class: Callable[..., ActFormMixin],
    *,
    title: StrOrPromise,
    **form_kwargs: Any,
) -> HttpResponse | None:
    """An action on the entries chosen in a list that asks for its own fields on a page of its
    own (the entries chosen listed above them): the list's action opens the page; its form,
    posted, performs the act. Once done, the form's message and back to the list (None); a
    refusal (with its article) or a field's error is shown on the page, on its field."""
    kwargs = {"actor": request.user, **form_kwargs}
    if ACT_PAGE_SUBMIT in request.POST:
        form = form_class(request.POST, **kwargs)
        if form.is_valid():  # type: ignore[attr-defined]
            outcome = form.done(form.result)
            if outcome is not None:
                modeladmin.message_user(request, outcome[1], outcome[0])
            return None
    else:
        form = form_class(**kwargs)
    opts = modeladmin.model._meta
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": title,
        "form": form,
        "chosen": list(queryset),
        "action": request.POST.get("action", ""),
        "selected_name": ACTION_CHECKBOX_NAME,
        "submit_name": ACT_PAGE_SUBMIT,
        "back": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist"),
        "opts": opts,
    }
    return TemplateResponse(request, "admin/act_action.html", context)
