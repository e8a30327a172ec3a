"""The officers' app's registers and verifier are tested with the record's signing fixtures (a demo
certificate, the witness's directory, the outside tools' trust store, the casino's log at the
witness, a time-stamp server): shared with tests/audit."""

from tests.audit.conftest import casino_log, dev_cert, mock_tsa, nss_db, signing_configured, witness  # noqa: F401
from tests.support.witness_process import witness_server  # noqa: F401  # the fixture
