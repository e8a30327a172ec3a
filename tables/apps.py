from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = _("Tables de jeu")

    def ready(self) -> None:
        from cards_registry import floor, history
        from casino_ops import roles

        from . import books
        from .selectors import deck_shoe_history

        books.register()  # the regulated books, bound to the audit chain (audit.books)

        view_all = {
            f"tables.view_{model}"
            for model in (
                "table",
                "session",
                "advanceentry",
                "maximumchange",
                "controlday",
                "controlline",
                "shoe",
                "shoedeck",
                "handlog",
                "replay",
                "discrepancy",
                "delegation",
                "authorisedminimum",
                "ministrynotice",
                "discrepancyacknowledgement",
            )
        }
        roles.extend_role_permissions(
            {
                roles.DIRECTOR: view_all,
                roles.COMMITTEE: view_all,
                roles.CROUPIER: view_all,
                roles.CASHIER: {"tables.view_session", "tables.view_advanceentry"},
                roles.OFFICER: view_all,
            }
        )
        history.PROVIDERS.register("tables.shoes", deck_shoe_history)  # the shoes a deck served
        from .services.floor import day_closed, table_refusal

        floor.TABLE_CHECKS.register("tables.in_service", table_refusal)  # decks go to a table in service
        floor.DAY_CLOSED.register("tables.control_day", day_closed)  # ... and for a day not yet closed
        from . import checks as self_inspection  # noqa: F401  (its checks join inspect_books)
