"""The blackjack rules engine: pure Python, no Django, no project import.

Replays hand logs of the format ``casino-hand-log/1`` under the French
(arrêté du 14 mai 2007, art. 55-4 and 55-5) and Luxembourg (règlement
grand-ducal du 12 février 1979, art. 32 and 33) profiles, and simulates
shoes for demonstrations, tests and benchmarks.

Entry points: :func:`replay` (validate and replay a parsed log),
:func:`validate`, :class:`Rejected`, and :mod:`.simulator`, :mod:`.cli`.
"""

from .parse import Rejected, validate
from .replay import replay, replay_valid

__all__ = ["Rejected", "replay", "replay_valid", "validate"]
