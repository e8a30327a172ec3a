"""What the tests share, and nothing a test module defines for itself:

- ``fixtures``: the people (``users``, one per role; ``make_user`` for anyone else with the roles
  a test gives him; ``director``, ``officer``…) and clients signed in (``director_client``…), a
  pytest plugin the root ``conftest.py`` loads;
- ``clients.signed_in``: the one signed-in client, for the admin, the portal and the API;
- ``refusals.assert_refused``: the one check of a refusal, raised, answered by the API or shown
  on a form;
- ``builders``: the acts' set-up through the services (the depot's decks, a séance, a hand log),
  shared with the benches; ``depot_helpers``, ``guards`` (writing behind the books' guard);
- ``demo_rows`` (the demo seeded once a run), ``samples`` (the portal's samples, built once for a
  module), ``browser`` (the headless Chromium and axe-core), ``celery_workers``,
  ``witness_process``, ``bench_runner``, ``scheduling`` (the files' order under xdist).

No test module imports from another: what two of them need lives here
(``tests/test_support_package.py``)."""
