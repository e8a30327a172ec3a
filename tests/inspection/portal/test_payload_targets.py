"""The audit trail shows the object an officer's act names (``target``) by its register's name and
key, never as the code the statement carries (``cards_registry.order:6``)."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from inspection.templatetags.portal import readable


@pytest.mark.django_db
def test_an_officers_act_names_its_object_by_the_registers_name() -> None:
    payload = json.dumps({"statement": {"kind": "officer-act", "target": "cards_registry.order:6"}})
    with translation.override("fr"):
        shown = str(readable(payload))
    assert "cards_registry.order" not in shown
    assert "6" in shown


@pytest.mark.django_db
def test_a_target_of_no_known_model_is_left_as_written() -> None:
    payload = json.dumps({"target": "nowhere.thing:6"})
    assert "nowhere.thing:6" in str(readable(payload))
