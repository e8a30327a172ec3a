"""The authority's side: sign an officer's enrolment (or its revocation) with the authority's key.

Run by the authority on its own machine, never on the casino's server: it reads the
authority's private key and writes a JSON document that the casino records with
``manage.py record_enrolment``. It touches no database.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from casino_ops import authority, passkeys
from casino_ops.commands import Writes


def _moment(text: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError as error:
        raise CommandError(f"{text!r}: not a date or a moment (YYYY-MM-DD or ISO 8601)") from error
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


class Command(BaseCommand):
    writes = Writes.NOTHING
    requires_system_checks: list[str] = []
    help = (
        "Sign an officer's enrolment for a casino (who, from/to, his passkey's credential id and "
        "COSE public key) with the authority's key; --revoke SERIAL signs a revocation instead."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--key", required=True, type=Path, help="the authority's private key (PEM)")
        parser.add_argument("--casino", required=True, help="the casino's identifier (its OFFICER_CASINO_ID)")
        parser.add_argument("--username", help="the officer's user name at the casino")
        parser.add_argument("--name", default="", help="the officer's full name")
        parser.add_argument("--from", dest="valid_from", help="in force from (default: now)")
        parser.add_argument("--to", dest="valid_to", help="in force until (default: a year on)")
        parser.add_argument("--rp-id", default="localhost", help="the casino's site (WebAuthn RP ID)")
        parser.add_argument("--credential-id", help="the passkey's credential id (base64url)")
        parser.add_argument("--public-key", help="the passkey's COSE public key (base64url)")
        parser.add_argument(
            "--demo-passkey",
            action="store_true",
            help="DEMO ONLY: enrol the published demo software passkey (docs/officers.md)",
        )
        parser.add_argument("--serial", default="", help="the enrolment's number (default: random)")
        parser.add_argument("--revoke", metavar="SERIAL", help="sign the revocation of this enrolment")
        parser.add_argument("--reason", default="", help="the revocation's reason")
        parser.add_argument("--out", type=Path, help="write the document here (default: print it)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            key = authority.load_key(options["key"])
        except (OSError, ValueError) as error:
            raise CommandError(f"--key: {error}") from error
        now = dt.datetime.now(dt.UTC)
        if options["revoke"]:
            document = authority.revocation(
                serial=options["revoke"], casino=options["casino"], at=now, reason=options["reason"]
            )
        else:
            if not options["username"]:
                raise CommandError("--username: the officer's user name is required")
            credential_id, public_key = options["credential_id"], options["public_key"]
            if options["demo_passkey"]:
                software = passkeys.SoftwarePasskey.demo()
                credential_id, public_key = software.credential_id, software.public_key
            if not credential_id or not public_key:
                raise CommandError("--credential-id and --public-key (or --demo-passkey) are required")
            valid_from = _moment(options["valid_from"]) if options["valid_from"] else now
            valid_to = (
                _moment(options["valid_to"]) if options["valid_to"] else valid_from + dt.timedelta(days=365)
            )
            if valid_to <= valid_from:
                raise CommandError("--to: the end comes after the start")
            try:
                passkeys.spki_of(public_key)
            except ValueError as error:
                raise CommandError(f"--public-key: {error}") from error
            document = authority.enrolment(
                username=options["username"],
                name=options["name"],
                casino=options["casino"],
                valid_from=valid_from,
                valid_to=valid_to,
                rp_id=options["rp_id"],
                credential_id=credential_id,
                public_key=public_key,
                serial=options["serial"] or secrets.token_hex(8),
                issued_at=now,
            )
        text = json.dumps(authority.sign(document, key), ensure_ascii=False, indent=2)
        if options["out"]:
            options["out"].write_text(text + "\n", encoding="utf-8")
            self.stderr.write(f"written: {options['out']}")
        else:
            self.stdout.write(text)
