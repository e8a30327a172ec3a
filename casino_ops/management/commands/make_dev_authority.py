"""Create a demo supervising authority (its key and certificate) for the officers' enrolments."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _

from casino_ops.authority import fingerprint, load_certificate, make_dev_authority
from casino_ops.commands import DemoCommand


class Command(DemoCommand):
    requires_system_checks: list[str] = []  # usable before the database is set up
    demo_of = _("une autorité")
    help = (
        "DEMO: create DIR/authority-key.pem (the authority's key: a real one never sits on the "
        "casino's server) and DIR/authority.pem (its certificate), and print the settings lines; "
        "refused on a database that holds any act."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--out", required=True, type=Path, help="directory to write into")
        parser.add_argument("--name", default="Autorité de démonstration", help="the authority's name")

    def act(self, *args: Any, **options: Any) -> None:
        made = make_dev_authority(options["out"], name=options["name"])
        certificate = load_certificate(made.certificate.read_bytes())
        self.stderr.write(f"authority certificate SHA-256: {fingerprint(certificate)}")
        self.stdout.write(f"OFFICER_AUTHORITY_CERTIFICATE={made.certificate.resolve()}")
        self.stdout.write(f"OFFICER_AUTHORITY_DEMO_KEY={made.key.resolve()}")
