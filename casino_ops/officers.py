"""Officers: enrolled by the authority, their acts signed with their own passkey.

**Enrolment.** An officer is a user in the group ``officier`` *and* with an enrolment in force:
a document the supervising authority signed (:mod:`casino_ops.authority`) naming him, this
casino (``OFFICER_CASINO_ID``), the period and his passkey. Without one in force (none, not
yet, expired, revoked) he holds no officer's role (:func:`casino_ops.roles.roles_of`), so the
casino's administrators cannot make, extend or re-key an officer: the group alone gives
nothing, and the document cannot be changed without breaking the authority's signature.

**Signed acts.** Every act of an officer (visas and stamps, incident closures, cabinet
demands) carries a *statement* of exactly what is stamped: the act, the entry (its model and
key), the officer's own inputs (remark, finding…), who, under which enrolment, a nonce and the
time. Its SHA-256 is the challenge the officer's authenticator signs (a WebAuthn assertion).
The service checks the assertion against the enrolled key before recording (:func:`seal`),
and the act's audit event keeps statement and assertion (``payload["officer_signature"]``),
so that the chain binds them and ``verify_audit`` checks them again against the enrolment
(:func:`signature_problem`). The casino's keys cannot make such a signature: a visa the
casino's server wrote by itself, or moved to another entry, is named as forged.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from cryptography import x509
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import checks
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from casino_ops.refusals import Refusal

from . import authority, passkeys, roles
from .models import OfficerChallenge, OfficerEnrolment
from .services import get_casino

SIGNATURE_KEY = "officer_signature"
# A statement is signed within this delay of its making (the officer's page, then his touch).
STATEMENT_LIFETIME = dt.timedelta(minutes=15)

# The officer's acts (their audit action codes) and the inputs of each that the officer
# signs besides the entry (the keys of the event's payload).
SIGNED_ACTS: dict[str, tuple[str, ...]] = {
    "depot.order_stamped": ("remark",),
    "depot.reception_stamped": ("remark",),
    "depot.destruction_stamped": ("remark",),
    "depot.maker_approval_stamped": ("remark",),
    "depot.sixain_cap_stamped": ("remark",),
    "depot.incident_closed": ("finding", "fit", "out_of_use"),
    "depot.opening_demanded": ("reason",),
    "control_register.day_stamped": ("remark",),
    "authorised_minimum.stamped": (),
    "house.closing_stamped": ("remark",),
}


def casino_id() -> str:
    """This casino's identifier at the authority (the enrolments name it)."""
    return str(getattr(settings, "OFFICER_CASINO_ID", "") or "")


def rp_id() -> str:
    """The WebAuthn RP ID of the casino's site (the host officers sign in on)."""
    return str(getattr(settings, "OFFICER_RP_ID", "") or "localhost")


def _profile(profile: str | None) -> str:
    return profile if profile is not None else get_casino().profile


# -- enrolments ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Enrolment:
    """An enrolment read from its signed document."""

    serial: str
    casino: str
    username: str
    name: str
    valid_from: dt.datetime
    valid_to: dt.datetime
    rp_id: str
    credential_id: str
    public_key: str

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> Enrolment:
        if document.get("kind") != authority.ENROLMENT:
            raise authority.DocumentInvalid("not an enrolment")
        try:
            officer = document["officer"]
            return cls(
                serial=str(document["serial"]),
                casino=str(document["casino"]),
                username=str(officer["username"]),
                name=str(officer.get("name", "")),
                valid_from=authority.parse_moment(document["valid_from"]),
                valid_to=authority.parse_moment(document["valid_to"]),
                rp_id=str(document["rp_id"]),
                credential_id=str(document["credential_id"]),
                public_key=str(document["public_key"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise authority.DocumentInvalid(f"an enrolment's field is missing or wrong: {error}") from error

    def in_force(self, at: dt.datetime, revoked_at: dt.datetime | None = None) -> bool:
        return self.valid_from <= at < self.valid_to and (revoked_at is None or at < revoked_at)


def read_enrolment(text: str, certificate: x509.Certificate | None) -> Enrolment:
    """The enrolment of a stored document, its signature checked (DocumentInvalid otherwise)."""
    if certificate is None:
        raise authority.DocumentInvalid("no certificate of the authority is configured")
    try:
        document = json.loads(text)
    except ValueError as error:
        raise authority.DocumentInvalid("not JSON") from error
    return Enrolment.from_document(authority.verify(document, certificate))


def read_revocation(text: str, certificate: x509.Certificate | None) -> dt.datetime | None:
    """The moment a stored revocation takes effect (None when there is none or it is not the
    authority's: a revocation cannot be undone by spoiling it, see :func:`enrolment_in_force`)."""
    if not text or certificate is None:
        return None
    try:
        document = authority.verify(json.loads(text), certificate)
        return authority.parse_moment(document["at"])
    except (ValueError, KeyError, TypeError):
        return None


def enrolment_in_force(user: Any, at: dt.datetime | None = None) -> Any:
    """``user``'s enrolment (the model's row) in force at ``at`` (now), its document signed by
    the authority for this casino and naming him; else None. A row marked revoked stops him,
    whatever its revocation holds."""
    if user is None or not getattr(user, "pk", None):
        return None
    at = at or timezone.now()
    certificate = authority.configured_certificate()
    # The session's device (django-otp's middleware loaded it) is the enrolment he signed in
    # under: checked as any other, without a query.
    device = getattr(user, "otp_device", None)
    if isinstance(device, OfficerEnrolment) and device.user_id == user.pk and device.revoked_at is None:
        rows: Any = [device]
    else:
        rows = OfficerEnrolment.objects.filter(
            user_id=user.pk, valid_from__lte=at, valid_to__gt=at, revoked_at__isnull=True
        ).order_by("-valid_from", "-pk")
    for row in rows:
        try:
            enrolment = read_enrolment(row.document, certificate)
        except authority.DocumentInvalid:
            continue
        if (
            enrolment.in_force(at)
            and enrolment.casino == casino_id()
            and enrolment.username == user.get_username()
            and enrolment.serial == row.serial
        ):
            row.enrolment = enrolment
            return row
    return None


def import_document(document: dict[str, Any], *, profile: str | None = None) -> tuple[Any, str]:
    """Record an enrolment or a revocation the authority signed (the casino's side): returns the
    enrolment's row and ``"enrolled"``, ``"revoked"`` or ``"already"``. Refused unless the
    authority's certificate verifies it and it names this casino. An enrolment makes the user
    (named by the document) if he does not exist yet, and puts him in the officers' group; a
    user who is casino staff or superuser is refused (no one is two of these)."""
    certificate = authority.configured_certificate()
    if certificate is None:
        raise Refusal.AUTHORITY_NOT_CONFIGURED.error(_profile(profile))
    try:
        authority.verify(document, certificate)
    except authority.DocumentInvalid as error:
        raise Refusal.ENROLMENT_NOT_SIGNED.error(
            _profile(profile),
            message=_("Document : la signature de l'autorité ne le vérifie pas (%(why)s)."),
            why=error,
        ) from error
    if document.get("casino") != casino_id():
        raise Refusal.ENROLMENT_OTHER_CASINO.error(
            _profile(profile), other=document.get("casino"), this=casino_id()
        )
    text = json.dumps(document, sort_keys=True, ensure_ascii=False)
    now = timezone.now()
    if document["kind"] == authority.REVOCATION:
        row = OfficerEnrolment.objects.select_for_update().filter(serial=str(document.get("serial"))).first()
        if row is None:
            raise Refusal.ENROLMENT_UNKNOWN.error(_profile(profile), serial=document.get("serial"))
        if row.revoked_at is not None:
            return row, "already"
        try:
            at = authority.parse_moment(document.get("at"))
        except (authority.DocumentInvalid, ValueError):
            at = now
        row.revoked_at = min(at, now)
        row.revocation = text
        row.confirmed = False
        row.save(update_fields=["revoked_at", "revocation", "confirmed"])
        return row, "revoked"
    try:
        enrolment = Enrolment.from_document(document)
        if document.get("public_key_spki") != passkeys.spki_of(enrolment.public_key):
            raise authority.DocumentInvalid("its two forms of the public key differ")
    except (authority.DocumentInvalid, ValueError) as error:
        raise Refusal.ENROLMENT_NOT_SIGNED.error(_profile(profile), why=error) from error
    existing = OfficerEnrolment.objects.filter(serial=enrolment.serial).first()
    if existing is not None:
        return existing, "already"
    User = get_user_model()
    user, _created = User.objects.get_or_create(username=enrolment.username)
    if user.is_superuser or user.is_staff or roles.roles_of(user) - {roles.OFFICER}:
        raise Refusal.OFFICER_IS_STAFF.error(_profile(profile), user=enrolment.username)
    if _created:
        user.set_unusable_password()
    names = enrolment.name.split(" ", 1)
    user.first_name = names[0][:150]
    user.last_name = (names[1] if len(names) > 1 else "")[:150]
    user.save()
    user.groups.add(Group.objects.get(name=roles.OFFICER))
    row = OfficerEnrolment.objects.create(
        user=user,
        name=_("Clé d'accès")[:64],
        confirmed=True,
        serial=enrolment.serial,
        casino=enrolment.casino,
        valid_from=enrolment.valid_from,
        valid_to=enrolment.valid_to,
        rp_id=enrolment.rp_id,
        credential_id=enrolment.credential_id,
        document=text,
        imported_at=now,
    )
    return row, "enrolled"


# -- signed acts --------------------------------------------------------------------------------


def canonical(statement: dict[str, Any]) -> bytes:
    return json.dumps(
        statement, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
    ).encode()


def challenge_of(statement: dict[str, Any]) -> bytes:
    """What the officer's authenticator signs: the SHA-256 of the statement."""
    return hashlib.sha256(canonical(statement)).digest()


def _plain(value: Any) -> Any:
    """A value as the event's payload keeps it (JSON)."""
    return json.loads(json.dumps(value, default=str))


def statement(
    *, officer: Any, act: str, target: str, fields: dict[str, Any], enrolment_serial: str
) -> dict[str, Any]:
    """What an officer signs for ``act`` on ``target`` (``"app.model:pk"``, ``""`` for a new
    entry of his own) with his ``fields``."""
    return {
        "kind": "officer-act",
        "casino": casino_id(),
        "act": act,
        "target": target,
        "fields": _plain(fields),
        "officer": officer.get_username(),
        "enrolment": enrolment_serial,
        "nonce": secrets.token_hex(16),
        "issued_at": timezone.now().isoformat(),
    }


def target_of(obj: Any) -> str:
    return f"{obj._meta.label_lower}:{obj.pk}" if obj is not None else ""


@dataclass(frozen=True)
class OfficerSignature:
    """A statement and the assertion the officer's authenticator made over it."""

    statement: dict[str, Any]
    assertion: dict[str, Any]

    def as_payload(self) -> dict[str, Any]:
        return {"statement": self.statement, "assertion": self.assertion}


def prepare(*, officer: Any, act: str, target: Any, fields: dict[str, Any]) -> dict[str, Any]:
    """The statement for the officer's page to have signed (refused without an enrolment in force)."""
    enrolment = enrolment_in_force(officer)
    if enrolment is None:
        raise Refusal.OFFICER_NOT_ENROLLED.error(
            _profile(None), message=_("Aucune habilitation de l'autorité n'est en vigueur pour vous.")
        )
    return statement(
        officer=officer, act=act, target=target_of(target), fields=fields, enrolment_serial=enrolment.serial
    )


def signature_problem(
    signature: Any,
    *,
    act: str,
    target: str,
    officer: str,
    payload: dict[str, Any],
    enrolment_text: str | None,
    revocation_text: str = "",
    certificate: x509.Certificate | None,
    casino: str | None = None,
    origins: list[str] | None = None,
) -> str | None:
    """Why ``signature`` (the stored ``{"statement", "assertion"}``) is not ``officer``'s over
    this act (``act`` on ``target``, its ``payload``); None when it is. ``target`` ``""``: the
    act's own new entry. Shared by the services (before recording) and ``verify_audit``."""
    if not isinstance(signature, dict) or not isinstance(signature.get("statement"), dict):
        return "no signature of the officer"
    said = signature["statement"]
    if said.get("kind") != "officer-act" or said.get("act") != act:
        return f"the officer signed {said.get('act')!r}, not this act"
    if said.get("target", "") != target:
        return f"the officer signed {said.get('target')!r}, not {target!r}"
    if said.get("officer") != officer:
        return f"signed by {said.get('officer')!r}, not by {officer!r}"
    if casino is not None and said.get("casino") != casino:
        return f"signed for the casino {said.get('casino')!r}"
    fields = said.get("fields")
    wanted = SIGNED_ACTS.get(act, ())
    if not isinstance(fields, dict) or set(fields) != set(wanted):
        return "the signed fields are not the act's"
    for key in wanted:
        if _plain(payload.get(key)) != fields[key]:
            return f"{key}: the act records {payload.get(key)!r}, the officer signed {fields[key]!r}"
    if enrolment_text is None:
        return f"no enrolment n° {said.get('enrolment')!r} is recorded"
    try:
        enrolment = read_enrolment(enrolment_text, certificate)
        issued = authority.parse_moment(said.get("issued_at"))
    except (authority.DocumentInvalid, ValueError) as error:
        return f"the enrolment is not the authority's ({error})"
    if enrolment.serial != said.get("enrolment") or enrolment.username != officer:
        return "the enrolment is not the signer's"
    if not enrolment.in_force(issued, read_revocation(revocation_text, certificate)):
        return f"the enrolment n° {enrolment.serial} was not in force at {issued.isoformat()}"
    try:
        passkeys.check_assertion(
            signature.get("assertion") or {},
            challenge=challenge_of(said),
            rp_id=enrolment.rp_id,
            credential_id=enrolment.credential_id,
            public_key=enrolment.public_key,
            origins=origins,
        )
    except passkeys.AssertionInvalid as error:
        return f"the passkey's signature does not verify ({error})"
    return None


_demo_signing: ContextVar[bool] = ContextVar("demo_signing", default=False)


@contextmanager
def demo_signing() -> Iterator[None]:
    """DEMO ONLY: within, the demo's software passkey signs the acts of an officer enrolled
    with it (``seed_demo`` stamps the demo's books so)."""
    token = _demo_signing.set(True)
    try:
        yield
    finally:
        _demo_signing.reset(token)


def _demo_signature(
    officer: Any, enrolment: Any, act: str, target: str, fields: dict[str, Any]
) -> OfficerSignature | None:
    """DEMO ONLY (``OFFICER_DEMO_PASSKEY`` or :func:`demo_signing`): the demo's software passkey
    signs on the server, for an officer enrolled with it, when no authenticator did."""
    if not (getattr(settings, "OFFICER_DEMO_PASSKEY", False) or _demo_signing.get()):
        return None
    software = passkeys.SoftwarePasskey.demo()
    if enrolment.credential_id != software.credential_id:
        return None
    said = statement(
        officer=officer, act=act, target=target, fields=fields, enrolment_serial=enrolment.serial
    )
    origin = f"https://{enrolment.rp_id}"
    return OfficerSignature(said, software.assert_(challenge_of(said), rp_id=enrolment.rp_id, origin=origin))


def seal(
    *,
    officer: Any,
    act: str,
    target: Any,
    fields: dict[str, Any],
    signature: OfficerSignature | None,
    profile: str | None = None,
) -> dict[str, Any]:
    """Check the officer's signature over this act before it is recorded; returns what the act's
    audit event keeps under ``payload["officer_signature"]``. Refused (a RegulationError on
    ``officer_signature``) without an enrolment in force, without a signature, with one over
    anything else, by another key, too old, or already used."""
    enrolment = enrolment_in_force(officer)
    if enrolment is None:
        raise Refusal.OFFICER_NOT_ENROLLED.error(_profile(profile))
    target_text = target_of(target)
    if signature is None:
        signature = _demo_signature(officer, enrolment, act, target_text, fields)
    if signature is None:
        raise Refusal.OFFICER_SIGNATURE_REQUIRED.error(_profile(profile))
    payload = {key: _plain(value) for key, value in fields.items()}
    origins = list(getattr(settings, "OFFICER_WEBAUTHN_ORIGINS", []) or []) or None
    problem = signature_problem(
        signature.as_payload(),
        act=act,
        target=target_text,
        officer=officer.get_username(),
        payload=payload,
        enrolment_text=enrolment.document,
        certificate=authority.configured_certificate(),
        casino=casino_id(),
        origins=origins,
    )
    if problem is None:
        issued = authority.parse_moment(signature.statement.get("issued_at"))
        if not (timezone.now() - STATEMENT_LIFETIME <= issued <= timezone.now() + dt.timedelta(minutes=1)):
            problem = "the statement is too old"
    if problem is not None:
        raise Refusal.OFFICER_SIGNATURE_INVALID.error(_profile(profile), why=problem)
    try:
        with transaction.atomic():
            OfficerChallenge.objects.create(digest=challenge_of(signature.statement).hex(), at=timezone.now())
    except IntegrityError as error:
        raise Refusal.OFFICER_SIGNATURE_REPLAYED.error(_profile(profile)) from error
    return signature.as_payload()


def check_officers_configured(app_configs: Any = None, **kwargs: Any) -> list[Any]:
    """``check --deploy``: outside DEBUG the authority's certificate and this casino's identifier
    are set (without them no officer can be enrolled), and no demo key or demo passkey is used."""
    errors: list[Any] = []
    if settings.DEBUG:
        return errors
    path = getattr(settings, "OFFICER_AUTHORITY_CERTIFICATE", "")
    if not path:
        errors.append(
            checks.Error(
                "OFFICER_AUTHORITY_CERTIFICATE is unset while DEBUG is off: no officer can be enrolled.",
                hint="Set it to the PEM certificate of the supervising authority (docs/officers.md).",
                id="casino_ops.E101",
            )
        )
    else:
        try:
            authority.configured_certificate()
        except (OSError, ValueError) as error:
            errors.append(
                checks.Error(f"OFFICER_AUTHORITY_CERTIFICATE cannot be read: {error}", id="casino_ops.E102")
            )
    if not casino_id():
        errors.append(
            checks.Error(
                "OFFICER_CASINO_ID is unset while DEBUG is off: the enrolments name the casino by it.",
                id="casino_ops.E103",
            )
        )
    if getattr(settings, "OFFICER_AUTHORITY_DEMO_KEY", "") or getattr(
        settings, "OFFICER_DEMO_PASSKEY", False
    ):
        errors.append(
            checks.Error(
                "OFFICER_AUTHORITY_DEMO_KEY or OFFICER_DEMO_PASSKEY is set while DEBUG is off: demo only.",
                hint="The authority's key never sits on the casino's server; officers sign with their own passkeys.",
                id="casino_ops.E104",
            )
        )
    return errors
