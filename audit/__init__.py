"""The audit app: the hash-chained record of every regulated act (the officers'
side, which reads it, is the app ``inspection``).

``audit.record(actor=..., action=..., obj=..., payload=...)`` is the one way a
regulated act is written to the record (see :mod:`audit.chain`).
"""

from typing import Any


def record(**kwargs: Any) -> Any:
    """Record one regulated act in the caller's transaction (see audit.chain.record)."""
    from .chain import record as _record  # cycle: the chain imports the models, not loaded with the package

    return _record(**kwargs)
