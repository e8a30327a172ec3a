"""API tokens skip the second factor, so a token opens only two doors.

- an officer's token: the officers' read-only API (``/api/inspection/`` and its schema,
  GET/HEAD/OPTIONS);
- the hand-log machine's token (role ``depot_machine``): the upload of a hand log
  (``POST /api/tables/sessions/<id>/hand-logs/``, or several at once at
  ``…/hand-logs/batch/``) and the schema that describes it, and nothing else.

Any other token (a director's, a croupier's…) is refused with 403
``TOKEN_NOT_ALLOWED``: people who act sign in with their password (and their code).
A read of the officers' API with another role's token goes on to that API, which
answers 404 to whoever is not an officer (inspection/portal/access.py).
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework import exceptions, permissions
from rest_framework.authentication import TokenAuthentication
from rest_framework.request import Request

from . import roles

OFFICERS_API = "/api/inspection/"
SCHEMA = "/api/schema/"
HAND_LOG_UPLOAD = re.compile(r"^/api/tables/sessions/\d+/hand-logs/(?:batch/)?$")


class TokenNotAllowed(exceptions.PermissionDenied):
    default_code = "TOKEN_NOT_ALLOWED"


def token_allowed(user: Any, method: str, path: str) -> bool:
    if path.startswith(SCHEMA):  # read by the roles whose tokens use the API, no other
        return method in permissions.SAFE_METHODS and roles.has_role(user, roles.OFFICER, roles.MACHINE)
    if roles.has_role(user, roles.MACHINE):
        return method == "POST" and bool(HAND_LOG_UPLOAD.match(path))
    if method in permissions.SAFE_METHODS and path.startswith(OFFICERS_API):
        return True  # the officers' API decides (404 for whoever is not an officer)
    return False


class ScopedTokenAuthentication(TokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        result = super().authenticate(request)
        if result is None:
            return None
        user, _token = result
        if not token_allowed(user, request.method or "", request.path):
            raise TokenNotAllowed(
                {
                    "code": "TOKEN_NOT_ALLOWED",
                    "message": "Jeton refusé ici : les jetons servent à la lecture des officiers "
                    "et à l'envoi des journaux de mains par la machine dédiée.",
                }
            )
        return result
