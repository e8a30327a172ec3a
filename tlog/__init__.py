"""Transparency-log formats of C2SP, in pure Python (the ``cryptography`` package for Ed25519).

Shared by the casino (``audit``) and the authority's witness (``witness``), which import
nothing else of each other; nothing of Django here. The specifications followed, with the
versions read (github.com/C2SP/C2SP):

- :mod:`tlog.note`: signed notes and verifier keys (``signed-note`` v1.0.0), Ed25519 note
  signatures (type 0x01) and Ed25519 ``cosignature/v1`` (type 0x04, ``tlog-cosignature``
  v1.0.1);
- :mod:`tlog.checkpoint`: checkpoints (``tlog-checkpoint`` v1.0.0) and the Merkle proofs
  they are checked with (RFC 6962 §2.1, the same hashing as RFC 9162 §2.1);
- :mod:`tlog.witness`: the ``add-checkpoint`` request and its answers (``tlog-witness``
  v1.0.0);
- :mod:`tlog.policy`: trust policies (``tlog-policy``, C2SP main as of commit 5ba5ee8);
- :mod:`tlog.proof`: offline proofs of inclusion (``tlog-proof`` ``c2sp.org/tlog-proof@v1``).
"""
