"""The read API of the other books (mounted under ``/api/house/``).

Each list is a :class:`casino_ops.api.BookList` built from its book's declaration
(:data:`house_books.books.BOOKS`: the model and its regulated fields), people by username;
reads need the view permission of the book's model (officers, director, committee).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from casino_ops.acts import declaration
from casino_ops.api import ActMixin, BookListing, Computed, DeclaredActView, Given, PeriodFilter, ReadList
from casino_ops.refusals import Refusal
from casino_ops.validation import SafeSerializerMixin

from . import models as m
from . import selectors, services
from .books import book_fields


def _new_authorisation(failure: Any) -> dict[str, str] | None:
    authorisation = getattr(failure, "new_authorisation", None)
    if authorisation is None:
        return None
    return {"granted_on": authorisation.granted_on.isoformat(), "reference": authorisation.reference}


def _listing(model: Any, selector: Any, **kw: Any) -> BookListing:
    return BookListing(model, book_fields(model), selector, **kw)


#: The books' lists, by the name of their URL (house_books/urls.py).
LISTINGS: dict[str, BookListing] = {
    # the carnet des orphelins: every entry, with what is left of it (LU art. 8)
    "orphan-list": _listing(
        m.OrphanEntry,
        selectors.orphan_entries,
        shown={"left": Computed(lambda entry: str(selectors.orphan_entry_balance(entry)))},
    ),
    "orphan-repayment-list": _listing(
        m.OrphanRepayment,
        selectors.orphan_repayments,
        shown={"entry": serializers.IntegerField(source="entry.number", read_only=True)},
    ),
    "orphan-transfer-list": _listing(m.OrphanTransfer, selectors.orphan_transfers),
    # the approvals of the direction and the staff, with their ends (LU art. 51, 54, 63)
    "approval-list": _listing(m.Approval, selectors.approvals, hidden=("ended_by",)),
    # the séance hours notified to the ministers (LU art. 71)
    "hours-list": _listing(m.SeanceHours, selectors.seance_hours),
    # séances stopped before the closing hour, with their reason (LU art. 71)
    "early-stop-list": _listing(
        m.EarlyStop,
        selectors.early_stops,
        hidden=("session",),
        shown={
            "table": serializers.IntegerField(source="session.table.number", read_only=True),
            "day": serializers.DateField(source="session.day", read_only=True),
        },
    ),
    # bank failures and the new authorisations after them (LU art. 11)
    "bank-failure-list": _listing(
        m.BankFailure, selectors.bank_failures, shown={"new_authorisation": Computed(_new_authorisation)}
    ),
    # the fichier des exclus: every measure, the lifted ones with their radiation (LU art. 68-75)
    "exclusion-list": _listing(m.Exclusion, selectors.exclusions),
    # the entries refused at the door, each with the exclusion it enforces (LU art. 67, 75)
    "refused-entry-list": _listing(m.RefusedEntry, selectors.refused_entries),
    # the closing down, with the officer's visa (LU art. 52)
    "closing-list": _listing(m.ClosingDown, selectors.closings),
    # the notices posted at the tables, oldest first (LU art. 74)
    "table-notice-list": _listing(m.TableNotice, selectors.table_notices),
    # the shoes of the cabinet, by the casino's number, with where each is now (LU art. 40)
    "device-list": _listing(m.ShoeDevice, selectors.devices),
    # the shoes assigned to the tables by the director, séance by séance (``?from=&to=``)
    "device-assignment-list": _listing(
        m.DeviceAssignment,
        selectors.device_assignments,
        shown={"device": serializers.IntegerField(source="device.number", read_only=True)},
        filter_class=PeriodFilter,
    ),
    # the book of roles: every role given or taken back, every name written, by whom and why
    # (FR art. 68, 69; LU art. 10, 51, 54)
    "role-list": _listing(m.RoleEntry, selectors.role_entries, filter_class=PeriodFilter),
}


class TipsLineSerializer(SafeSerializerMixin, serializers.Serializer[Any]):
    day = serializers.DateField()
    box = serializers.CharField(source="count.box")
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    total = serializers.DecimalField(max_digits=14, decimal_places=2)
    counted_at = serializers.DateTimeField(source="count.counted_at")
    counted_by = serializers.CharField(source="count.counted_by.username")
    witness = serializers.CharField(source="count.witness.username")
    note = serializers.CharField(source="count.note")


class TipsAccount(ReadList, ActMixin, generics.ListAPIView[Any]):
    """The register of tips and the account "pourboires" (``?from=&to=``, default: this exercise):
    a ledger with its running total, not one book's rows (LU art. 57)."""

    read_permission = "house_books.view_tipscount"
    output_class = TipsLineSerializer
    filter_class = PeriodFilter

    def selector(self, **period: Any) -> Any:
        today = timezone.localdate()
        return selectors.tips_account(
            period.get("date_from") or dt.date(today.year, 1, 1), period.get("date_to") or today
        )


class RoleEntryOutSerializer(Given):
    """A line of the book of roles: a role given or taken back, or a person's new name."""

    shape = ("kind", "person", "role", "recorded_at")
    person = serializers.ReadOnlyField(source="person_name")


class RoleActs(ReadList, DeclaredActView, generics.ListAPIView[m.RoleEntry]):
    """POST ``{"kind": "grant"|"withdrawal"|"name", "person", "role", "first_name", "last_name",
    "reason"}``: the director gives or takes back a role, or writes a person's new name (FR art. 68,
    69; LU art. 10, 51, 54). GET: the book of roles, as ``roles/`` lists it."""

    read_permission = "house_books.view_roleentry"
    declared = declaration(services.grant_role)  # as withdraw_role and rename_person: one input, one act
    output_class = RoleEntryOutSerializer

    def selector(self, **filters: Any) -> Any:
        return selectors.role_entries()

    def post(self, request: Request) -> Response:  # type: ignore[override]
        data = self.validated()
        person = self.user_named(data.pop("person"), "person")
        if person is None:  # the serializer asks for a username: an empty one is refused there
            raise Refusal.UNKNOWN_USER.error(article=self.article(), field="person")
        kind = data.pop("kind")
        if kind == m.RoleEntryKind.NAME:
            entry = services.rename_person(
                actor=self.actor(),
                person=person,
                first_name=data["first_name"],
                last_name=data["last_name"],
                reason=data["reason"],
            )
        else:
            act = services.grant_role if kind == m.RoleEntryKind.GRANT else services.withdraw_role
            entry = act(actor=self.actor(), person=person, role=data["role"], reason=data["reason"])
        return Response({"id": entry.pk}, status=status.HTTP_201_CREATED)
