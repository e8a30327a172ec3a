"""The officers' side: the signed registers, the officers' portal and read-only API,
the offline verifier, and the tasks and commands that make registers and run the
self-inspection.

It reads the record (:mod:`audit`) and the apps (the depot, the tables, the house
books) through their selectors, and acts through their services; nothing below
imports it (``casino_ops/urls.py``, the composition root, mounts its URLs).
"""
