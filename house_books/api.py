"""The read API of the other books (mounted under ``/api/house/``).

Reads need the view permission of the book's model (officers, director, committee).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

from casino_ops.validation import SafeSerializerMixin

from . import selectors
from .books import book_fields
from .models import (
    Approval,
    BankFailure,
    ClosingDown,
    DeviceAssignment,
    EarlyStop,
    Exclusion,
    OrphanEntry,
    OrphanRepayment,
    OrphanTransfer,
    RefusedEntry,
    SeanceHours,
    ShoeDevice,
    TableNotice,
)


class ViewPermission(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        return bool(
            user
            and user.is_authenticated
            and request.method in permissions.SAFE_METHODS
            and user.has_perm(view.required_perm)
        )


class _Person(serializers.RelatedField[Any, Any, str]):
    def to_representation(self, value: Any) -> str:
        username: str = value.get_username()
        return username


class OrphanEntrySerializer(SafeSerializerMixin, serializers.ModelSerializer[OrphanEntry]):
    recorded_by = _Person(read_only=True)
    left = serializers.SerializerMethodField()

    class Meta:
        model = OrphanEntry
        fields = [*book_fields(OrphanEntry), "left"]

    def get_left(self, obj: OrphanEntry) -> str:
        return str(selectors.orphan_entry_balance(obj))


class OrphanRepaymentSerializer(SafeSerializerMixin, serializers.ModelSerializer[OrphanRepayment]):
    recorded_by = _Person(read_only=True)
    entry = serializers.IntegerField(source="entry.number", read_only=True)

    class Meta:
        model = OrphanRepayment
        fields = book_fields(OrphanRepayment)


class OrphanTransferSerializer(SafeSerializerMixin, serializers.ModelSerializer[OrphanTransfer]):
    recorded_by = _Person(read_only=True)

    class Meta:
        model = OrphanTransfer
        fields = book_fields(OrphanTransfer)


class OrphanEntryList(generics.ListAPIView[OrphanEntry]):
    """The carnet des orphelins: every entry, with what is left of it."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_orphanentry"
    serializer_class = OrphanEntrySerializer

    def get_queryset(self) -> Any:
        return selectors.orphan_entries()


class OrphanRepaymentList(generics.ListAPIView[OrphanRepayment]):
    permission_classes = [ViewPermission]
    required_perm = "house_books.view_orphanrepayment"
    serializer_class = OrphanRepaymentSerializer

    def get_queryset(self) -> Any:
        return selectors.orphan_repayments()


class OrphanTransferList(generics.ListAPIView[OrphanTransfer]):
    permission_classes = [ViewPermission]
    required_perm = "house_books.view_orphantransfer"
    serializer_class = OrphanTransferSerializer

    def get_queryset(self) -> Any:
        return selectors.orphan_transfers()


class ApprovalSerializer(SafeSerializerMixin, serializers.ModelSerializer[Approval]):
    person = _Person(read_only=True)
    recorded_by = _Person(read_only=True)

    class Meta:
        model = Approval
        fields = [
            "person",
            "function",
            "job",
            "approved_on",
            "reference",
            "ended_on",
            "end_kind",
            "end_reference",
            "minister_notified_on",
            "recorded_by",
            "recorded_at",
        ]


class ApprovalList(generics.ListAPIView[Approval]):
    """The approvals of the direction and the staff, with their ends."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_approval"
    serializer_class = ApprovalSerializer

    def get_queryset(self) -> Any:
        return selectors.approvals()


class TipsLineSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    day = serializers.DateField()
    box = serializers.CharField(source="count.box")
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    total = serializers.DecimalField(max_digits=14, decimal_places=2)
    counted_at = serializers.DateTimeField(source="count.counted_at")
    counted_by = serializers.CharField(source="count.counted_by.username")
    witness = serializers.CharField(source="count.witness.username")
    note = serializers.CharField(source="count.note")


class TipsAccount(generics.ListAPIView[Any]):
    """The register of tips and the account "pourboires" (``?from=&to=``, default: this exercise)."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_tipscount"
    serializer_class = TipsLineSerializer

    def get_queryset(self) -> Any:
        today = timezone.localdate()
        try:
            first = dt.date.fromisoformat(self.request.query_params.get("from") or f"{today.year}-01-01")
            last = dt.date.fromisoformat(self.request.query_params.get("to") or today.isoformat())
        except ValueError:
            raise ValidationError({"from": "AAAA-MM-JJ"}) from None
        return selectors.tips_account(first, last)


# -- Séance hours, early stops, bank failures ---------------------------------------------------


class SeanceHoursSerializer(SafeSerializerMixin, serializers.ModelSerializer[SeanceHours]):
    recorded_by = _Person(read_only=True)

    class Meta:
        model = SeanceHours
        fields = [
            "effective_from",
            "notified_at",
            "reference",
            "weekday_start",
            "holiday_start",
            "closing",
            "recorded_by",
            "recorded_at",
        ]


class SeanceHoursList(generics.ListAPIView[SeanceHours]):
    """The séance hours notified to the ministers (LU art. 71)."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_seancehours"
    serializer_class = SeanceHoursSerializer

    def get_queryset(self) -> Any:
        return selectors.seance_hours()


class EarlyStopSerializer(SafeSerializerMixin, serializers.ModelSerializer[EarlyStop]):
    recorded_by = _Person(read_only=True)
    table = serializers.IntegerField(source="session.table.number", read_only=True)
    day = serializers.DateField(source="session.day", read_only=True)

    class Meta:
        model = EarlyStop
        fields = ["table", "day", "stopped_at", "reason", "note", "recorded_by", "recorded_at"]


class EarlyStopList(generics.ListAPIView[EarlyStop]):
    """Séances stopped before the closing hour, with their reason (LU art. 71)."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_earlystop"
    serializer_class = EarlyStopSerializer

    def get_queryset(self) -> Any:
        return selectors.early_stops()


class BankFailureSerializer(SafeSerializerMixin, serializers.ModelSerializer[BankFailure]):
    recorded_by = _Person(read_only=True)
    new_authorisation = serializers.SerializerMethodField()

    class Meta:
        model = BankFailure
        fields = [*book_fields(BankFailure), "new_authorisation"]

    def get_new_authorisation(self, obj: Any) -> dict[str, str] | None:
        authorisation = getattr(obj, "new_authorisation", None)
        if authorisation is None:
            return None
        return {"granted_on": authorisation.granted_on.isoformat(), "reference": authorisation.reference}


class BankFailureList(generics.ListAPIView[BankFailure]):
    """Bank failures and the new authorisations after them (LU art. 11)."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_bankfailure"
    serializer_class = BankFailureSerializer

    def get_queryset(self) -> Any:
        return selectors.bank_failures()


class ExclusionSerializer(SafeSerializerMixin, serializers.ModelSerializer[Exclusion]):
    recorded_by = _Person(read_only=True)

    class Meta:
        model = Exclusion
        fields = book_fields(Exclusion)


class ExclusionList(generics.ListAPIView[Exclusion]):
    """The fichier des exclus: every measure, the lifted ones with their radiation."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_exclusion"
    serializer_class = ExclusionSerializer

    def get_queryset(self) -> Any:
        return selectors.exclusions()


class RefusedEntrySerializer(SafeSerializerMixin, serializers.ModelSerializer[RefusedEntry]):
    recorded_by = _Person(read_only=True)

    class Meta:
        model = RefusedEntry
        fields = book_fields(RefusedEntry)


class RefusedEntryList(generics.ListAPIView[RefusedEntry]):
    """The entries refused at the door, each with the exclusion it enforces (its id in
    ``exclusions/``)."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_refusedentry"
    serializer_class = RefusedEntrySerializer

    def get_queryset(self) -> Any:
        return selectors.refused_entries()


class ClosingDownSerializer(SafeSerializerMixin, serializers.ModelSerializer[ClosingDown]):
    recorded_by = _Person(read_only=True)
    visa_by = _Person(read_only=True)

    class Meta:
        model = ClosingDown
        fields = book_fields(ClosingDown)


class ClosingDownList(generics.ListAPIView[ClosingDown]):
    """The closing down (LU art. 52), with the officer's visa."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_closingdown"
    serializer_class = ClosingDownSerializer

    def get_queryset(self) -> Any:
        return selectors.closings()


class TableNoticeSerializer(SafeSerializerMixin, serializers.ModelSerializer[TableNotice]):
    posted_by = _Person(read_only=True)

    class Meta:
        model = TableNotice
        fields = book_fields(TableNotice)


class TableNoticeList(generics.ListAPIView[TableNotice]):
    """The notices posted at the tables (LU art. 74), oldest first."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_tablenotice"
    serializer_class = TableNoticeSerializer

    def get_queryset(self) -> Any:
        return selectors.table_notices()


# -- Shoe devices (LU art. 32 §3, 40, 52) -------------------------------------------------------


class ShoeDeviceSerializer(SafeSerializerMixin, serializers.ModelSerializer[ShoeDevice]):
    recorded_by = _Person(read_only=True)

    class Meta:
        model = ShoeDevice
        fields = book_fields(ShoeDevice)


class ShoeDeviceList(generics.ListAPIView[ShoeDevice]):
    """The shoes of the cabinet, by the casino's number, with where each is now."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_shoedevice"
    serializer_class = ShoeDeviceSerializer

    def get_queryset(self) -> Any:
        return selectors.devices()


class DeviceAssignmentSerializer(SafeSerializerMixin, serializers.ModelSerializer[DeviceAssignment]):
    device = serializers.IntegerField(source="device.number", read_only=True)
    assigned_by = _Person(read_only=True)

    class Meta:
        model = DeviceAssignment
        fields = ["day", "table_number", "device", "assigned_by", "assigned_at", "returned_at"]


class DeviceAssignmentList(generics.ListAPIView[DeviceAssignment]):
    """The shoes assigned to the tables by the director, séance by séance (``?from=&to=``)."""

    permission_classes = [ViewPermission]
    required_perm = "house_books.view_deviceassignment"
    serializer_class = DeviceAssignmentSerializer

    def get_queryset(self) -> Any:
        params = self.request.query_params
        try:
            first = dt.date.fromisoformat(params["from"]) if params.get("from") else None
            last = dt.date.fromisoformat(params["to"]) if params.get("to") else None
        except ValueError:
            raise ValidationError({"from": "AAAA-MM-JJ"}) from None
        return selectors.device_assignments(first, last)
