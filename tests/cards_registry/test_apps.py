"""The depot's view permissions given to the roles (cards_registry/apps.py); its acts are
decided by casino_ops.access (tests/casino_ops/test_access.py)."""

from __future__ import annotations

from typing import Any

import pytest

from casino_ops import access
from casino_ops.access import Act

pytestmark = pytest.mark.django_db


def test_officer_only_acts(users: dict[str, Any]) -> None:
    officer, director, croupier = users["officier"], users["directeur"], users["chef_de_table"]
    assert access.may(officer, Act.VISA) and access.may(officer, Act.CLOSE_INCIDENT)
    assert officer.has_perm("cards_registry.view_reception") and not access.may(officer, Act.DEPOT)
    assert not access.may(director, Act.VISA) and not access.may(director, Act.CLOSE_INCIDENT)
    assert access.may(director, Act.DEPOT) and access.may(director, Act.APPROVE_DEPOT_CORRECTION)
    assert not access.may(users["comite_direction"], Act.APPROVE_DEPOT_CORRECTION)
    assert access.may(croupier, Act.CHECK_AT_TABLE) and not croupier.has_perm("cards_registry.view_reception")


def test_the_acts_permissions_are_gone(users: dict[str, Any]) -> None:
    """The depot's custom permissions were granted and never checked: access.py decides."""
    from django.contrib.auth.models import Permission

    assert not Permission.objects.filter(
        content_type__app_label="cards_registry",
        codename__in=["depot_act", "stamp_visa", "close_incident", "approve_correction", "check_at_table"],
    ).exists()
