"""The officers' app's registers and verifier are tested with the record's signing fixtures (a demo
certificate, the witness's directory, the outside tools' trust store): shared with tests/audit."""

from tests.audit.conftest import casino_log, dev_cert, mock_tsa, nss_db, signing_configured, witness  # noqa: F401
