from django.apps import AppConfig


class PeerModelsConfig(AppConfig):
    name = "bench.peer_models"
    label = "peer_models"
    default_auto_field = "django.db.models.BigAutoField"
