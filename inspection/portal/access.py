"""Who sees what in the officers' portal and API: casino_ops.access decides, with the login's
second factor added here.

Police and control officers read everything and write only visas, incident
closures and their demand to open the depot's cabinet. Every other role, in the portal and in the officers' API, sees
nothing: an object a role may not see is a 404, never a 403 that would
confirm it exists. Anonymous visitors are sent to the login.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.views import redirect_to_login
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponseNotAllowed
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import reverse

from casino_ops import access, roles
from casino_ops.access import Act

from .auth import needs_second_factor
from .passkey import second_factor_given

# The portal's actions are acts of casino_ops.access (their values are the names the
# views and the permission matrix use); who may do each is decided there.
READ = Act.READ
VISA = Act.VISA
CLOSE_INCIDENT = Act.CLOSE_INCIDENT
# Asking for a register's signed PDF: a print request, which changes no book.
PRINT = Act.PRINT
# The officer's demand to open the card depot's cabinet (FR art. 39, LU art. 6): an act of
# his own, not a visa.
DEMAND_OPENING = Act.DEMAND_OPENING
PORTAL_ACTS = (READ, VISA, CLOSE_INCIDENT, PRINT, DEMAND_OPENING)

# What each role may do here, read from casino_ops.access (officers: every read, and only
# these writes).
PORTAL_ACTIONS: dict[str, frozenset[str]] = {
    role: acts
    for role in roles.ALL_ROLES
    if (acts := frozenset(act for act in PORTAL_ACTS if role in access.roles_for(act)))
}

M = TypeVar("M", bound=Model)


def may(user: Any, action: str = READ) -> bool:
    """May ``user`` do ``action`` in the portal or the officers' API?"""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if needs_second_factor(user) and not second_factor_given(user):
        return False
    return access.may(user, action)


def may_log_in(user: Any) -> bool:
    """Does ``user`` hold a role that acts in the portal (before his second factor)?"""
    return any(access.may(user, act) for act in PORTAL_ACTS)


def restrict(user: Any, queryset: QuerySet[M], action: str = READ) -> QuerySet[M]:
    """``queryset`` as ``user`` may see it: all of it, or nothing (casino_ops.access.restrict,
    once the second factor is checked)."""
    return access.restrict(user, queryset, action) if may(user, action) else queryset.none()


def get_visible_or_404(user: Any, queryset: QuerySet[M], action: str = READ, **lookup: Any) -> M:
    return get_object_or_404(restrict(user, queryset, action), **lookup)


def officer_required(
    action: str = READ, methods: tuple[str, ...] | None = None
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Decorator of portal views: login for anonymous visitors, 404 for other roles;
    a read answers GET only, a write (visa, closure) POST only, unless ``methods``
    says otherwise (the signature checker reads an uploaded file)."""

    def decorator(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path(), reverse("portal:login"))
            if not may(request.user, action):
                raise Http404
            allowed = list(methods) if methods else ["GET", "HEAD"] if action == READ else ["POST"]
            if request.method not in allowed:
                return HttpResponseNotAllowed(allowed)
            return view(request, *args, **kwargs)

        wrapped.portal_action = action  # type: ignore[attr-defined]
        return wrapped

    return decorator
