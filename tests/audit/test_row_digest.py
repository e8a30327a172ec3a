"""The books check compares a row with the chain by :func:`audit.books.check.row_digest`: equal
values give equal digests, and values that differ in any way (their type, a digit, a character)
different ones, whichever encoding the row takes (JSON for texts, integers, booleans and nulls;
``repr`` for the rest)."""

from __future__ import annotations

import decimal
import itertools
import uuid

from audit.books.check import row_digest

MERSENNE_61 = 2**61 - 1

#: Rows that must all differ from one another, though Python's ``==`` or JSON would make some alike.
DIFFERENT = [
    (1,),
    (True,),
    (1.0,),
    ("1",),
    (None,),
    (float("nan"),),
    (float("inf"),),
    (float("-inf"),),
    (0.0,),
    (-0.0,),
    (0,),
    (False,),
    ("",),
    (-1,),
    (-2,),
    (5 + MERSENNE_61,),
    (5,),
    (2**64,),
    (float(2**64),),
    (-(2**63) - 1,),
    (decimal.Decimal("1.0"),),
    (decimal.Decimal("1.00"),),
    ("1.0",),
    (uuid.UUID(int=1),),
    (str(uuid.UUID(int=1)),),
    ("\ud800",),
    ("\ufffd",),
    ("a,b",),
    ("a", "b"),
    ("a", None),
    ("a",),
    ("null",),
    ("[1]",),
    ([1],),
    ((1,),),
    ({"a": 1},),
    ('"a"',),
    ("a\x1f",),
    ("é",),
    ("e\u0301",),
    (b"a",),
    ("a",) * 3,
    (1, "x", None, True, "2026-01-01T00:00:00.000000Z"),
    (1, "x", None, False, "2026-01-01T00:00:00.000000Z"),
]


def test_rows_that_differ_in_any_way_have_different_digests() -> None:
    digests = [row_digest(values) for values in DIFFERENT]
    for (a, da), (b, db) in itertools.combinations(zip(DIFFERENT, digests, strict=True), 2):
        assert da != db, (a, b)


def test_equal_rows_have_equal_digests_in_either_encoding() -> None:
    for values in DIFFERENT:
        again = tuple(
            decimal.Decimal(str(v)) if isinstance(v, decimal.Decimal) else v for v in values
        )  # equal values, other objects
        assert row_digest(again) == row_digest(values), values
    # A row as the chain's payload gives it and as the book's table gives it: one digest.
    assert row_digest(tuple({"a": "x", "b": 2, "c": None}.values())) == row_digest(("x", 2, None))
    assert row_digest((2**70, "x")) == row_digest((2**70, "x"))  # beyond 64 bits: repr


def test_a_row_of_texts_integers_booleans_and_nulls_is_digested_as_json_the_rest_by_repr() -> None:
    import hashlib

    import orjson

    assert row_digest(("x", 2, None, True)) == hashlib.sha256(b'["x",2,null,true]').digest()
    assert row_digest(("x", 2.5)) == hashlib.sha256(b"r" + repr(("x", 2.5)).encode()).digest()
    assert row_digest((2**64,)) == hashlib.sha256(b"r(18446744073709551616,)").digest()
    assert orjson.dumps((float("nan"),)) == orjson.dumps((None,))  # why floats take repr
