"""The authority's witness (C2SP ``tlog-witness`` v1.0.0): cosigns the casinos' checkpoints.

Run by the supervising authority, apart from every casino: its own settings
(``witness.settings``), database (``WITNESS_DATABASE_URL``), key (``WITNESS_KEY``) and
process (``python -m witness``, a Django manage entry; ``witness.wsgi`` for gunicorn). It
imports nothing of the casino's apps, only the shared formats of :mod:`tlog`.

One witness serves many casinos, one row per log (:class:`witness.models.Log`, its origin and
the casino's note keys). ``POST /add-checkpoint`` (:mod:`witness.service`) verifies the
casino's signature, the consistency proof from the size it last cosigned, stores the new
size in the same transaction that checked the old one (the log's row locked), then answers
with an Ed25519 ``cosignature/v1`` carrying its own time. A refused request by a known,
authenticated log (409, 422) is kept as evidence (:class:`witness.models.Refusal`).
"""
