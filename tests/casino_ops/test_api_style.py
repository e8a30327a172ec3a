"""One API style for the apps' acts and reads (``/api/tables/``, ``/api/depot/``, ``/api/house/``).

Read from the URL resolver, so that a view added later is held to it: every view's access is
``casino_ops.api.ActPermission`` (no app declares its own permission class), a read names its
permission, a POST names its ``access.Act`` and validates its body with a serializer built on
``SafeSerializerMixin`` (no hand parsing); the books' lists are ``BookList`` views driven by the
books' declarations, their JSON fields written out below.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.permissions import BasePermission

from casino_ops.access import Act
from casino_ops.api import ActPermission, BookList
from casino_ops.validation import SafeSerializerMixin
from tests.support.walks import NAMESPACES, api_view_list

APPS = ("tables", "cards_registry", "house_books")


def attribute(view: Any, initkwargs: dict[str, Any], name: str) -> Any:
    """``view``'s attribute as an instance made by as_view() sees it."""
    instance = view(**initkwargs)
    return getattr(instance, name, None)


VIEWS = api_view_list()


def test_the_walk_finds_the_apps_and_the_officers_views() -> None:
    names = {name.split(":")[0] for name, _view, _kw in VIEWS}
    assert names == set(NAMESPACES)
    assert len(VIEWS) >= 30


@pytest.mark.parametrize(("name", "view", "initkwargs"), VIEWS, ids=[v[0] for v in VIEWS])
def test_each_view_is_guarded_by_the_one_permission_class(name: str, view: Any, initkwargs: Any) -> None:
    assert list(view.permission_classes) == [ActPermission], name
    read = attribute(view, initkwargs, "read_permission")
    assert isinstance(read, Act) or (isinstance(read, str) and ".view_" in read), (name, read)


@pytest.mark.parametrize(("name", "view", "initkwargs"), VIEWS, ids=[v[0] for v in VIEWS])
def test_each_act_names_its_act_and_its_input_serializer(name: str, view: Any, initkwargs: Any) -> None:
    if not hasattr(view, "post"):
        return
    acts = view.act if isinstance(view.act, tuple) else (view.act,)
    assert acts and all(isinstance(act, Act) for act in acts), (name, view.act)
    if getattr(view, "raw_body", False):  # the hand log: the body is the log itself, parsed by its rules
        assert name == "tables:session-hand-logs"
        return
    serializer = view.serializer_class
    assert inspect.isclass(serializer) and issubclass(serializer, SafeSerializerMixin), (name, serializer)


def app_modules() -> Iterator[Any]:
    for app in APPS:
        package = importlib.import_module(app)
        yield package
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" in info.name or ".management" in info.name or ".blackjack" in info.name:
                continue
            yield importlib.import_module(info.name)


def test_no_app_declares_its_own_permission_class_nor_hand_parses() -> None:
    own = [
        f"{module.__name__}.{name}"
        for module in app_modules()
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, BasePermission)
        and value.__module__ == module.__name__
    ]
    assert not own, f"permission classes outside casino_ops.api: {own}"
    parsers = [
        f"{module.__name__}.{name}"
        for module in (importlib.import_module(f"{app}.api") for app in APPS)
        for name in ("_int", "_date", "_datetime", "_required", "_validated")
        if hasattr(module, name)
    ]
    assert not parsers, f"hand parsers in the API: {parsers}"


# The house books' lists: the JSON fields each row carries (the clients rely on them).
HOUSE_LIST_FIELDS = {
    "orphan-list": "number exercise found_at kind table_number stake winnings amount description "
    "recorded_by recorded_at left",
    "orphan-repayment-list": "entry repaid_on amount total_before owner_name owner_address proof "
    "recorded_by recorded_at",
    "orphan-transfer-list": "exercise transferred_on amount commune receipt minister_notified_on "
    "recorded_by recorded_at",
    "approval-list": "person function job approved_on reference ended_on end_kind end_reference "
    "minister_notified_on recorded_by recorded_at",
    "hours-list": "effective_from notified_at reference weekday_start holiday_start closing "
    "recorded_by recorded_at",
    "early-stop-list": "table day stopped_at reason note recorded_by recorded_at",
    "bank-failure-list": "occurred_at description officer_name officer_told_at minister_told_at "
    "recorded_by recorded_at new_authorisation",
    "exclusion-list": "origin kind ground last_name first_names birth_date decided_on reference reasons "
    "director_notified_on minister_notified_on notice_reference lifted_on lift_reference "
    "recorded_by recorded_at",
    "refused-entry-list": "exclusion refused_at last_name first_names birth_date physionomiste remark "
    "recorded_by recorded_at",
    "closing-list": "closed_at documents_left_at documents disposal successor officer_name decks devices "
    "exclusion_entries recorded_by recorded_at visa_by visa_at visa_remark",
    "table-notice-list": "table_number table_code day advance minimum maximum posted_by posted_at",
    "device-list": "number approved_model approval_reference state recorded_by recorded_at",
    "device-assignment-list": "day table_number device assigned_by assigned_at returned_at",
    "role-list": "kind person role person_name reason recorded_by recorded_at",
}


def test_the_house_lists_are_built_from_the_books_declarations() -> None:
    from house_books.books import BOOKS

    lists = {
        name.split(":")[1]: kw["listing"]
        for name, view, kw in VIEWS
        if name.startswith("house_books:") and issubclass(view, BookList)
    }
    assert set(lists) == set(HOUSE_LIST_FIELDS)
    for name, listing in lists.items():
        assert tuple(listing.fields) == BOOKS[listing.model][0], name
        shown = set(listing.serializer().fields)
        assert shown == set(HOUSE_LIST_FIELDS[name].split()), (
            name,
            shown ^ set(HOUSE_LIST_FIELDS[name].split()),
        )
        assert listing.read_permission == f"house_books.view_{listing.model._meta.model_name}"


@pytest.mark.django_db
def test_the_permission_class_decides_by_the_acts(users: Any, casino: Any) -> None:
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.exceptions import NotFound
    from rest_framework.test import APIRequestFactory

    from casino_ops import roles
    from casino_ops.access import RoleRequired

    class Declared:
        read_permission = "tables.view_session"
        act = Act.SIGN_ADVANCE

        def post(self) -> None: ...

    class Hidden:
        read_permission = Act.READ
        hidden = True

    def allowed(view: Any, method: str, user: Any) -> bool:
        request = getattr(APIRequestFactory(), method)("/")
        request.user = user
        return ActPermission().has_permission(request, view())

    director, croupier, officer = users[roles.DIRECTOR], users[roles.CROUPIER], users[roles.OFFICER]
    assert allowed(Declared, "get", croupier) and allowed(Declared, "post", director)
    with pytest.raises(RoleRequired) as refused:  # the act's own refusal, with its article
        allowed(Declared, "post", croupier)
    assert refused.value.code == "SIGNATURE_REQUIRED" and refused.value.article
    assert not allowed(Declared, "put", director)  # nothing declared, nothing allowed
    assert not allowed(Declared, "get", AnonymousUser())
    assert allowed(Hidden, "get", officer) and not allowed(Hidden, "post", officer)
    with pytest.raises(NotFound):
        allowed(Hidden, "get", director)


def test_every_read_list_shares_the_one_list_base() -> None:
    """A read list of any API (the apps' and the officers') is a selector, an output serializer
    and pages: ``casino_ops.api.ReadList``, never a list built by hand."""
    from rest_framework.mixins import ListModelMixin

    from casino_ops.api import ReadList

    lists = [(name, view) for name, view, _kw in VIEWS if issubclass(view, ListModelMixin)]
    assert len(lists) >= 20
    for name, view in lists:
        assert issubclass(view, ReadList), name
        assert view.pagination_class is not None, name


def own_gets(view: Any) -> Iterator[tuple[Any, Any]]:
    """(class, its get) of each ``get`` written in the view's classes outside the bases (DRF's
    and ``casino_ops.api``'s)."""
    for klass in view.__mro__:
        if klass.__module__.startswith(("rest_framework.", "django.", "casino_ops.api")):
            continue
        if "get" in vars(klass):
            yield klass, vars(klass)["get"]


def answers_a_list(function: Any) -> bool:
    """Whether ``function`` answers a list it builds itself: ``Response([...])``, a list
    comprehension, a ``list(...)`` or a serializer's ``many=True``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if any(k.arg == "many" for k in node.keywords):
                return True
            called = node.func.id if isinstance(node.func, ast.Name) else ""
            if called == "Response" and node.args:
                first = node.args[0]
                if isinstance(first, ast.List | ast.ListComp) or (
                    isinstance(first, ast.Call)
                    and isinstance(first.func, ast.Name)
                    and first.func.id == "list"
                ):
                    return True
    return False


@pytest.mark.parametrize(("name", "view", "initkwargs"), VIEWS, ids=[v[0] for v in VIEWS])
def test_no_read_is_a_get_written_by_hand(name: str, view: Any, initkwargs: Any) -> None:
    """A read of the apps' API is a selector and an output serializer served by the one list
    base (``ReadList``) or the one detail base (``ReadDetail``): no view of theirs writes its own
    ``get``; no ``get`` of any API (the officers' proofs and files included) answers a list built
    by hand."""
    from casino_ops.api import ReadDetail, ReadList

    written = list(own_gets(view))
    for klass, get in written:
        assert not answers_a_list(get), f"{name}: {klass.__qualname__}.get answers a list built by hand"
    if name.split(":")[0] in NAMESPACES[:3]:
        assert not written, f"{name}: get() written by hand in {[k.__qualname__ for k, _g in written]}"
        if hasattr(view, "get"):
            assert issubclass(view, ReadList | ReadDetail), name
            assert attribute(view, initkwargs, "output_class") is not None, name


def test_a_get_answering_a_list_by_hand_is_found() -> None:
    """The check above finds the hand-written lists it forbids, and lets a file or a detail by."""
    from rest_framework.response import Response

    class ByHand:
        def get(self, request: Any) -> Any:
            return Response([{"id": row} for row in range(3)])

    class Many:
        def get(self, request: Any) -> Any:
            return Response(BookList.serializer_class(request, many=True).data)

    class Listed:
        def get(self, request: Any) -> Any:
            return Response(list(request))

    class Detail:
        def get(self, request: Any) -> Any:
            return Response({"id": 1})

    assert answers_a_list(ByHand.get) and answers_a_list(Many.get) and answers_a_list(Listed.get)
    assert not answers_a_list(Detail.get)
    assert [klass for klass, _get in own_gets(ByHand)] == [ByHand]
