"""Other books of the casino and what each role may do in them.

- officer: view every book.
- director and committee member: view everything; who keeps the books is decided by
  casino_ops.access (the services check the role and the rules themselves).
"""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

_MODELS = (
    "orphanentry",
    "orphanrepayment",
    "orphantransfer",
    "approval",
    "approvalendentry",
    "tipscount",
    "seancehours",
    "earlystop",
    "bankfailure",
    "newauthorisation",
    "shoedevice",
    "deviceassignment",
    "exclusion",
    "ownexclusionentry",
    "exclusionnoticeentry",
    "exclusionliftentry",
    "refusedentry",
    "closingdown",
    "tablenotice",
    "devicereturnentry",
    "roleentry",
)


class HouseBooksConfig(AppConfig):
    name = "house_books"
    verbose_name = _("Autres livres du casino")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from casino_ops import roles

        view_all = {f"house_books.view_{model}" for model in _MODELS}
        roles.extend_role_permissions(
            {
                roles.OFFICER: view_all,
                roles.DIRECTOR: view_all,
                roles.COMMITTEE: view_all,
                roles.CASHIER: {"house_books.view_tipscount"},
            }
        )
        from . import books
        from . import checks as self_inspection  # noqa: F401  (its checks join inspect_books)
        from .act_checks import register_all

        books.register()  # the regulated books, bound to the audit chain (audit.books)

        register_all()  # the tables' and the depot's acts obey approvals, hours and the bank

        # the server's administrator is no way around the procedure (house_books.superusers)
        from django.contrib.auth import get_user_model
        from django.core import checks
        from django.db.models.signals import post_save, pre_save

        from . import superusers

        user = get_user_model()
        pre_save.connect(superusers.refuse_in_service, sender=user, dispatch_uid="house_books.superusers")
        post_save.connect(superusers.record_in_service, sender=user, dispatch_uid="house_books.superusers")
        checks.register(superusers.check_superusers, checks.Tags.security, deploy=True)
