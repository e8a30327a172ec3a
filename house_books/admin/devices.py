"""The shoe devices (LU art. 32 §3, 40, 52): registered in the cabinet, assigned by the
director to a table for a séance, put back in the cabinet. A device is chosen by its
number, a table by its number and code (BJ03), an assignment by both: never a database id."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from casino_ops import dates
from casino_ops.acts import declaration
from casino_ops.admin_utils import ModelChoiceField
from tables import selectors as tables

from ..books import book_fields
from ..models import DeviceAssignment, DeviceReturnEntry, DeviceState, ShoeDevice
from ..services.devices import assign_device, register_device, return_device
from . import ActAdmin, ActForm


class ShoeDeviceForm(ActForm):
    declared = declaration(register_device)
    approved_model = forms.CharField(label=_("modèle agréé"), max_length=120)
    approval_reference = forms.CharField(label=_("décision d'agrément du modèle"), max_length=120)

    class Meta(ActForm.Meta):
        model = ShoeDevice

    def act(self, actor: Any, data: dict[str, Any]) -> ShoeDevice:
        return register_device(actor=actor, **data)


@admin.register(ShoeDevice)
class ShoeDeviceAdmin(ActAdmin):
    """The shoes of the cabinet; "Ajouter" registers one (the casino gives its number)."""

    add_form = ShoeDeviceForm
    list_display = ("number", "approved_model", "approval_reference", "state", "recorded_at")
    list_filter = ("state",)
    detail_fields = book_fields(ShoeDevice)


class _DeviceChoice(ModelChoiceField):
    def label_from_instance(self, obj: ShoeDevice) -> str:
        return f"{obj} — {obj.approved_model}"


class DeviceAssignmentForm(ActForm):
    declared = declaration(assign_device)
    device = _DeviceChoice(
        label=_("sabot"), queryset=ShoeDevice.objects.filter(state=DeviceState.CABINET).order_by("number")
    )
    table_number = forms.TypedChoiceField(label=_("table"), coerce=int, choices=tables.table_choices)
    day = forms.DateField(label=_("journée"), initial=timezone.localdate)

    class Meta(ActForm.Meta):
        model = DeviceAssignment

    def act(self, actor: Any, data: dict[str, Any]) -> DeviceAssignment:
        return assign_device(actor=actor, **data)


@admin.register(DeviceAssignment)
class DeviceAssignmentAdmin(ActAdmin):
    """The assignments of the shoes; "Ajouter" assigns one to a table (the director's act)."""

    add_form = DeviceAssignmentForm
    list_display = ("day", "table_number", "device", "assigned_by", "assigned_at", "returned_at")
    date_hierarchy = "day"
    detail_fields = book_fields(DeviceAssignment)


class _AssignmentChoice(ModelChoiceField):
    def label_from_instance(self, obj: DeviceAssignment) -> str:
        return gettext("Sabot n° %(n)s — table %(t)s — %(day)s") % {
            "n": obj.device.number,
            "t": obj.table_number,
            "day": dates.day(obj.day),
        }


class DeviceReturnForm(ActForm):
    declared = declaration(return_device)
    assignment = _AssignmentChoice(
        label=_("affectation"),
        queryset=DeviceAssignment.objects.filter(returned_at__isnull=True)
        .select_related("device")
        .order_by("day", "table_number"),
    )

    class Meta(ActForm.Meta):
        model = DeviceReturnEntry

    def act(self, actor: Any, data: dict[str, Any]) -> DeviceAssignment:
        return return_device(actor=actor, **data)


@admin.register(DeviceReturnEntry)
class DeviceReturnAdmin(ActAdmin):
    """The shoes put back in the cabinet (the same rows, by their return): "Ajouter" returns one."""

    add_form = DeviceReturnForm
    list_display = ("returned_at", "device", "table_number", "day")
    detail_fields = DeviceAssignmentAdmin.detail_fields

    def get_queryset(self, request: Any) -> Any:
        return super().get_queryset(request).filter(returned_at__isnull=False)
