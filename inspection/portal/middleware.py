"""Send a director or an officer who has not given a TOTP code to the code step.

Runs after django-otp's ``OTPMiddleware`` (which tells whether the session was
verified with a device). Applies to every page, the admin included; the API
answers 403 instead of redirecting.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse

from .auth import needs_second_factor
from .passkey import second_factor_given

_FREE_PREFIXES = ("/static/", "/health/", "/i18n/")


class TwoFactorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and needs_second_factor(user)
            and not second_factor_given(user)
            and not self._free(request.path)
        ):
            if request.path.startswith("/api/"):
                return JsonResponse(
                    {
                        "code": "SECOND_FACTOR_REQUIRED",
                        "message": "Code à usage unique (TOTP) requis : connectez-vous au portail.",
                    },
                    status=403,
                )
            query = urlencode({"next": request.get_full_path()})
            return HttpResponseRedirect(f"{reverse('portal:verify')}?{query}")
        return self.get_response(request)

    @staticmethod
    def _free(path: str) -> bool:
        if path.startswith(_FREE_PREFIXES):
            return True
        return path in {
            reverse("portal:verify"),
            reverse("portal:logout"),
            reverse("admin:logout"),
        }
