"""A free TCP port on localhost, for the servers the tests start (a witness, a private
PostgreSQL cluster, the quick start's web server, a bench's gunicorn)."""

from __future__ import annotations

import socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
