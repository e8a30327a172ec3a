"""Login throttling and the second factor (TOTP).

:class:`LoginThrottleBackend` is django-axes' backend, first of
``AUTHENTICATION_BACKENDS``: a web login locked out after too many failures
is refused. A login without a request (a script, the test client) is not a
web login and is not throttled.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth import user_login_failed
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django_otp import devices_for_user, match_token
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops import roles


class LoginThrottleBackend(AxesStandaloneBackend):  # type: ignore[misc]  # django-axes has no types
    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        super().authenticate(request, *args, **kwargs)  # raises when locked out, else authenticates no one
        return None


def two_factor_required() -> bool:
    return bool(getattr(settings, "TWO_FACTOR_REQUIRED", True))


def needs_second_factor(user: Any) -> bool:
    """True for a director, an officer or a superuser (the server's administrator is no way
    around the login's second factor) when two-factor login is required."""
    return two_factor_required() and (
        bool(getattr(user, "is_superuser", False)) or roles.has_role(user, *roles.TWO_FACTOR)
    )


def is_locked_out(request: HttpRequest, user: Any) -> bool:
    """True while django-axes locks ``user``'s username from this client: the code step
    is refused too, even in a session that already gave the password."""
    return bool(AxesProxyHandler.is_locked(request, credentials={"username": user.get_username()}))


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The lockout page (``AXES_LOCKOUT_CALLABLE``), with the time left in words."""
    username = (credentials or {}).get("username") or getattr(request.user, "username", "") or ""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "username": username,
        "cooloff_time": _time_left(request, username),
    }
    status = getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429)  # django-axes' default
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "code": "LOGIN_LOCKED",
                "message": str(
                    _("Connexion bloquée : réessayez dans %(t)s.") % {"t": context["cooloff_time"]}
                ),
            },
            status=status,
        )
    return render(request, settings.AXES_LOCKOUT_TEMPLATE, context, status=status)


def _time_left(request: HttpRequest, username: str) -> str:
    """ "59 minutes", "1 heure": from the last failure that locked the username to the end of
    the cool-off (the whole cool-off when it cannot be told)."""
    from axes.helpers import get_cool_off
    from axes.models import AccessAttempt

    cool_off = get_cool_off(request) or dt.timedelta(hours=1)
    now = timezone.now()
    last = (
        AccessAttempt.objects.filter(username=username)
        .order_by("-attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )
    end = (last or now) + cool_off
    if end <= now:
        end = now + dt.timedelta(minutes=1)
    return timeuntil(end, now, depth=1)


def has_device(user: Any) -> bool:
    return any(True for _device in devices_for_user(user, confirmed=True))


def check_code(request: HttpRequest, user: Any, code: str) -> Any:
    """The user's confirmed device that accepts ``code``, or None.

    A wrong code counts as a failed login for the throttle, like a wrong password.
    """
    if is_locked_out(request, user):
        return None  # locked: not even the right code opens the session
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
