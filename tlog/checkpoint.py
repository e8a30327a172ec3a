"""Checkpoints (C2SP ``tlog-checkpoint`` v1.0.0) and the Merkle proofs checked against them.

A checkpoint's text is three lines: the log's origin, its tree size, the base64 root
hash (RFC 6962 §2.1: leaf ``SHA-256(0x00 || data)``, node ``SHA-256(0x01 || left ||
right)``, the empty tree's root ``SHA-256("")``), then optional extension lines.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

EMPTY_ROOT = hashlib.sha256(b"").digest()


class CheckpointError(ValueError):
    """A checkpoint's text that is not one."""


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return "".join(line + "\n" for line in lines)


def parse(text: str) -> Checkpoint:
    """A checkpoint's text (the note's text, signatures left out)."""
    if not text.endswith("\n"):
        raise CheckpointError("a checkpoint ends with a newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3 or any(not line for line in lines):
        raise CheckpointError("a checkpoint has at least three non-empty lines")
    origin, size_text, root_text = lines[:3]
    if not size_text.isascii() or not size_text.isdigit() or (size_text != "0" and size_text.startswith("0")):
        raise CheckpointError("the tree size is a decimal without leading zeroes")
    try:
        root = base64.b64decode(root_text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError) as error:
        raise CheckpointError("the root hash is not base64") from error
    if len(root) != 32:
        raise CheckpointError("the root hash is not 32 bytes")
    return Checkpoint(origin, int(size_text), root, tuple(lines[3:]))


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def verify_inclusion(index: int, size: int, leaf: bytes, path: Iterable[bytes], root: bytes) -> bool:
    """RFC 9162 §2.1.3.2."""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: list[bytes]
) -> bool:
    """RFC 9162 §2.1.4.2 (from a tree of ``first`` leaves to one of ``second``)."""
    if first < 0 or first > second:
        return False
    if first == 0:
        return not proof
    if first == second:
        return not proof and first_root == second_root
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == first_root and sr == second_root
