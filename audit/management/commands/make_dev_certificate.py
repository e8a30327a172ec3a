"""Create a demo CA and signing certificate for the registers and checkpoints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _

from audit.devcert import make_dev_certificate
from casino_ops.commands import DemoCommand
from casino_ops.models import CasinoSettings


class Command(DemoCommand):
    requires_system_checks: list[str] = []  # usable before the database is set up
    demo_of = _("un certificat de signature")
    help = (
        "Create DIR/ca.pem and DIR/signer.p12 (a demo CA and the casino's signing certificate, "
        "non-repudiation) and print the SIGNING_PKCS12 and SIGNING_PKCS12_PASSWORD lines to use them. "
        "DEMO ONLY: refused on a database that holds any act."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--out", required=True, type=Path, help="directory to write into")
        parser.add_argument("--casino", default="", help="name in the certificates (default: the casino's)")
        parser.add_argument("--password", default=None, help="PKCS#12 password (default: random)")

    def act(self, *args: Any, **options: Any) -> None:
        casino = options["casino"]
        if not casino:
            try:
                casino = CasinoSettings.objects.values_list("name", flat=True).first() or "Casino"
            except Exception:  # no database yet: a neutral name will do
                casino = "Casino"
        made = make_dev_certificate(options["out"], casino=casino, password=options["password"])
        self.stderr.write(f"CA: {made.ca_pem}  (give it to pdfsig / pyhanko --trust)")
        self.stdout.write(f"SIGNING_PKCS12={made.pkcs12.resolve()}")
        self.stdout.write(f"SIGNING_PKCS12_PASSWORD={made.password}")
