"""The bench's own app: one 6-field model per contender of bench/peers.py.

Installed only by bench.peer_models.settings (never by the project's settings).
"""
