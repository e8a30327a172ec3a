"""What the tests share, and nothing a test module defines for itself:

- ``fixtures``: the people (``users``, one per role; ``make_user`` for anyone else with the roles
  a test gives him; ``director``, ``officer``…), their second factors (``devices``) and clients
  signed in (``director_client``, ``clients`` per role), a pytest plugin the root
  ``conftest.py`` loads;
- ``clients``: ``signed_in``, the one signed-in client for the admin, the portal and the API;
  a TOTP code, an officer's sign-in with his passkey;
- ``refusals``: ``assert_refused``, the one check of a refusal, raised by a service, answered by
  the API or shown on a form;
- ``builders``: the acts' set-up through the services (the depot's decks, a séance, a hand log),
  shared with the benches; ``depot_helpers``; ``guards`` and ``tampering`` (writing behind the
  books' and the record's guards); ``bank_failure`` and ``seance_hours`` (LU art. 11, 71);
- ``demo_rows`` (the demo seeded once a run), ``samples`` (the portal's samples, built once for a
  module), ``permission_matrix`` (who may do what at each URL, written out), ``browser`` and
  ``admin_screens`` (headless Chromium, axe-core), ``pages`` (a page's visible text),
  ``register_parts``, ``self_inspection`` (one check of the self-inspection at a time), ``absurd`` (the fuzzers' values), ``catalogue`` (the English .po);
- processes: ``celery_workers``, ``witness_process``, ``bench_runner``, ``ports``; and
  ``scheduling`` (the files' order under xdist).

No test module imports from another: what two of them need lives here
(``tests/test_support_package.py``)."""
