"""The officers' app's registers and verifier are tested with the record's signing fixtures (a demo
certificate, the witness's directory, the outside tools' trust store): shared with tests/audit."""

from tests.audit.conftest import dev_cert, nss_db, signing_configured, witness  # noqa: F401
