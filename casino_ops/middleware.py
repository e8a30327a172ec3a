"""The project's middleware: a RegulationError that escaped a view shown as a clear message
(never a traceback); responses compressed (BREACH-safe); a signed-in user's pages private."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_cache_control

from .regulations import RegulationError


class RegulationErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, RegulationError):
            return None
        if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
            return JsonResponse(exception.as_dict(), status=400)
        messages.error(request, str(exception))
        # Back to where the act was asked from; nothing was saved (the act's
        # transaction rolled back with the error).
        return HttpResponseRedirect(request.get_full_path())


class CompressionMiddleware(GZipMiddleware):
    """HTML and JSON sent compressed, with Django's BREACH mitigation ("Heal the Breach": random
    bytes in each gzip stream, so that the length no longer tells a guessed byte; the CSRF token
    is masked anew in each response). A response that shows a secret an attacker could guess
    byte by byte while reflecting his own input beside it (the second-factor key shown at
    enrolment) is sent uncompressed: its view marks it with :func:`not_compressed`."""

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if getattr(response, "not_compressed", False):
            return response
        return super().process_response(request, response)


def not_compressed(response: HttpResponse) -> HttpResponse:
    """Send ``response`` uncompressed (it shows a secret: see :class:`CompressionMiddleware`)."""
    response.not_compressed = True  # type: ignore[attr-defined]
    return response


class PrivateCacheMiddleware:
    """A signed-in user's pages are his own: ``Cache-Control: private`` (no proxy or shared cache
    keeps them), added where the view said nothing of caching."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_cache=True)
        elif user is not None and user.is_authenticated and "public" not in response["Cache-Control"]:
            patch_cache_control(response, private=True)
        return response
