"""The one API style of the apps (``/api/tables/``, ``/api/depot/``, ``/api/house/``).

- **Access** (:class:`ActPermission`, the only permission class of these views): a read
  (GET, HEAD, OPTIONS) needs the view's ``read_permission``, the model permission its role
  holds (:mod:`casino_ops.roles`: reading is no regulated act); a POST needs the view's
  ``act``, a :class:`casino_ops.access.Act`, decided by :func:`casino_ops.access.may` and
  refused by :func:`casino_ops.access.require` (403 with the act's code and article). A
  method the view declares nothing for is refused (403): nothing declared, nothing allowed.
- **Input** (:class:`ActView`): the body of a POST, or the query of a read, is validated by
  a DRF serializer with :class:`casino_ops.validation.SafeSerializerMixin`; a bad value is
  the usual refusal ``{code, message, field, article}`` (``FIELD_REQUIRED`` or
  ``FIELD_INVALID``), the article that of the view's ``rule``.
- **Acts** (:class:`DeclaredActView`): an act's endpoint takes its ``act``, its
  ``serializer_class`` and its ``rule`` from the declaration of the service it calls
  (:mod:`casino_ops.acts`), never naming them again.
- **Refusals** (:func:`exception_handler`): a :class:`RegulationError` is an HTTP 400 with
  its article; a missing role (:class:`casino_ops.access.RoleRequired`) is a 403 with the
  same JSON; every other error (a bad query, an unknown entry, a method refused, a visitor
  not signed in) keeps its status and is answered in the same shape, the article that of
  the view's ``rule``.
- **Output** (:mod:`casino_ops.renderers`): every amount a string with two decimals.
- **Books' lists** (:class:`BookList` and :class:`BookListing`): a read list of a
  regulated book, its fields those the app declares for the audit chain (``<app>/books.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import Model
from django.http import Http404
from django.urls import path
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, generics, permissions, serializers
from rest_framework.exceptions import ErrorDetail, NotAuthenticated, NotFound
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from casino_ops.refusals import Refusal

from . import access
from .access import Act, RoleRequired
from .acts import REGISTRY, DeclaredAct
from .regulations import RegulationError, cite
from .services import get_casino
from .validation import SafeSerializerMixin

# DRF's codes of a value left out (the others are a value given but wrong)
_MISSING = frozenset({"required", "null", "blank", "empty"})


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every error of the API as one JSON, ``{code, message, field, article}``."""
    if isinstance(exc, RoleRequired):
        return Response(exc.as_dict(), status=403)
    if isinstance(exc, RegulationError):
        return Response(exc.as_dict(), status=400)
    if isinstance(exc, Http404):
        exc = NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    article_of = getattr(context.get("view"), "article", None)
    article = article_of() if callable(article_of) else ""
    if isinstance(exc, exceptions.ValidationError):
        refusal = input_refusal(exc.detail, article)
    else:
        refusal = RegulationError(str(exc.default_code).upper(), str(exc.detail), article, field=None)
    response.data = refusal.as_dict()
    return response


# -- Access ---------------------------------------------------------------------------------


class ActPermission(permissions.BasePermission):
    """Reads by the view's ``read_permission`` (a model permission, or an :class:`Act`); a POST
    by its ``act`` (an :class:`Act`, or several when any of them will do), through
    :mod:`casino_ops.access`. Anonymous requests and undeclared methods are refused. A view
    whose ``read_permission`` is an Act and that is ``hidden`` answers 404 to whoever may not
    perform it (the officers' reads: an endpoint one may not see is not shown to exist)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not user or not user.is_authenticated:
            return False
        need: str | Act | None = getattr(view, "read_permission", None)
        if getattr(view, "hidden", False) and isinstance(need, Act) and not access.may(user, need):
            raise NotFound  # an endpoint one may not read is not shown to exist (the officers')
        if request.method in permissions.SAFE_METHODS:
            if isinstance(need, Act):
                return access.may(user, need)
            return isinstance(need, str) and bool(need) and user.has_perm(need)
        if request.method != "POST" or not hasattr(view, "post"):
            return False
        act = getattr(view, "act", None)
        acts = act if isinstance(act, tuple) else (act,)
        if not acts or None in acts:
            return False
        if any(access.may(user, act) for act in acts):
            return True
        access.require(user, acts[0])  # refused with the act's code and article (403)
        return False


# -- Input ----------------------------------------------------------------------------------


def _first_error(errors: Any) -> tuple[str | None, ErrorDetail | str]:
    """The first field a serializer refused and its first error (inside a list's item too);
    no field for an error of the whole input."""
    if not isinstance(errors, Mapping):
        detail = errors
        while not isinstance(detail, str):
            detail = next(iter(detail.values())) if isinstance(detail, Mapping) else detail[0]
        return None, detail
    name, detail = next(iter(errors.items()))
    while not isinstance(detail, str):
        detail = next(iter(detail.values())) if isinstance(detail, Mapping) else detail[0]
    return (None if name == api_settings.NON_FIELD_ERRORS_KEY else str(name)), detail


def input_refusal(errors: Any, article: str) -> RegulationError:
    """The refusal ``{code, message, field, article}`` naming the first field a serializer refused."""
    name, detail = _first_error(errors)
    message = f"{name} : {detail}" if name else str(detail)
    if getattr(detail, "code", None) in _MISSING:
        return Refusal.FIELD_REQUIRED.error(article=article, field=name, message=message)
    return Refusal.FIELD_INVALID_GIVEN.error(article=article, field=name, message=message)


class ActSchema(AutoSchema):
    """The OpenAPI description of an :class:`ActView`: the POST's body is its
    ``serializer_class``; a read's answer its ``output_class`` when it has one."""

    def get_request_serializer(self) -> Any:
        if self.method == "POST":
            return getattr(self.view, "serializer_class", None)
        return None

    def get_response_serializers(self) -> Any:
        output = getattr(self.view, "output_class", None)
        return output if output is not None and self.method != "POST" else OpenApiTypes.OBJECT


class ActMixin:
    """What every view of the apps' API shares: its access (:class:`ActPermission`), its actor,
    its input and query validated by serializers, refused as the API's refusals."""

    permission_classes: Sequence[Any] = [ActPermission]
    read_permission: Any = None  # str | Act
    act: ClassVar[Act | tuple[Act, ...] | None] = None
    #: the POST's input serializer (a SafeSerializerMixin serializer)
    serializer_class: Any = None
    #: the query's serializer of a read (``?table=&day=``)
    filter_class: Any = None
    #: the serializer of a read's answer, for the schema
    output_class: Any = None
    #: the key in casino_ops.regulations of the article a bad input is refused under
    rule: ClassVar[str] = ""

    def actor(self) -> User:
        """The signed-in user who acts (the permission class lets no anonymous request through)."""
        user = self.request.user  # type: ignore[attr-defined]
        if not isinstance(user, User):
            raise NotAuthenticated
        return user

    def profile(self) -> str:
        return get_casino().profile

    def article(self) -> str:
        return cite(self.rule, self.profile()) if self.rule else ""

    def _valid(self, serializer_class: Any, data: Any) -> dict[str, Any]:
        serializer = serializer_class(data=data)
        if not serializer.is_valid():
            raise input_refusal(serializer.errors, self.article())
        validated: dict[str, Any] = dict(serializer.validated_data)
        return validated

    def validated(self) -> dict[str, Any]:
        """The POST's body, validated by the view's ``serializer_class``."""
        return self._valid(self.serializer_class, self.request.data)  # type: ignore[attr-defined]

    def filters(self) -> dict[str, Any]:
        """The read's query, validated by the view's ``filter_class`` (``{}`` without one)."""
        if self.filter_class is None:
            return {}
        return self._valid(self.filter_class, self.request.query_params)  # type: ignore[attr-defined]

    def user_named(self, username: str, field: str) -> User | None:
        """The user named by ``username`` in ``field`` (None when none is named), or a refusal."""
        if not username:
            return None
        user = user_by_username(username)
        if user is None:
            raise Refusal.UNKNOWN_USER.error(
                article=self.article(), field=field, message=f"{field} : {username}"
            )
        return user


def user_by_username(username: str) -> User | None:
    user = get_user_model().objects.filter(username=username).first()
    return user if isinstance(user, User) else None


class ListPages(LimitOffsetPagination):
    """A read list's pages: ``?limit=&offset=``, 500 rows at most a page. A list its clients read
    whole is answered whole unless a page is asked (no ``default_limit``)."""

    default_limit: int | None = None
    max_limit = 500


class ReadList:
    """The one base of the APIs' read lists (the apps' and the officers'): ``selector(**filters)``
    the query, given the view's filters validated; ``output_class`` a row's serializer; the pages
    of ``pagination_class``. Mixed in before DRF's generic view."""

    output_class: Any = None
    pagination_class: Any = ListPages

    def selector(self, **filters: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def get_serializer_class(self) -> Any:
        return self.output_class

    def get_queryset(self) -> Any:
        # the filters: ActMixin's (the apps') or the officers' view set's, after this class
        return self.selector(**self.filters())  # type: ignore[attr-defined]


class ReadDetail:
    """The one base of the APIs' reads of one thing (a report, a summary, what an act concerns):
    ``selector(**filters, **url)`` reads it, given the view's filters validated and what the URL
    names (a model's ``DoesNotExist`` is a 404); ``output_class`` its serializer. Mixed in before
    :class:`ActView`, whose ``get`` it is."""

    output_class: Any = None

    def selector(self, **query: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def get(self, request: Request, **url: Any) -> Response:
        try:
            found = self.selector(**self.filters(), **url)  # type: ignore[attr-defined]
        except ObjectDoesNotExist:
            raise Http404 from None
        return Response(self.output_class(found).data)


class Given(serializers.Serializer[Any]):
    """A read's output, its keys ``shape`` in order: each passes as the selector read it (an
    attribute of a row, a key of a dict; the renderer writes its amounts and moments as
    everywhere) unless the serializer declares it (a person by name, a list typed)."""

    shape: ClassVar[tuple[str, ...]] = ()

    def get_fields(self) -> Any:
        declared = super().get_fields()
        fields = type(declared)()
        for name in self.shape:
            fields[name] = declared.pop(name) if name in declared else serializers.ReadOnlyField()
        fields.update(declared)
        return fields


class ActView(ActMixin, APIView):
    """A view of the apps' API: ``read_permission`` for its GET, ``act`` and ``serializer_class``
    for its POST (the act's input), ``rule`` for the article of an input's refusal."""

    schema = ActSchema()


class DeclaredActView(ActView):
    """An act's endpoint derived from its declaration (:mod:`casino_ops.acts`): ``declared``
    (``declaration(services.x)``) gives the view its ``act``, its ``serializer_class`` (the
    declaration's schema) and its ``rule`` (the article of an input refused), so that the
    endpoint cannot ask another act than its service requires. Its POST validates the body,
    resolves the people it names by username (``people``) and what the URL names
    (:meth:`inputs`), calls the service as the signed-in user and answers :meth:`answer` with
    ``answer_status`` (201); a refusal is the usual ``{code, message, field, article}``."""

    declared: ClassVar[DeclaredAct | None] = None
    #: the fields of the schema naming a person by username (an unknown one is ``UNKNOWN_USER``)
    people: ClassVar[tuple[str, ...]] = ()
    answer_status: ClassVar[int] = 201

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("declared")
        if declared is not None:
            cls.act = declared.act
            cls.serializer_class = declared.schema
            cls.rule = declared.article

    def inputs(self, data: dict[str, Any], **url: Any) -> dict[str, Any]:
        """The service's arguments from the body validated (``data``) and the URL's (``url``)."""
        return data

    def answer(self, result: Any) -> Any:
        """The answer's body from what the service returned."""
        return {"id": result.pk}

    def post(self, request: Request, **url: Any) -> Response:
        declared = self.declared
        if declared is None:  # pragma: no cover - a view without a declaration allows no POST
            raise NotFound
        data = self.validated()
        for person in self.people:
            data[person] = self.user_named(data.get(person) or "", person)
        result = declared.service(actor=self.actor(), **self.inputs(data, **url))
        return Response(self.answer(result), status=self.answer_status)


def derived_view(declared: DeclaredAct) -> type[DeclaredActView]:
    """The endpoint of a declaration with a ``route``: a :class:`DeclaredActView` of it, read by
    its book's view permission (else by its act: nobody reads what it is not shown)."""
    book = declared.book
    meta = book._meta if book is not None else None
    attributes: dict[str, Any] = {
        "declared": declared,
        "read_permission": f"{meta.app_label}.view_{meta.model_name}"
        if meta is not None
        else declared.acts[0],
        "__module__": declared.service.__module__,
        "__doc__": f"The act {declared.name}, derived from its declaration.",
    }
    name = "".join(part.title() for part in declared.name.rsplit(".", 1)[1].split("_"))
    return type(name, (DeclaredActView,), attributes)


def declared_url_name(declared: DeclaredAct) -> str:
    """The url name of a declaration's endpoint (``acts:clean-device``)."""
    return declared.name.rsplit(".", 1)[1].replace("_", "-")


def declared_urls() -> list[Any]:
    """The endpoints derived from the declarations with a ``route`` (namespace ``acts``, under
    ``/api/acts/``): read once the apps are ready, when the URLs are."""
    return [
        path(declared.route, derived_view(declared).as_view(), name=declared_url_name(declared))
        for declared in sorted(REGISTRY.values(), key=lambda d: d.name)
        if declared.route
    ]


# -- The books' read lists ------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.STR)
class Person(serializers.RelatedField[Any, Any, str]):
    """A person of a book, shown by username."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        username: str = value.get_username()
        return username


@extend_schema_field(OpenApiTypes.ANY)
class Computed(serializers.Field):  # type: ignore[type-arg]
    """A value computed from the row (what is left of an orphan's sum…)."""

    def __init__(self, compute: Callable[[Any], Any], **kwargs: Any) -> None:
        super().__init__(source="*", read_only=True, **kwargs)
        self.compute = compute

    def to_representation(self, value: Any) -> Any:
        return self.compute(value)


@dataclass(frozen=True)
class BookListing:
    """A read list of a book: ``model``, its declared fields ``fields`` (the app's
    ``books.py``), the selector that reads it, and what the list shows otherwise:
    ``shown`` replaces a declared field or adds one (a relation by its number,
    a computed value), ``hidden`` leaves one out. A person is shown by username."""

    model: type[Model]
    fields: Sequence[str]
    selector: Callable[..., Any]
    shown: Mapping[str, serializers.Field] = field(default_factory=dict)  # type: ignore[type-arg]
    hidden: Sequence[str] = ()
    filter_class: type[serializers.Serializer[Any]] | None = None

    @property
    def read_permission(self) -> str:
        meta = self.model._meta
        return f"{meta.app_label}.view_{meta.model_name}"

    @cached_property
    def serializer(self) -> type[serializers.ModelSerializer[Any]]:
        names = [f for f in self.fields if f not in self.hidden]
        declared: dict[str, Any] = {}
        user_model = get_user_model()
        for name in names:
            model_field = self.model._meta.get_field(name)
            if name not in self.shown and model_field.is_relation and model_field.related_model is user_model:
                declared[name] = Person()
        declared.update({name: f for name, f in self.shown.items()})
        shown = [*names, *(n for n in self.shown if n not in names)]
        meta = type("Meta", (), {"model": self.model, "fields": shown, "read_only_fields": shown})
        return type(
            f"{self.model.__name__}BookSerializer",
            (SafeSerializerMixin, serializers.ModelSerializer),
            {**declared, "Meta": meta, "__module__": __name__},
        )


class BookList(ReadList, ActMixin, generics.ListAPIView[Any]):
    """The read list of a book, built from its :class:`BookListing` (``BookList.as_view(listing=…)``)."""

    listing: Any = None  # given to as_view()

    @property
    def output_class(self) -> Any:
        return self.listing.serializer

    def selector(self, **filters: Any) -> Any:
        return self.listing.selector(**filters)

    @property
    def read_permission(self) -> str:
        permission: str = self.listing.read_permission
        return permission

    @property
    def filter_class(self) -> Any:
        return self.listing.filter_class


class PeriodFilter(SafeSerializerMixin, serializers.Serializer[Any]):
    """``?from=AAAA-MM-JJ&to=AAAA-MM-JJ``, as ``date_from`` and ``date_to`` (a selector's period)."""


# "from" is a Python keyword: the two fields are declared by name
PeriodFilter._declared_fields.update(
    {
        "from": serializers.DateField(required=False, source="date_from"),
        "to": serializers.DateField(required=False, source="date_to"),
    }
)
