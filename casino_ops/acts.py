"""Each regulated act declared once, on its service: who may perform it, its input, its record.

A service function is declared with :func:`declare_act`::

    @declare_act(
        act=Act.SIGN_ADVANCE,
        action=Action.SESSION_ADVANCE_ADDED,
        schema=AdvanceInSerializer,
        article="advance.count_and_sign",
        refusals=(Refusal.ADVANCE_NOT_EQUAL, Refusal.SESSION_STATE),
        profile=lambda kwargs: kwargs["session"].profile,
    )
    @transaction.atomic
    def add_advance(*, actor, session, amount, counted_by): ...

The declaration (:class:`DeclaredAct`) says, once:

- ``act``: the :class:`casino_ops.access.Act` (or the acts, any of which will do) whose
  roles may perform it;
- ``action``: the code of its event in the audit chain (``audit.actions.Action``), or the
  codes of its events when it records one of several (a table put in or out of service);
- ``schema``: its input, a serializer with ``SafeSerializerMixin`` (the API's body);
- ``article``: the key in :mod:`casino_ops.regulations` of the article an input refused
  is refused under;
- ``refusals``: the refusals the act itself may raise (besides its gate's): members of
  :class:`casino_ops.refusals.Refusal`, or the code of a refusal of the access table
  (``"COUNTED_BY_STAFF"``); the declaration keeps their codes;
- ``gate``: the service's own ``access.require`` is the declaration's (the wrapper refuses
  whoever may not perform ``act`` before the body runs, with the act's code and article,
  and runs the checks every act by a person passes); ``False`` only where the service
  decides among several acts itself (the maximum: the director's, or his delegate's);
- ``gate_cites_article``: the gate's refusal cites the declaration's ``article`` rather than
  the access table's (the house books: one act, ``Act.HOUSE_BOOKS``, keeps them all, and a
  refusal cites the book's own article);
- ``gate=OfficerGate(code, what=…)``: the officers' gate. Only an officer of police or
  control performs the act (its ``act``: ``Act.VISA``, ``Act.CLOSE_INCIDENT``,
  ``Act.DEMAND_OPENING``); whoever else is refused with the gate's own code and wording, on
  the field ``officer``, under the declaration's ``article``. What the officer signs is
  checked by the service itself, once it knows the entry (:func:`casino_ops.officers.seal`:
  an enrolment in force and his passkey's signature over the statement).

The doors are derived from it: the API's act view (:class:`casino_ops.api.DeclaredActView`:
its ``act``, ``serializer_class`` and ``rule``) and the admin's act forms
(:class:`casino_ops.admin_acts.ActFormMixin.declared`: the acts a page or an "Ajouter" is
offered under), so that no door offers an act under another ``Act`` than its service requires.
Every declaration is in :data:`REGISTRY`, by the service's dotted name.

A new act needs no door written by hand: its declaration's ``route`` gives its API endpoint
(a :class:`casino_ops.api.DeclaredActView` made for it, under ``/api/acts/``) and its ``book``
the book's admin page, whose "Ajouter" is a form of the schema's fields calling the service
(:func:`casino_ops.admin_acts.register_declared_admins`); who may perform it, its event and
its refusals may be declared beside it too (``casino_ops.access.declare``,
``audit.actions.declare``, ``casino_ops.refusals.declare``). ``docs/development.md`` shows
the recipe.
"""

from __future__ import annotations

import functools
import pkgutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.apps import apps
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import access
from .access import Act
from .refusals import Refusal
from .regulations import cite
from .services import get_casino

F = TypeVar("F", bound=Callable[..., Any])

#: The officers' gate's wording, ``what`` the act is (``"viser un bon de commande"``).
OFFICER_ONLY = gettext_lazy("Seul un officier de police ou de contrôle peut %(what)s.")


@dataclass(frozen=True)
class OfficerGate:
    """The officers' gate of a declaration: whoever may not perform its act (an officer's) is
    refused with ``code``, worded ``message`` or "Seul un officier … peut ``what``.", on the
    field ``officer``, citing the declaration's article."""

    code: str
    what: Any = ""
    message: Any = ""

    def require(self, actor: Any, act: Act, article: str) -> None:
        text = str(self.message) if self.message else _(str(OFFICER_ONLY)) % {"what": self.what}
        access.require(actor, act, code=self.code, message=text, article=article, field="officer")


@dataclass(frozen=True)
class DeclaredAct:
    """One regulated act, as its service declares it (see the module's text)."""

    name: str
    service: Callable[..., Any]
    acts: tuple[Act, ...]
    actions: tuple[str, ...]
    schema: Any
    article: str
    refusals: tuple[str, ...]
    gate: bool
    gate_cites_article: bool = False
    officer_gate: OfficerGate | None = None
    #: its API endpoint, derived (``/api/acts/<route>``; "": none derived)
    route: str = ""
    #: the book it writes, whose admin "Ajouter" page is derived (None: none derived)
    book: Any = None

    @property
    def act(self) -> Act | tuple[Act, ...]:
        """The act, or the acts any of which will do (as a view's ``act`` names them)."""
        return self.acts[0] if len(self.acts) == 1 else self.acts


#: Every declared act, by its service's dotted name (``tables.services.sessions.add_advance``).
REGISTRY: dict[str, DeclaredAct] = {}


def declare_act(
    *,
    act: Act | tuple[Act, ...],
    action: str | tuple[str, ...],
    article: str,
    schema: Any = None,
    refusals: tuple[Refusal | str, ...] = (),
    gate: bool | OfficerGate = True,
    gate_cites_article: bool = False,
    profile: Callable[[Mapping[str, Any]], str] | None = None,
    route: str = "",
    book: Any = None,
) -> Callable[[F], F]:
    """Declare the service it decorates (see the module's text). ``profile`` reads the
    profile an act is judged under from the service's arguments (a séance's own), else
    the casino's. ``route`` and ``book`` ask for the doors derived from the declaration
    (:func:`casino_ops.api.declared_urls`, :func:`casino_ops.admin_acts.register_declared_admins`):
    the API's endpoint ``/api/acts/<route>`` taking the ``schema``'s body, and the book's admin
    page whose "Ajouter" is a form of the ``schema``'s fields."""
    acts = act if isinstance(act, tuple) else (act,)
    officer_gate = gate if isinstance(gate, OfficerGate) else None
    if not acts or not all(isinstance(a, Act) for a in acts):
        raise TypeError(f"declare_act: act must be an Act or a tuple of Acts, not {act!r}")
    if gate and len(acts) != 1:
        raise TypeError("declare_act: the declaration's gate requires one act (gate=False otherwise)")

    def decorate(function: F) -> F:
        name = f"{function.__module__}.{function.__name__}"

        @functools.wraps(function)
        def gated(*args: Any, **kwargs: Any) -> Any:
            if officer_gate is not None:
                actor = kwargs.get("actor")
                if not access.may(actor, acts[0]):  # the article is read only to word a refusal
                    judged = profile(kwargs) if profile is not None else None
                    officer_gate.require(actor, acts[0], cite(article, judged or get_casino().profile))
                access.require(actor, acts[0])  # the checks every act by a person passes
            elif gate:
                actor = kwargs.get("actor")
                # the casino's profile is read only to word a refusal (no query for an act allowed)
                judged = profile(kwargs) if profile is not None else None
                cited = None
                if gate_cites_article and not access.may(actor, acts[0]):
                    cited = cite(article, judged or get_casino().profile)
                access.require(actor, acts[0], profile=judged, article=cited)
            return function(*args, **kwargs)

        declared = DeclaredAct(
            name=name,
            service=gated,
            acts=acts,
            actions=tuple(str(a) for a in (action if isinstance(action, tuple) else (action,))),
            schema=schema,
            article=article,
            refusals=tuple(r.code if isinstance(r, Refusal) else r for r in refusals),
            gate=bool(gate),
            gate_cites_article=gate_cites_article,
            officer_gate=officer_gate,
            route=route,
            book=book,
        )
        gated.declaration = declared  # type: ignore[attr-defined]
        REGISTRY[name] = declared
        return cast(F, gated)

    return decorate


def declaration(service: Callable[..., Any]) -> DeclaredAct:
    """The declaration of a declared service (a service not declared is a programming error)."""
    declared = getattr(service, "declaration", None)
    if not isinstance(declared, DeclaredAct):
        raise TypeError(
            f"{getattr(service, '__qualname__', service)!r} is not a declared act (casino_ops.acts)"
        )
    return declared


def discover() -> None:
    """Import every installed app's services, each module of a ``services`` package too
    (Django's own discovery, as the admin's modules are found), so that every declaration is in
    :data:`REGISTRY` before the registries close (``inspection``'s ``ready()``): a service in a
    module of its own needs no line in its package's ``__init__``."""
    autodiscover_modules("services")
    for config in apps.get_app_configs():
        services = sys.modules.get(f"{config.name}.services")
        path = getattr(services, "__path__", None)
        if path is not None:
            autodiscover_modules(*(f"services.{info.name}" for info in pkgutil.iter_modules(path)))
