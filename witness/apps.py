from django.apps import AppConfig


class WitnessConfig(AppConfig):
    name = "witness"
    verbose_name = "Témoin de l'autorité"
    default_auto_field = "django.db.models.BigAutoField"
