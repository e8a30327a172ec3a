"""The one check of a refusal: its code, its article, the field it names, and (when asked) that
nothing was recorded. A refusal is met three ways, all checked here:

- raised by a service (a ``RegulationError``): the block under ``with assert_refused(...)``;
- answered by the API: the JSON ``{code, message, field, article}`` of ``response``;
- shown by an admin form: ``response``'s form, the act's refusal (``code``) or an input refused
  on its ``field`` before any act (``code`` None).
"""

from __future__ import annotations

from typing import Any

ANY: Any = object()

#: The keys of the API's refusal JSON (``consequence`` too when the refusal set one off).
REFUSAL_KEYS = {"code", "message", "field", "article"}


class assert_refused:
    """The refusal ``code`` with, when given, its ``article`` and ``field`` (None included: then
    the refusal must name no field).

        with assert_refused("SESSION_NOT_TODAY", article="FR art. 69", field="day") as refusal:
            open_session(...)
        refusal.value.params                   # the RegulationError

        assert_refused("HAND_LOG_REJECTED", response=client.post(...))   # the API's 400
        assert_refused(None, field="day", response=admin_client.post(...))  # the form again

    ``nothing_recorded``: the audit record holds no more events after the block than before it.
    ``status``: the response's (400 for the API, 200 for a form shown again, by default);
    ``consequence``: the API's JSON may carry the refusal's consequence; ``form``: the name the
    page gives the form shown again (``form`` by default; the admin's ``adminform`` is found
    alone). ``value``: the RegulationError, the API's JSON, or the form."""

    def __init__(
        self,
        code: str | None,
        *,
        article: Any = ANY,
        field: Any = ANY,
        nothing_recorded: bool = False,
        response: Any = None,
        status: int | None = None,
        consequence: bool = False,
        form: str = "form",
    ) -> None:
        self.code, self.article, self.field = code, article, field
        self.nothing_recorded = nothing_recorded
        self.value: Any = None
        self._events: int | None = None
        self.form_name = form
        if response is not None:
            self._check_response(response, status, consequence)

    # -- raised ---------------------------------------------------------------------------------

    def __enter__(self) -> assert_refused:
        if self.nothing_recorded:
            from audit.models import AuditEvent

            self._events = AuditEvent.objects.count()
        return self

    def __exit__(self, kind: Any, error: Any, traceback: Any) -> bool:
        from casino_ops.regulations import RegulationError

        if error is None:
            raise AssertionError(f"DID NOT RAISE RegulationError {self.code}")
        if not isinstance(error, RegulationError):
            return False  # any other error goes on as it is
        self.value = error
        self._check(error.as_dict(), error.code, error.article, error.field)
        if self._events is not None:
            from audit.models import AuditEvent

            assert AuditEvent.objects.count() == self._events, "the refused act recorded an event"
        return True

    # -- answered -------------------------------------------------------------------------------

    def _check_response(self, response: Any, status: int | None, consequence: bool) -> None:
        if response.get("Content-Type", "").startswith("application/json"):
            assert response.status_code == (status or 400), (response.status_code, response.content[:300])
            body = response.json()
            keys = set(body) - ({"consequence"} if consequence else set())
            assert keys == REFUSAL_KEYS, body
            self.value = body
            self._check(body, body["code"], body["article"], body["field"])
            return
        assert response.status_code == (status or 200), response.status_code
        context = response.context
        form = context["adminform"].form if "adminform" in context else context[self.form_name]
        self.value = form
        if self.code is not None:
            error = form.refused
            assert error is not None, form.errors
            self._check(error.as_dict(), error.code, error.article, error.field)
        elif self.field is not ANY:
            assert self.field in form.errors, form.errors
        else:
            assert form.errors, "the form was not refused"

    def _check(self, shown: Any, code: str, article: str, field: str | None) -> None:
        assert code == self.code, shown
        if self.article is not ANY:
            assert article == self.article, shown
        if self.field is not ANY:
            assert field == self.field, shown
