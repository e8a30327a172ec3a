"""Every act the record knows: the ``action`` of each audit event.

The values are the codes written into the chain: they never change (existing
chains hash them). ``audit.record()`` takes a member of :class:`Action` only, so an
act is named once, here, and every selector, filter and label reads the same name. A new
act's event may be declared beside its service instead (:func:`declare`, with its label): a
member of :class:`Action` all the same, made at start-up.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from casino_ops.plugins import Registry, declare_member, declared_member

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class Action(StrEnum):
    # the casino
    CASINO_SETTINGS_CHANGED = "casino.settings_changed"
    # the record: a book's declared fields changed by a migration, its rows bound anew
    BOOK_AMENDED = "book.amended"
    # the depot (cards_registry)
    DEPOT_MANUFACTURER_REGISTERED = "depot.manufacturer_registered"
    DEPOT_SETTINGS_CHANGED = "depot.settings_changed"
    # the officer's visa on a fact of an authority the director recorded (FR art. 39, LU art. 6)
    DEPOT_MAKER_APPROVAL_STAMPED = "depot.maker_approval_stamped"
    DEPOT_SIXAIN_CAP_STAMPED = "depot.sixain_cap_stamped"
    DEPOT_ORDER_CREATED = "depot.order_created"
    DEPOT_ORDER_STAMPED = "depot.order_stamped"
    DEPOT_ORDER_SENT = "depot.order_sent"
    DEPOT_RECEPTION_RECORDED = "depot.reception_recorded"
    DEPOT_RECEPTION_STAMPED = "depot.reception_stamped"
    DEPOT_KEY_HANDED_OVER = "depot.key_handed_over"
    DEPOT_OPENING_DEMANDED = "depot.opening_demanded"
    DEPOT_CABINET_OPENED = "depot.cabinet_opened"
    DEPOT_INVENTORY_RECORDED = "depot.inventory_recorded"
    DEPOT_DECKS_DECLARED_OUT_OF_USE = "depot.decks_declared_out_of_use"
    DEPOT_DECKS_ISSUED = "depot.decks_issued"
    DEPOT_DECK_CHECKED = "depot.deck_checked"
    DEPOT_DECKS_RETURNED = "depot.decks_returned"
    DEPOT_INCIDENT_REPORTED = "depot.incident_reported"
    DEPOT_INCIDENT_REPORT_RECORDED = "depot.incident_report_recorded"
    DEPOT_INCIDENT_CLOSED = "depot.incident_closed"
    DEPOT_DESTRUCTION_RECORDED = "depot.destruction_recorded"
    DEPOT_DESTRUCTION_STAMPED = "depot.destruction_stamped"
    DEPOT_CORRECTION_RECORDED = "depot.correction_recorded"
    # the tables
    TABLE_CREATED = "table.created"
    TABLE_IN_SERVICE = "table.in_service"
    TABLE_OUT_OF_SERVICE = "table.out_of_service"
    SESSION_OPENED = "session.opened"
    SESSION_ADVANCE_ADDED = "session.advance_added"
    SESSION_MAXIMUM_CHANGED = "session.maximum_changed"
    SESSION_INTERRUPTED = "session.interrupted"
    SESSION_RESUMED = "session.resumed"
    SESSION_CLOSED = "session.closed"
    DELEGATION_GRANTED = "delegation.granted"
    AUTHORISED_MINIMUM_RECORDED = "authorised_minimum.recorded"
    AUTHORISED_MINIMUM_STAMPED = "authorised_minimum.stamped"
    MINISTRY_NOTICE_RECORDED = "ministry_notice.recorded"
    CONTROL_REGISTER_DAY_CLOSED = "control_register.day_closed"
    CONTROL_REGISTER_DAY_STAMPED = "control_register.day_stamped"
    CONTROL_REGISTER_CORRECTED = "control_register.corrected"
    ADVANCE_BOOK_CORRECTED = "advance_book.corrected"
    SHOE_FILLED = "shoe.filled"
    HAND_LOG_RECEIVED = "hand_log.received"
    HAND_LOG_REPLAYED = "hand_log.replayed"
    DISCREPANCY_ACKNOWLEDGED = "discrepancy.acknowledged"
    # the house books
    HOUSE_TIPS_COUNTED = "house.tips_counted"
    HOUSE_ORPHAN_RECORDED = "house.orphan_recorded"
    HOUSE_ORPHAN_REPAID = "house.orphan_repaid"
    HOUSE_ORPHANS_TRANSFERRED = "house.orphans_transferred"
    HOUSE_APPROVAL_RECORDED = "house.approval_recorded"
    HOUSE_APPROVAL_ENDED = "house.approval_ended"
    HOUSE_HOURS_NOTIFIED = "house.hours_notified"
    HOUSE_EARLY_STOP_RECORDED = "house.early_stop_recorded"
    HOUSE_BANK_FAILURE_RECORDED = "house.bank_failure_recorded"
    HOUSE_NEW_AUTHORISATION_RECORDED = "house.new_authorisation_recorded"
    HOUSE_DEVICE_REGISTERED = "house.device_registered"
    HOUSE_DEVICE_ASSIGNED = "house.device_assigned"
    HOUSE_DEVICE_RETURNED = "house.device_returned"
    HOUSE_EXCLUSION_RECORDED = "house.exclusion_recorded"
    HOUSE_OWN_EXCLUSION_RECORDED = "house.own_exclusion_recorded"
    HOUSE_EXCLUSION_NOTIFIED = "house.exclusion_notified"
    HOUSE_EXCLUSION_LIFTED = "house.exclusion_lifted"
    HOUSE_ENTRY_REFUSED = "house.entry_refused"
    HOUSE_CLOSING_RECORDED = "house.closing_recorded"
    HOUSE_CLOSING_STAMPED = "house.closing_stamped"
    HOUSE_TABLE_NOTICE_POSTED = "house.table_notice_posted"
    HOUSE_ROLE_GRANTED = "house.role_granted"
    HOUSE_ROLE_WITHDRAWN = "house.role_withdrawn"
    HOUSE_PERSON_RENAMED = "house.person_renamed"
    # officers: the authority's enrolments and revocations, recorded by the casino
    OFFICER_ENROLLED = "officer.enrolled"
    OFFICER_REVOKED = "officer.revoked"
    HOUSE_SUPERUSER_CREATED = "house.superuser_created"
    # the record itself
    INSPECTION_RUN = "inspection.run"
    REGISTER_ISSUED = "register.issued"
    REGISTER_PRINTED = "register.printed"
    FORGED_EVENT = "audit.forged_event"
    # a checkpoint refused: the books differ from the chain (a row no act wrote, changed or gone)
    CHECKPOINT_REFUSED = "audit.checkpoint_refused"
    # an event recorded earlier than the event sealed before it: the server's clock ran backwards
    CLOCK_BACKWARDS = "audit.clock_backwards"
    # the authority's witnesses (audit.witnesses): a refusal, a witness out of reach, one retired
    WITNESS_REFUSED = "audit.witness_refused"
    WITNESS_UNREACHABLE = "audit.witness_unreachable"
    WITNESS_RETIRED = "audit.witness_retired"
    # the sealer could not seal for longer than AUDIT_SEALING_LATE_AFTER (audit.chain.sealer)
    SEALING_INTERRUPTED = "audit.sealing_interrupted"

    @classmethod
    def _missing_(cls, value: object) -> Action | None:
        return declared_member(DECLARED_ACTIONS, value)


#: The events declared beside their acts' services (:func:`declare`), by name: members of
#: :class:`Action` made at start-up, not among those its class writes (``list(Action)``).
DECLARED_ACTIONS: Registry[Action] = Registry("audit.actions.DECLARED_ACTIONS")
#: The label of each declared event, by its code (the portal's, beside its own labels).
DECLARED_LABELS: Registry[StrOrPromise] = Registry("audit.actions.DECLARED_LABELS")


def declare(name: str, value: str, *, label: StrOrPromise) -> Action:
    """A new act's event, declared beside its service rather than in :class:`Action`: the member
    ``Action.<name>`` whose code in the chain is ``value`` (it never changes), and its ``label``
    (``gettext_lazy``) shown wherever the portal and the admin name the act."""
    action = declare_member(Action, DECLARED_ACTIONS, name, value)
    DECLARED_LABELS.register(value, label)
    return action


def every_action() -> list[Action]:
    """Every event the record knows: the class's own, then those declared beside their acts."""
    return [*Action, *DECLARED_ACTIONS]


#: The officer's visa on each depot book entry, by the entry's model name.
DEPOT_STAMPED = {
    "order": Action.DEPOT_ORDER_STAMPED,
    "reception": Action.DEPOT_RECEPTION_STAMPED,
    "destruction": Action.DEPOT_DESTRUCTION_STAMPED,
}
