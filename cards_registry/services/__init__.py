"""The regulated acts of the card depot (FR art. 39-40, 55-4, 68; LU art. 6-7, 32).

Each act is one function: keyword-only arguments, one transaction, every check
before any write (a refusal is a :class:`RegulationError` citing the article of the
casino's profile, and nothing is written), then the rows, then one audit event.
One module per concern: :mod:`.makers`, :mod:`.orders`, :mod:`.receptions`,
:mod:`.cabinet`, :mod:`.at_tables`, :mod:`.incidents`, :mod:`.destructions`,
:mod:`.corrections`; what they share (book numbering, deck locks and moves, the
officers' visas) is in :mod:`._shared`. The pure checks are in
:mod:`cards_registry.rules`, the reads in :mod:`cards_registry.selectors`.

Who may do what (the roles are in :mod:`casino_ops.roles`):

- the director or a committee member (management): manufacturers, orders, sending
  an order, receptions, the key, every act that opens the cabinet (which needs the
  key: the actor must be the current key holder), incidents;
- the officer alone: visas (orders, receipt-book entries, destructions) and the
  closure of an incident; he witnesses destructions and may demand an opening;
- the croupier / table chief (or management): the unsealing or check of a deck at
  his table, and the report of an incident;
- the director alone: corrections (FR art. 68) and the depot's settings.
"""

from ..selectors import current_key_holder, current_value
from .at_tables import check_at_table, incident_at_shoe, issue_decks, return_decks
from .cabinet import declare_out_of_use, demand_opening, hand_over_key, open_for_inspection, record_inventory
from .corrections import CORRECTABLE, record_correction
from .destructions import DestructionCheck, destroy_decks, stamp_destruction
from .incidents import (
    REPLAY_CODES,
    close_incident,
    record_incident_report,
    report_incident,
    report_incident_from_replay,
)
from .makers import register_manufacturer, set_max_sixains, stamp_maker_approval, stamp_sixain_cap
from .orders import OrderLineData, create_order, send_order, stamp_order
from .receptions import DeckData, SixainData, receive, stamp_reception

__all__ = [
    "CORRECTABLE",
    "REPLAY_CODES",
    "DeckData",
    "DestructionCheck",
    "OrderLineData",
    "SixainData",
    "check_at_table",
    "incident_at_shoe",
    "close_incident",
    "create_order",
    "current_key_holder",
    "current_value",
    "declare_out_of_use",
    "demand_opening",
    "destroy_decks",
    "hand_over_key",
    "issue_decks",
    "open_for_inspection",
    "receive",
    "record_inventory",
    "record_incident_report",
    "record_correction",
    "register_manufacturer",
    "report_incident",
    "report_incident_from_replay",
    "return_decks",
    "send_order",
    "set_max_sixains",
    "stamp_maker_approval",
    "stamp_sixain_cap",
    "stamp_destruction",
    "stamp_order",
    "stamp_reception",
]
