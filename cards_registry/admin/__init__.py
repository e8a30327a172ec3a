"""The depot's admin screens, for the director and the committee (in French).

Registered entries are read-only here (FR art. 68). Every act goes through a form
or an action that calls its service in :mod:`cards_registry.services`: a refusal
is shown on the form (on its field, with the article) or as a message, never as
a traceback, and nothing already recorded changes.

- Fabricants, bons de commande, prises en charge, remises de la clé, ouvertures
  (inspection), incidents and corrections: "Ajouter" opens the act's form.
- Bons de commande: action "Envoyer au fabricant" (once the officer has stamped it).
- Descellements / contrôles à la table: "Ajouter" checks a deck issued to a table, named
  by its serial.
- Jeux: filters by state, maker and reception date, search by serial; actions
  "remettre à la table", "retour : apte / usé / marqué / abîmé" and "détruire devant
  l'officier", with the table, the day and the officer chosen above the list;
  the detail page shows the deck's whole life with audit numbers.

One module a concern; importing the package registers every page. The base classes
of an act's page (:class:`ActForm`, :class:`ActAdmin`) live in :mod:`casino_ops.admin_acts`
and are re-exported here for the modules that still import them from the depot.
"""

from casino_ops.admin_acts import ActAdmin, ActForm

from .cabinet import (
    CabinetDemandAdmin,
    CabinetInventoryAdmin,
    CabinetOpeningAdmin,
    InspectionForm,
    InventoryForm,
    KeyHandoverAdmin,
    KeyHandoverForm,
)
from .corrections import ApprovedCorrectionForm, CorrectionAdmin, CorrectionForm
from .decks import (
    CountedReturnForm,
    DeckActionForm,
    DeckAdmin,
    DeckReturnAdmin,
    OutOfUseDeclarationAdmin,
    OutOfUseForm,
    SixainAdmin,
    declare_out_of_use,
)
from .depot_settings import DepotSettingsAdmin, DepotSettingsForm
from .destructions import DestructionAdmin
from .incidents import (
    IncidentAdmin,
    IncidentForm,
    IncidentReportAdmin,
    IncidentToldForm,
    ProcedureIncidentForm,
)
from .makers_orders import ManufacturerAdmin, ManufacturerForm, OrderAdmin, OrderForm
from .receptions import ReceptionAdmin, ReceptionForm
from .table_checks import TableCheckAdmin, TableCheckForm

__all__ = [
    "ActAdmin",
    "ActForm",
    "ApprovedCorrectionForm",
    "CabinetDemandAdmin",
    "CabinetInventoryAdmin",
    "CabinetOpeningAdmin",
    "CorrectionAdmin",
    "CorrectionForm",
    "CountedReturnForm",
    "DeckActionForm",
    "DeckAdmin",
    "DeckReturnAdmin",
    "DepotSettingsAdmin",
    "DepotSettingsForm",
    "DestructionAdmin",
    "IncidentAdmin",
    "IncidentForm",
    "IncidentReportAdmin",
    "IncidentToldForm",
    "InspectionForm",
    "InventoryForm",
    "KeyHandoverAdmin",
    "KeyHandoverForm",
    "ManufacturerAdmin",
    "ManufacturerForm",
    "OrderAdmin",
    "OrderForm",
    "OutOfUseDeclarationAdmin",
    "OutOfUseForm",
    "ProcedureIncidentForm",
    "ReceptionAdmin",
    "ReceptionForm",
    "SixainAdmin",
    "TableCheckAdmin",
    "TableCheckForm",
    "declare_out_of_use",
]
