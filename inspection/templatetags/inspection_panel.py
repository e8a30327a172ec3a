"""The self-inspection's panel: ``{% books_inspection live as panel %}`` gives
``{"inspection": the result, "at": when it ran, "officer": whether the reader is an officer}``
(``None`` for other roles).

``live``: run every check now but the whole record's (the admin's index, the portal's
inspection page, which stores the result); otherwise the last result stored (by the nightly task, the command's
page or the admin), read from the cache without a database query: the officers'
dashboard keeps its query budget and links to the live page.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.cache import cache
from django.utils import timezone

from cards_registry import selectors as depot
from casino_ops import roles
from casino_ops.checks import inspect

register = template.Library()

CACHE_KEY = "books_inspection:last"


def store(result: Any) -> dict[str, Any]:
    """Keep ``result`` (an :class:`~casino_ops.checks.Inspection`) as the last one run."""
    stored = {"inspection": result.as_dict(), "at": timezone.now()}
    cache.set(CACHE_KEY, stored, timeout=None)
    return stored


@register.simple_tag(takes_context=True)
def books_inspection(context: dict[str, Any], live: bool = False) -> dict[str, Any] | None:
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if not (roles.is_officer(user) or roles.is_management(user)):
        return None
    # a page inspects without the whole record's check (the chain and every book against it:
    # the command's and the nightly task's)
    stored: dict[str, Any] | None = store(inspect(whole_record=False)) if live else cache.get(CACHE_KEY)
    data = stored["inspection"] if stored else None
    return {
        "inspection": data,
        "clean": bool(data and not data["breaches"]),
        "at": stored["at"] if stored else None,
        "officer": roles.is_officer(user),
    }


@register.simple_tag
def unreported_incidents(refused: Any = None) -> list[Any]:
    """Incidents found by a return, a destruction or a replay and not yet reported to an officer;
    with ``refused`` (an acknowledgement refused, as posted), its incident too, even once reported
    meanwhile, so that its refusal is said beside it."""
    incidents = list(depot.unreported_incidents())
    if refused and refused.target not in incidents:
        incidents.append(refused.target)
    return incidents
