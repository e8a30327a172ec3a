"""Who sees what in the officers' portal and API — the one place it is decided.

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
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework.exceptions import NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission

from casino_ops import roles

from .auth import needs_second_factor

READ = "read"
VISA = "visa"
CLOSE_INCIDENT = "close_incident"
# Asking for a register's signed PDF: a print request, which changes no book.
PRINT = "print"
# The officer's demand to open the card depot's cabinet (FR art. 39, LU art. 6): an act of
# his own, not a visa.
DEMAND_OPENING = "demand_opening"

# What each role may do here. Officers: every read, and only these writes.
PORTAL_ACTIONS: dict[str, frozenset[str]] = {
    roles.OFFICER: frozenset({READ, VISA, CLOSE_INCIDENT, PRINT, DEMAND_OPENING}),
}

M = TypeVar("M", bound=Model)


def may(user: Any, action: str = READ) -> bool:
    """May ``user`` do ``action`` in the portal or the officers' API?"""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if needs_second_factor(user) and hasattr(user, "is_verified") and not user.is_verified():
        return False
    return any(action in PORTAL_ACTIONS.get(role, ()) for role in roles.roles_of(user))


def restrict(user: Any, queryset: QuerySet[M], action: str = READ) -> QuerySet[M]:
    """``queryset`` as ``user`` may see it: all of it, or nothing."""
    return queryset if may(user, action) else queryset.none()


def get_visible_or_404(user: Any, queryset: QuerySet[M], action: str = READ, **lookup: Any) -> M:
    return get_object_or_404(restrict(user, queryset, action), **lookup)


def officer_required(
    action: str = READ, methods: tuple[str, ...] | None = None
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Decorator of portal views: login for anonymous visitors, 404 for other roles;
    a read answers GET only, a write (visa, closure) POST only, unless ``methods``
    says otherwise (the signature checker reads an uploaded file)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
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


class OfficerReadOnly(BasePermission):
    """DRF permission of the officers' API: reads for officers, 404 for the others."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False  # 401/403: authenticate first
        if not may(request.user, READ):
            raise NotFound
        return request.method in SAFE_METHODS
