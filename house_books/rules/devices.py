"""The checks of the book of shoe devices (LU art. 32 §3, 40, 52; under FR, internal rules):
pure, no query."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from casino_ops.regulations import RegulationError

from ..models import DeviceAssignment, DeviceState, ShoeDevice


def check_assignable(device: ShoeDevice, assigned_that_day: bool, article: str) -> None:
    """A usable shoe of the cabinet, not already assigned for the séance."""
    if device.state == DeviceState.DISPOSED or not device.approval_reference:
        raise RegulationError(
            "DEVICE_NOT_USABLE",
            _("Le sabot n° %(n)s n'est plus utilisable (détruit ou remis).") % {"n": device.number},
            article,
            field="device",
        )
    if device.state == DeviceState.ASSIGNED or assigned_that_day:
        raise RegulationError(
            "DEVICE_ALREADY_ASSIGNED",
            _("Le sabot n° %(n)s est déjà affecté pour cette séance.") % {"n": device.number},
            article,
            field="device",
        )


def check_table_number(table_number: Any, article: str) -> None:
    if not isinstance(table_number, int) or table_number < 1:
        raise RegulationError("FIELD_INVALID", _("Indiquez la table."), article, field="table_number")


def check_not_returned(assignment: DeviceAssignment, article: str) -> None:
    if assignment.returned_at is not None:
        raise RegulationError(
            "DEVICE_ALREADY_RETURNED", _("Ce sabot est déjà rentré à l'armoire."), article, field="assignment"
        )


def check_table_in_service(table_number: int, in_service: bool, article: str) -> None:
    """A shoe is assigned only to a table in service (``in_service``)."""
    if not in_service:
        raise RegulationError(
            "TABLE_NOT_IN_SERVICE",
            _("La table n° %(t)s n'existe pas ou n'est pas en service : aucun sabot ne lui est affecté.")
            % {"t": table_number},
            article,
            field="table_number",
        )
