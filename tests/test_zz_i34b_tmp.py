from casino_ops.inspection import inspect


def test_lu(lu_demo):
    print("\nLUBREACHES", [(b.check, b.detail) for b in inspect().breaches])


def test_fr(demo):
    print("\nFRBREACHES", [(b.check, b.detail) for b in inspect().breaches])
