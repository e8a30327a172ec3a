from tests.support.witness_process import second_witness_server, witness_server  # noqa: F401  # fixtures
