from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsRegistryConfig(AppConfig):
    name = "cards_registry"
    verbose_name = _("Dépôt des cartes")
