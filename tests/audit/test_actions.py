"""Every audited act is a member of ``audit.actions.Action``: record() takes nothing else,
every act has its label, and no code names an act by a bare string."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.db import transaction

import audit
from audit.actions import DEPOT_STAMPED, Action
from audit.models import AuditEvent
from inspection.admin import ACTION_LABELS, _action_label
from inspection.portal import labels

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["table.created", "test.act", "", None, 7])
def test_record_refuses_an_action_that_is_not_an_action_member(action):
    with pytest.raises(TypeError, match="audit.actions.Action"), transaction.atomic():
        audit.record(actor=None, action=action, object_type="test.thing", object_id=1, payload={})
    assert not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_record_stores_the_members_code_unchanged():
    with transaction.atomic():
        audit.record(actor=None, action=Action.SHOE_FILLED, object_type="test.thing", object_id=1)
    assert AuditEvent.objects.get().action == "shoe.filled"


def test_every_code_fits_its_column_on_one_line():
    """record() writes the member's code as it is (no check per event): checked here."""
    for action in Action:
        assert 0 < len(action.value) <= AuditEvent._meta.get_field("action").max_length, action
        assert not set(action.value) & set("\n\r\t\x1f"), action


def test_the_codes_stay_those_of_the_existing_chains():
    assert Action.CASINO_SETTINGS_CHANGED == "casino.settings_changed"
    assert Action.DEPOT_RECEPTION_STAMPED == "depot.reception_stamped"
    assert Action.INSPECTION_RUN == "inspection.run"
    assert Action.FORGED_EVENT == "audit.forged_event"
    assert {key: str(value) for key, value in DEPOT_STAMPED.items()} == {
        "order": "depot.order_stamped",
        "reception": "depot.reception_stamped",
        "destruction": "depot.destruction_stamped",
    }
    assert len({a.value for a in Action}) == len(Action)


def test_every_action_has_a_portal_label_and_an_admin_label():
    assert set(labels.ACTIONS) == set(Action)
    assert all(isinstance(key, Action) for key in labels.ACTIONS)
    assert all(isinstance(key, Action) for key in ACTION_LABELS)
    for action in Action:
        assert str(labels.ACTIONS[action]).strip() and labels.action_label(action) != action.value
        assert str(_action_label(action)).strip()


def _project_files():
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0].startswith(".") or "migrations" in parts or parts[0] in ("var", "node_modules"):
            continue
        yield path


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def test_no_string_literal_is_passed_as_the_action_of_record():
    found = []
    scanned = 0
    for path in _project_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _call_name(node) == "record"):
                continue
            for keyword in node.keywords:
                if keyword.arg != "action":
                    continue
                scanned += 1
                for inner in ast.walk(keyword.value):
                    if isinstance(inner, ast.JoinedStr) or (
                        isinstance(inner, ast.Constant) and isinstance(inner.value, str)
                    ):
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert scanned > 40  # the scan sees the services' calls
    assert found == []
