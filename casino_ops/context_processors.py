"""What every template may ask of the casino: its regulation (``casino_profile``, "FR" or
"LU"), read only when a template uses it. The French model numbers of the books are shown
under FR only (the LU books' models are fixed by the Minister of Finances)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .services import get_casino


def casino(request: HttpRequest) -> dict[str, Any]:
    return {
        "casino_profile": SimpleLazyObject(lambda: get_casino().profile),
        # DEMO ONLY: the demo's software passkey may sign for its officer (casino_ops.officers)
        "demo_passkey": bool(settings.DEBUG and getattr(settings, "OFFICER_DEMO_PASSKEY", False)),
    }
