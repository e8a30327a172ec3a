"""PostgreSQL (psycopg 3) with writes deferred to the commit (see :mod:`.base`)."""
