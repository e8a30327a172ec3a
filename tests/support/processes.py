"""The processes a test starts (a Celery worker, the sealer, a witness): stopped as a service
manager would stop them."""

from __future__ import annotations

import signal
import subprocess
from typing import Any


def stop_process(process: subprocess.Popen[Any], *, timeout: float = 30) -> None:
    """Asks ``process`` to stop (SIGTERM), kills it if it has not within ``timeout`` seconds."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
