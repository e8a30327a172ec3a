"""An act is declared once (casino_ops.acts): its service, who may perform it, its input schema,
its audit action, its refusals and its article. The API's act endpoints and the admin's act
forms and pages are derived from the declaration of the service they call, so that no door
offers an act under another ``Act`` than its service requires.

Read from the URL resolver and from the admin's forms and modules, so that a door added later
is held to it; what is not yet derived is listed below by name, and each list only shrinks (an
entry derived since fails the test until it is taken off)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import textwrap
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib import admin

import tables.services
from audit.actions import DECLARED_ACTIONS, Action
from casino_ops.access import ACTS, Act, rule_of
from casino_ops.access import declared_acts as access_declared_acts
from casino_ops.acts import REGISTRY, DeclaredAct, declaration
from casino_ops.admin_acts import ActAdmin, ActFormMixin
from casino_ops.api import DeclaredActView
from casino_ops.django_internals import registered_admins
from casino_ops.refusals import DECLARED_REFUSALS
from casino_ops.regulations import cite
from casino_ops.services import get_casino
from casino_ops.validation import SafeSerializerMixin
from tables.admin.sessions import SESSION_ACT_ACTS, SESSION_ACTS
from tests.support.walks import PROJECT_APPS, admin_modules, api_view_list

ROOT = Path(__file__).resolve().parents[2]
APPS_WITH_SERVICES = ("tables", "cards_registry", "house_books", "casino_ops")
#: The modules that declare acts besides the apps' services.
OTHER_DECLARING_MODULES = ("inspection.registers.reports",)

#: The API's acts not yet derived from a declaration (url name): they still name their ``act``.
API_NOT_YET_DERIVED: set[str] = set()

#: The admin's act forms whose service is not yet declared (``module.Form``).
FORMS_NOT_YET_DECLARED: set[str] = set()

#: Each admin module's acts still named by hand (``Act.X`` in its text), by module: a door
#: derived from its form's declaration names none. The counts only go down.
ADMIN_ACTS_NAMED_BY_HAND: dict[str, int] = {}


def _import_services() -> None:
    for app in APPS_WITH_SERVICES:
        try:
            importlib.import_module(f"{app}.services")
        except ModuleNotFoundError:  # pragma: no cover - an app without services
            continue
    for module in OTHER_DECLARING_MODULES:
        importlib.import_module(module)


def services_called(function: Any) -> list[Any]:
    """The services ``function`` calls (``services.x(…)`` or ``x(…)``), resolved in its module:
    the declared acts, and any call passing ``actor=`` (an act, declared or not)."""
    module = inspect.getmodule(function)
    names = vars(module) if module is not None else {}
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        target: Any = None
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            target = getattr(names.get(node.func.value.id), node.func.attr, None)
        elif isinstance(node.func, ast.Name):
            target = names.get(node.func.id)
        acting = any(k.arg == "actor" for k in node.keywords)
        if callable(target) and (acting or hasattr(target, "declaration")):
            found.append(target)
    return found


# -- The declarations -------------------------------------------------------------------------


def _declarations() -> list[DeclaredAct]:
    _import_services()
    return sorted(REGISTRY.values(), key=lambda d: d.name)


DECLARED = _declarations()
#: The codes a refusal is known by: the table of refusals, the access table's, and those declared
#: beside their rules (casino_ops.refusals.declare) with the declared acts' rows.
KNOWN_CODES = (
    set(re.findall(r"^\| `([A-Z0-9_]+)` \|", (ROOT / "docs/refusals.md").read_text(), re.M))
    | {rule.code for rule in ACTS.values()}
    | {refusal.code for refusal in DECLARED_REFUSALS}
    | {rule_of(act).code for act in access_declared_acts()}
)
ACTIONS = {str(a) for a in Action} | {str(a) for a in DECLARED_ACTIONS}


def test_the_tables_acts_are_declared() -> None:
    names = {d.name.rsplit(".", 1)[1] for d in DECLARED}
    assert {
        "issue_decks",
        "return_decks",
        "check_at_table",
        "report_incident",
        "receive",
        "record_orphan",
        "record_refused_entry",
        "count_tips",
        "open_session",
        "add_advance",
        "interrupt_session",
        "resume_session",
        "close_session",
        "change_maximum",
        "fill_shoe",
        "upload_hand_log",
        "acknowledge_discrepancies",
        "create_table",
        "grant_delegation",
        "record_authorised_minimum",
        "close_day",
    } <= names


def test_the_officers_acts_and_the_print_request_are_declared() -> None:
    """Each act an officer signs (casino_ops.officers.SIGNED_ACTS) is declared, its gate the
    officers' own where its service words its refusal itself; the registers' print request too."""
    from casino_ops.officers import SIGNED_ACTS

    by_action = {action: d for d in DECLARED for action in d.actions}
    assert set(SIGNED_ACTS) <= set(by_action), set(SIGNED_ACTS) - set(by_action)
    officers_gated = {d.name.rsplit(".", 1)[1] for d in DECLARED if d.officer_gate is not None}
    assert officers_gated == {
        "stamp_order",
        "stamp_reception",
        "stamp_destruction",
        "stamp_maker_approval",
        "stamp_sixain_cap",
        "close_incident",
        "demand_opening",
        "stamp_closing",
    }
    assert "inspection.registers.reports.request_report" in REGISTRY


@pytest.mark.parametrize("declared", DECLARED, ids=[d.name for d in DECLARED])
def test_each_declaration_names_its_acts_action_article_schema_and_refusals(declared: DeclaredAct) -> None:
    assert declared.acts and all(isinstance(act, Act) for act in declared.acts)
    assert declared.actions and set(declared.actions) <= ACTIONS, declared.actions
    for profile in ("FR", "LU"):
        cite(declared.article, profile)  # a key of the law map (a KeyError otherwise)
    assert declared.schema is None or issubclass(declared.schema, SafeSerializerMixin)
    # each refusal it declares is a known code, or one its module raises
    source = inspect.getsource(inspect.getmodule(inspect.unwrap(declared.service)))  # type: ignore[arg-type]
    unknown = {code for code in declared.refusals if code not in KNOWN_CODES and f'"{code}"' not in source}
    assert not unknown, f"{declared.name}: refusals raised nowhere: {unknown}"
    # the action it declares is the one its module records (an action declared beside the
    # service, audit.actions.declare: declared and recorded by its module, under its name)
    for action in declared.actions:
        if Action(action) in list(DECLARED_ACTIONS):
            name = Action(action).name
            assert f'declare("{name}", "{action}"' in source and f"action={name}" in source, (
                declared.name,
                action,
            )
        else:
            assert f"Action.{Action(action).name}" in source, (declared.name, action)


@pytest.mark.django_db
def test_the_declarations_gate_refuses_whoever_may_not_perform_the_act(django_user_model: Any) -> None:
    """The wrapper performs the gate before the service's body: a user with no role is
    refused with the act's code and article, before any argument is even looked at."""
    from casino_ops.access import RoleRequired

    nobody = django_user_model.objects.create_user("nobody")
    assert get_casino().profile == "FR"  # the defaults, before the director's first act
    session = SimpleNamespace(profile="FR")  # what a séance's act reads its profile from
    for declared in DECLARED:
        if not declared.gate:
            continue
        with pytest.raises(RoleRequired) as refused:
            declared.service(actor=nobody, session=session, entry=SimpleNamespace(session=session))
        if declared.officer_gate is not None:  # the officers' own refusal, on the officer
            assert refused.value.code == declared.officer_gate.code, declared.name
            assert refused.value.field == "officer", declared.name
        else:
            assert refused.value.code == rule_of(declared.acts[0]).code, declared.name
            assert refused.value.field == "actor"
        cites_article = declared.gate_cites_article or declared.officer_gate is not None
        rule = declared.article if cites_article else rule_of(declared.acts[0]).rule
        assert refused.value.article == (cite(rule, "FR") if rule else ""), declared.name


# -- The API ----------------------------------------------------------------------------------

POSTS = [(name, view) for name, view, _kw in api_view_list() if hasattr(view, "post")]


@pytest.mark.parametrize(("name", "view"), POSTS, ids=[p[0] for p in POSTS])
def test_each_act_endpoint_is_derived_from_its_services_declaration(name: str, view: Any) -> None:
    if name in API_NOT_YET_DERIVED:
        assert not (isinstance(view, type) and issubclass(view, DeclaredActView) and view.declared), (
            f"{name} is derived now: take it off API_NOT_YET_DERIVED"
        )
        return
    assert issubclass(view, DeclaredActView) and view.declared is not None, name
    declared = view.declared
    assert view.act == declared.act and view.rule == declared.article, name
    if not getattr(view, "raw_body", False):
        assert view.serializer_class is declared.schema, name


# -- The admin --------------------------------------------------------------------------------


def _act_forms() -> list[type]:
    for app in PROJECT_APPS:
        importlib.import_module(app)
    for path in admin_modules():
        importlib.import_module(".".join(path.relative_to(ROOT).with_suffix("").parts))
    seen, todo = [], list(ActFormMixin.__subclasses__())
    while todo:
        form = todo.pop()
        if form not in seen:
            seen.append(form)
            todo.extend(form.__subclasses__())
    project = tuple(f"{app}." for app in PROJECT_APPS)
    return sorted(
        (f for f in seen if f.__module__.startswith(project) and "act" in vars(f)),
        key=lambda f: f"{f.__module__}.{f.__qualname__}",
    )


FORMS = _act_forms()


@pytest.mark.parametrize("form", FORMS, ids=[f"{f.__module__}.{f.__qualname__}" for f in FORMS])
def test_each_act_form_is_offered_under_the_acts_of_the_service_it_calls(form: type) -> None:
    name = f"{form.__module__}.{form.__qualname__}"
    called = services_called(form.act)  # type: ignore[attr-defined]
    assert called, f"{name}.act() calls no service"
    declared = form.declared  # type: ignore[attr-defined]
    if name in FORMS_NOT_YET_DECLARED:
        assert declared is None, f"{name} is declared now: take it off FORMS_NOT_YET_DECLARED"
        return
    assert declared is not None, f"{name}: declare the service its act() calls (casino_ops.acts)"
    for service in called:
        service_declared = getattr(service, "declaration", None)
        assert service_declared is not None, f"{name} calls {service.__qualname__}, not declared"
        assert service_declared.acts == declared.acts, (name, service.__qualname__)


def test_each_add_page_is_offered_under_its_forms_declaration() -> None:
    for model_admin in registered_admins(admin.site).values():
        if not isinstance(model_admin, ActAdmin) or model_admin.add_form is None:
            continue
        name = f"{type(model_admin).__module__}.{type(model_admin).__qualname__}"
        if model_admin.add_form.declared is None:
            continue  # its form is in FORMS_NOT_YET_DECLARED
        assert "act" not in vars(type(model_admin)), f"{name}: its act is its form's declaration's"
        assert model_admin.add_acts == model_admin.add_form.declared.acts, name


def _acts_named(path: Path) -> int:
    """How many times the module names an ``Act.X`` as a door's act (the roles of the people a
    form lists, ``roles_for(Act.X)``, are not a door's act)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    people = {
        id(arg)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute | ast.Name)
        and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "roles_for"
        for arg in node.args
    }
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Act"
        and id(node) not in people
    )


def test_the_admin_names_no_act_by_hand_but_those_listed() -> None:
    named = Counter(
        {
            path.relative_to(ROOT).as_posix(): _acts_named(path)
            for path in admin_modules()
            if _acts_named(path)
        }
    )
    assert dict(named) == ADMIN_ACTS_NAMED_BY_HAND


def test_the_seance_page_offers_each_act_under_the_act_its_service_requires() -> None:
    """The hand log was offered on the séance's page to whoever may count (``Act.COUNT``)
    while its service asks ``Act.UPLOAD_HAND_LOG``; each act is now offered under its
    service's declaration."""
    for key, (_title, form_class) in SESSION_ACTS.items():
        [service] = set(services_called(form_class.act))
        assert SESSION_ACT_ACTS[key] == declaration(service).acts, key
    assert SESSION_ACT_ACTS["handlog"] == (Act.UPLOAD_HAND_LOG,)
    assert tables.services.upload_hand_log.declaration.acts == (Act.UPLOAD_HAND_LOG,)  # type: ignore[attr-defined]
