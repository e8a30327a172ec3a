"""Show a RegulationError that escaped a view as a clear message, never a traceback."""

from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse

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
