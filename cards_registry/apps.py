"""The card depot app and what each role may do in it.

View permissions given to the roles (see :mod:`casino_ops.roles`): officers, the
director and committee members view every book of the depot; croupiers the decks and
issues. Who may perform each act of the depot (orders, receptions, the key, visas,
incidents, corrections, the check at the table) is decided by :mod:`casino_ops.access`.
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
                roles.OFFICER: view_all,
                roles.DIRECTOR: view_all,
                roles.COMMITTEE: view_all,
                roles.CROUPIER: {
                    "cards_registry.view_deck",
                    "cards_registry.view_tableissue",
                    "cards_registry.view_issueline",
                },
            }
        )
        from . import checks as self_inspection  # noqa: F401  (its checks join inspect_books)
