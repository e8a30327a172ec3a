"""Login throttling and the second factor (TOTP).

:class:`LoginThrottleBackend` is django-axes' backend, first of
``AUTHENTICATION_BACKENDS``: a web login locked out after too many failures
is refused. A login without a request (a script, the test client) is not a
web login and is not throttled.
"""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.contrib.auth import user_login_failed
from django.http import HttpRequest
from django_otp import devices_for_user, match_token
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops import roles


class LoginThrottleBackend(AxesStandaloneBackend):
    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)


def needs_second_factor(user: Any) -> bool:
    """True for a director or an officer when two-factor login is required."""
    return bool(getattr(settings, "TWO_FACTOR_REQUIRED", True)) and roles.has_role(user, *roles.TWO_FACTOR)


def has_device(user: Any) -> bool:
    return any(True for _device in devices_for_user(user, confirmed=True))


def check_code(request: HttpRequest, user: Any, code: str) -> Any:
    """The user's confirmed device that accepts ``code``, or None.

    A wrong code counts as a failed login for the throttle, like a wrong password.
    """
    device = match_token(user, code.strip().replace(" ", "")) if code else None
    if device is None:
        user_login_failed.send(
            sender=__name__,
            credentials={"username": user.get_username()},
            request=request,
        )
    return device


def new_totp_device(user: Any, *, name: str = "Application d'authentification") -> TOTPDevice:
    """An unconfirmed TOTP device for the enrolment step (confirmed by a first code)."""
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name=name, confirmed=False)
