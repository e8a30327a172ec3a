"""The registers' fixtures: the casino's log at the witness (its proof is in a register's PDF)."""

from tests.audit.conftest import casino_log  # noqa: F401  # the fixture
from tests.support.witness_process import witness_server  # noqa: F401  # the fixture
