"""The card depot (FR art. 39-40, LU art. 6-7).

The books of the depot, as the regulation keeps them on paper:

- :class:`Manufacturer` — the makers approved by the ministry (FR: Interior, LU: Finance).
- :class:`Book` — a numbered book (order book, FR model n° 21; receipt book, FR model
  n° 19; incident and destruction books). Its row is also the counter of its entries:
  a service locks it ``FOR UPDATE`` and takes ``last_number + 1``, so numbers never
  repeat and never skip.
- :class:`Order` and :class:`OrderLine` — purchase orders, stamped (:class:`Visa`)
  before they are sent.
- :class:`Reception` — a receipt-book entry, with the :class:`Sixain` s and
  :class:`Deck` s received and their serial numbers.
- :class:`KeyHandover` and :class:`CabinetOpening` — the single key and every opening.
- :class:`TableIssue` / :class:`IssueLine` — decks given to a table for a day;
  :class:`TableCheck` — the unsealing/check at the table; :class:`DeckReturn` /
  :class:`ReturnLine` — the return and examination.
- :class:`Incident` / :class:`IncidentClosure`, :class:`Destruction` /
  :class:`DestructionLine`, :class:`Visa`, :class:`Correction`.

Registered entries are never updated or deleted (FR art. 68): a visa, a closure, a
return or a correction is a new row pointing at the entry. The only mutable fields are
a deck's ``status`` (its state machine, changed only by the services) and an order's
``sent_at`` (set once by :func:`cards_registry.services.send_order`).
"""

from __future__ import annotations

from .at_tables import DeckReturn, IssueLine, ReturnLine, ReturnResult, TableCheck, TableIssue
from .cabinet import (
    CabinetDemand,
    CabinetInventory,
    CabinetOpening,
    KeyHandover,
    OpeningPurpose,
    OutOfUseDeclaration,
)
from .corrections import CORRECTED_ENTRIES, Correction, correction_key
from .decks import Deck, DeckStatus
from .destructions import Destruction, DestructionLine, Visa
from .incidents import Incident, IncidentClosure, IncidentKind, IncidentReport, IncidentRoute
from .makers import AuthorityVisa, Book, BookKind, DepotSettings, Manufacturer, SixainCap
from .orders import Order, OrderLine, Unit
from .receptions import Reception, Sixain

__all__ = [
    "Manufacturer",
    "BookKind",
    "Book",
    "DepotSettings",
    "SixainCap",
    "AuthorityVisa",
    "Unit",
    "Order",
    "OrderLine",
    "Reception",
    "Sixain",
    "DeckStatus",
    "Deck",
    "KeyHandover",
    "OpeningPurpose",
    "CabinetOpening",
    "CabinetDemand",
    "CabinetInventory",
    "OutOfUseDeclaration",
    "TableIssue",
    "IssueLine",
    "TableCheck",
    "ReturnResult",
    "DeckReturn",
    "ReturnLine",
    "IncidentKind",
    "IncidentRoute",
    "Incident",
    "IncidentReport",
    "IncidentClosure",
    "Destruction",
    "DestructionLine",
    "Visa",
    "CORRECTED_ENTRIES",
    "correction_key",
    "Correction",
]
