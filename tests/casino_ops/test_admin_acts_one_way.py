"""Every act of the admin goes one way (casino_ops.admin_acts): a form whose ``act(actor, data)``
calls the service, shown as an "Ajouter" page (ActAdmin), a page of its own (act_page) or a
list's action (act_action). No screen calls a service or shows a refusal by itself."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.contrib import admin

from casino_ops import roles
from casino_ops.admin_acts import ActAdmin, ActFormMixin
from casino_ops.django_internals import registered_admins
from tests.support.walks import PROJECT_APPS, ROOT, admin_modules

# Where a refusal is caught for what is not an act (no acting user): a register's title, and
# the signed file of checkpoints handed to an officer (a download).
NOT_ACTS = {
    ("inspection/registers/admin.py", "register_title"),
    ("inspection/registers/admin.py", "export_checkpoints"),
}
REFUSALS = {"RegulationError", "PermissionDenied", "RoleRequired"}


def _names(node: ast.expr | None) -> set[str]:
    if node is None:
        return set()
    if isinstance(node, ast.Tuple):
        return set().union(*(_names(e) for e in node.elts))
    if isinstance(node, ast.Attribute):
        return {node.attr}
    return {node.id} if isinstance(node, ast.Name) else set()


def _breaches(path: Path, root: Path = ROOT) -> list[str]:
    """Calls of a service (any call passing ``actor=``) outside a form's ``act()``; refusals
    caught, or put on a form or in a message, outside the mechanism."""
    rel = path.relative_to(root).as_posix()
    found: list[str] = []

    def walk(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            where = f"{rel}:{getattr(child, 'lineno', '?')} ({name or 'module'})"
            if (
                isinstance(child, ast.Call)
                and any(k.arg == "actor" for k in child.keywords)
                and name != "act"
            ):
                found.append(f"{where}: a service called outside a form's act()")
            if (
                isinstance(child, ast.ExceptHandler)
                and _names(child.type) & REFUSALS
                and name != "act"
                and (rel, name) not in NOT_ACTS
            ):
                found.append(f"{where}: a refusal caught outside casino_ops.admin_acts")
            if isinstance(child, ast.Name) and child.id in {
                "regulation_error_to_form",
                "report_regulation_error",
            }:
                found.append(f"{where}: a refusal shown outside casino_ops.admin_acts")
            walk(child, name)

    walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_the_admin_modules_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in admin_modules()}
    assert {"cards_registry/admin/decks.py", "tables/admin/sessions.py", "house_books/admin/tips.py"} <= names
    assert "inspection/registers/admin.py" in names and "casino_ops/admin_acts.py" not in names


def test_no_admin_screen_performs_an_act_but_through_an_act_form():
    breaches = [b for path in admin_modules() for b in _breaches(path)]
    assert breaches == []


def test_the_check_finds_an_act_performed_outside_the_mechanism(tmp_path):
    """The check above is not blind: an action that calls a service and shows its refusal
    itself, the old way, is found."""
    module = tmp_path / "tables" / "admin" / "rogue.py"
    module.parent.mkdir(parents=True)
    module.write_text(
        "def close_days(self, request, queryset):\n"
        "    for day in queryset:\n"
        "        try:\n"
        "            services.close_day(actor=request.user, day=day.day)\n"
        "        except RegulationError as error:\n"
        "            report_regulation_error(self, request, error)\n",
        encoding="utf-8",
    )
    found = _breaches(module, tmp_path)
    assert [f.split(": ", 1)[1] for f in found] == [
        "a service called outside a form's act()",
        "a refusal caught outside casino_ops.admin_acts",
        "a refusal shown outside casino_ops.admin_acts",
    ], found


def _project_admins() -> list[tuple[type, admin.ModelAdmin]]:  # type: ignore[type-arg]
    for app in PROJECT_APPS:
        importlib.import_module(app)
    return [(m, a) for m, a in registered_admins(admin.site).items() if m._meta.app_label in PROJECT_APPS]


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.DIRECTOR, roles.COMMITTEE, roles.CROUPIER, roles.CASHIER])
def test_every_page_that_takes_input_is_an_act_form(client, rf, users, casino, role):
    """Every "Ajouter" page and every change page a role is offered shows an act form (the
    admin's own pages are never a model form saved as it is)."""
    user = users[role]
    client.force_login(user)
    plain = []
    for model, model_admin in _project_admins():
        opts = model._meta
        request = rf.get("/admin/")
        request.user = user
        if model_admin.has_add_permission(request):
            response = client.get(f"/admin/{opts.app_label}/{opts.model_name}/add/")
            if response.status_code == 200:
                form = response.context.get("adminform")
                form = form.form if form is not None else response.context.get("form")
                if not isinstance(form, ActFormMixin):
                    plain.append(f"{type(model_admin).__name__} (add)")
        if model_admin.has_change_permission(request) and not isinstance(model_admin, ActAdmin):
            form_class = model_admin.get_form(request, None, change=True)
            if form_class.base_fields and not issubclass(form_class, ActFormMixin):
                plain.append(f"{type(model_admin).__name__} (change)")
    assert plain == []


def test_the_other_ways_are_gone():
    from cards_registry.admin import _shared as depot
    from casino_ops import admin_utils
    from tables.admin import _shared as tables

    assert not hasattr(tables, "act_view")
    assert not hasattr(depot, "run_act")
    assert not hasattr(admin_utils, "report_regulation_error")
