"""API plumbing shared by the apps: a RegulationError is an HTTP 400 with its article; a
missing role (casino_ops.access.RoleRequired) is a 403 with the same refusal JSON."""

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .access import RoleRequired
from .regulations import RegulationError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RoleRequired):
        return Response(exc.as_dict(), status=403)
    if isinstance(exc, RegulationError):
        return Response(exc.as_dict(), status=400)
    return drf_exception_handler(exc, context)
