"""The checks of the book of shoe devices (LU art. 32 §3, 40, 52; under FR, internal rules):
pure, no query."""

from __future__ import annotations

from typing import Any

from casino_ops.refusals import Refusal

from ..models import DeviceAssignment, DeviceState, ShoeDevice


def check_assignable(device: ShoeDevice, assigned_that_day: bool, article: str) -> None:
    """A usable shoe of the cabinet, not already assigned for the séance."""
    if device.state == DeviceState.DISPOSED or not device.approval_reference:
        raise Refusal.DEVICE_NOT_USABLE.error(article=article, n=device.number)
    if device.state == DeviceState.ASSIGNED or assigned_that_day:
        raise Refusal.DEVICE_ALREADY_ASSIGNED.error(article=article, n=device.number)


def check_table_number(table_number: Any, article: str) -> None:
    if not isinstance(table_number, int) or table_number < 1:
        raise Refusal.FIELD_INVALID_HOUSE_DEVICES.error(article=article)


def check_not_returned(assignment: DeviceAssignment, article: str) -> None:
    if assignment.returned_at is not None:
        raise Refusal.DEVICE_ALREADY_RETURNED.error(article=article)


def check_table_in_service(table_number: int, in_service: bool, article: str) -> None:
    """A shoe is assigned only to a table in service (``in_service``)."""
    if not in_service:
        raise Refusal.TABLE_NOT_IN_SERVICE_HOUSE_DEVICES.error(article=article, t=table_number)
