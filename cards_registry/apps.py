"""The card depot app and what each role may do in it.

Permissions given to the roles (see :mod:`casino_ops.roles`):

- officer: view every book of the depot, plus the officer-only acts:
  ``cards_registry.stamp_visa`` (visa of an order, a receipt-book entry, a
  destruction) and ``cards_registry.close_incident``. The services check the role
  itself (a visa or a closure by anyone else is refused with the article).
- director and committee member: view everything, plus ``cards_registry.depot_act``
  (orders, receptions, the key, openings, issues and returns, incidents,
  destructions). Corrections need the director himself (FR art. 68:
  ``cards_registry.approve_correction``).
- croupier / table chief: view decks and issues, and ``cards_registry.check_at_table``
  (the unsealing or check of a deck at his table).
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

_MODELS = (
    "manufacturer",
    "book",
    "order",
    "orderline",
    "reception",
    "sixain",
    "deck",
    "keyhandover",
    "cabinetopening",
    "tableissue",
    "issueline",
    "tablecheck",
    "deckreturn",
    "returnline",
    "incident",
    "incidentclosure",
    "destruction",
    "destructionline",
    "visa",
    "correction",
    "depotsettings",
    "incidentreport",
    "cabinetdemand",
    "cabinetinventory",
    "outofusedeclaration",
)


class CardsRegistryConfig(AppConfig):
    name = "cards_registry"
    verbose_name = _("Dépôt des cartes")

    def ready(self) -> None:
        from casino_ops import roles

        from . import books

        books.register()  # the regulated books, bound to the audit chain (audit.books)

        view_all = {f"cards_registry.view_{model}" for model in _MODELS}
        roles.extend_role_permissions(
            {
                roles.OFFICER: {*view_all, "cards_registry.stamp_visa", "cards_registry.close_incident"},
                roles.DIRECTOR: {
                    *view_all,
                    "cards_registry.depot_act",
                    "cards_registry.approve_correction",
                    "cards_registry.change_depotsettings",
                },
                roles.COMMITTEE: {*view_all, "cards_registry.depot_act"},
                roles.CROUPIER: {
                    "cards_registry.view_deck",
                    "cards_registry.view_tableissue",
                    "cards_registry.view_issueline",
                    "cards_registry.check_at_table",
                },
            }
        )
        from . import inspection  # noqa: F401  (its checks join inspect_books)
