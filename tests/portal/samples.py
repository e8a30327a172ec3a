"""One object of each kind the portal and the API show, for the matrix and page tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from audit.models import AuditEvent


@dataclass
class Samples:
    users: dict[str, Any]
    casino: Any
    event: AuditEvent


@pytest.fixture
def samples(users: dict[str, Any], casino: Any) -> Samples:
    event = AuditEvent.objects.filter(seq__isnull=False).order_by("-seq").first()
    return Samples(users=users, casino=casino, event=event)
