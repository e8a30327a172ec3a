"""The authority's enrolments and revocations of officers, recorded by the casino.

The casino does not make officers: it records what the supervising authority signed
(:func:`casino_ops.officers.import_document` checks the signature and the casino), and the
chain keeps the document. Whoever runs the command (``manage.py record_enrolment``) acts
for nobody: the document is the authority's act.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

import audit
from audit.actions import Action
from casino_ops import officers


@transaction.atomic
def record_enrolment(*, document: dict[str, Any]) -> tuple[Any, str]:
    """Record an enrolment or a revocation signed by the authority; ``(row, outcome)``, the
    outcome ``"enrolled"``, ``"revoked"`` or ``"already"`` (nothing recorded again)."""
    row, outcome = officers.import_document(document)
    if outcome != "already":
        action = Action.OFFICER_ENROLLED if outcome == "enrolled" else Action.OFFICER_REVOKED
        audit.record(
            actor=None,
            action=action,
            obj=row,
            payload={
                "serial": row.serial,
                "officer": row.user.get_username(),
                "valid_from": row.valid_from.isoformat(),
                "valid_to": row.valid_to.isoformat(),
                "revoked_at": row.revoked_at.isoformat() if row.revoked_at else None,
                "document": document,
            },
        )
    return row, outcome
