"""The depot's permissions given to the roles (cards_registry/apps.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def test_officer_only_permissions(users: dict[str, Any]) -> None:
    officer, director, croupier = users["officier"], users["directeur"], users["chef_de_table"]
    assert officer.has_perm("cards_registry.stamp_visa") and officer.has_perm("cards_registry.close_incident")
    assert officer.has_perm("cards_registry.view_reception") and not officer.has_perm(
        "cards_registry.depot_act"
    )
    assert not director.has_perm("cards_registry.stamp_visa") and not director.has_perm(
        "cards_registry.close_incident"
    )
    assert director.has_perm("cards_registry.depot_act") and director.has_perm(
        "cards_registry.approve_correction"
    )
    assert not users["comite_direction"].has_perm("cards_registry.approve_correction")
    assert croupier.has_perm("cards_registry.check_at_table") and not croupier.has_perm(
        "cards_registry.view_reception"
    )
