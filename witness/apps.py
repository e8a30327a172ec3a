from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks

from tlog import note as notes


def check_key(app_configs: Any = None, **kwargs: Any) -> list[checks.CheckMessage]:
    """The witness cosigns nothing without its key: said at ``check`` and ``migrate``."""
    try:
        key = notes.Signer.from_skey(str(getattr(settings, "WITNESS_KEY", "") or ""))
    except notes.NoteError as error:
        return [
            checks.Error(
                f"WITNESS_KEY is not a witness key: {error}",
                hint="Make one with `python -m witness witness_keygen NAME`; set WITNESS_KEY or WITNESS_KEY_FILE.",
                id="witness.E001",
            )
        ]
    if key.kind != notes.COSIGNATURE_V1:
        return [checks.Error("WITNESS_KEY is not a cosignature key (type 0x04).", id="witness.E001")]
    return []


class WitnessConfig(AppConfig):
    name = "witness"
    verbose_name = "Témoin de l'autorité"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        checks.register(check_key)
