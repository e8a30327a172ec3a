"""The Merkle tree of the audit record (RFC 9162 §2.1), its heads and its proofs.

Leaf ``i`` (from 0) is the event of sequence ``i + 1``; its bytes are the
event's canonical bytes (:func:`audit.chain.event_bytes`). Hashing is RFC 9162's:
``leaf = SHA-256(0x00 || bytes)``, ``node = SHA-256(0x01 || left || right)``,
and the head of ``n`` leaves is MTH(D[0:n]).

Each signed checkpoint carries the tree head over every event up to it. For
proofs to stay fast on a long record, the hashes of the perfect subtrees of
``2**STORE_LEVEL`` leaves and more are kept (table ``audit_merkle_node``,
append-only like the record; written when a checkpoint is made). A proof then
reads a few stored nodes and at most a few blocks of ``2**STORE_LEVEL`` events.
Nothing here is trusted by the officer: the offline verifier
(``inspection/verifier.py``) checks every proof against a signed tree head.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

# RFC 9162's hashing and inclusion check, one copy for the record and the authority's witness
from tlog.checkpoint import leaf_hash as leaf_hash
from tlog.checkpoint import node_hash as node_hash
from tlog.checkpoint import verify_inclusion as verify_inclusion

STORE_LEVEL = 8  # perfect subtrees of 256 leaves and more are stored
BLOCK = 1 << STORE_LEVEL
EMPTY_ROOT = hashlib.sha256(b"").digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root_of(leaves: list[bytes]) -> bytes:
    """MTH over leaf hashes, by the definition (for tests and small ranges)."""
    if not leaves:
        return EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return node_hash(root_of(leaves[:k]), root_of(leaves[k:]))


class TreeBuilder:
    """Builds the tree leaf by leaf in O(1) amortised hashes per leaf.

    Keeps the stack of the perfect subtrees of the leaves so far (their sizes
    are the binary digits of the count); collects the perfect subtrees of
    ``2**store_level`` leaves and more as (level, index, hash).
    """

    def __init__(
        self, store_level: int = STORE_LEVEL, *, collect_from: int = 0, roots_at: set[int] | None = None
    ) -> None:
        self.size = 0
        self._stack: list[tuple[int, bytes]] = []  # (level, hash), levels strictly decreasing
        self.store_level = store_level
        self.collect_from = collect_from  # collect only subtrees ending after this many leaves
        self.nodes: list[tuple[int, int, bytes]] = []
        self.roots_at = roots_at or set()  # sizes whose tree head to keep in ``roots``
        self.roots: dict[int, bytes] = {}

    def add(self, leaf: bytes) -> None:
        stack = self._stack
        level, digest = 0, leaf
        self.size += 1
        while stack and stack[-1][0] == level:
            digest = node_hash(stack.pop()[1], digest)
            level += 1
            if level >= self.store_level and self.size > self.collect_from:
                self.nodes.append((level, (self.size >> level) - 1, digest))
        stack.append((level, digest))
        if self.size in self.roots_at:
            self.roots[self.size] = self.root()

    def root(self) -> bytes:
        if not self._stack:
            return EMPTY_ROOT
        digest = self._stack[-1][1]
        for _level, left in reversed(self._stack[:-1]):
            digest = node_hash(left, digest)
        return digest


class Tree:
    """Subtree hashes of the record's tree from stored nodes and, below them, from events.

    ``stored(keys)`` returns the stored hashes of the given (level, index) nodes (a
    dict, missing ones left out); ``leaves(start, end)`` the leaf hashes of leaves
    ``start`` to ``end - 1``. A proof first lists the subtrees it needs, fetches
    the stored ones at once, then the few blocks of leaves below them.
    """

    def __init__(
        self,
        stored: Callable[[list[tuple[int, int]]], dict[tuple[int, int], bytes]],
        leaves: Callable[[int, int], list[bytes]],
        store_level: int = STORE_LEVEL,
        *,
        fetch: Callable[
            [list[tuple[int, int]], list[tuple[int, int]]],
            tuple[dict[tuple[int, int], bytes], dict[int, list[bytes]]],
        ]
        | None = None,
    ) -> None:
        self._stored = stored
        self._leaves = leaves
        self._fetch = fetch  # stored nodes and leaf ranges at once: (nodes, leaves by range start)
        self._nodes: dict[tuple[int, int], bytes | None] = {}
        self._blocks: dict[int, list[bytes]] = {}
        self.store_level = store_level

    def _leaf_range(self, start: int, end: int) -> list[bytes]:
        size = 1 << self.store_level
        out: list[bytes] = []
        block = start // size
        while block * size < end:
            if block not in self._blocks:
                lo = block * size
                self._blocks[block] = self._leaves(lo, lo + size)
            got = self._blocks[block]
            lo = block * size
            out.extend(got[max(start, lo) - lo : min(end, lo + size) - lo])
            block += 1
        if len(out) != end - start:
            raise LookupError(f"the record lacks leaves between {start} and {end}")
        return out

    def _node(self, level: int, index: int) -> bytes | None:
        key = (level, index)
        if key not in self._nodes:
            self._nodes[key] = self._stored([key]).get(key)
        return self._nodes[key]

    def _plan(self, start: int, end: int, keys: set[tuple[int, int]], blocks: set[int]) -> None:
        """The stored nodes and leaf blocks MTH(D[start:end]) reads, assuming the nodes stored."""
        n = end - start
        if n <= 0:
            return
        if n & (n - 1) == 0 and start % n == 0:
            level = n.bit_length() - 1
            if level >= self.store_level:
                keys.add((level, start >> level))
            else:
                blocks.add(start >> self.store_level)
            return
        k = _split(n)
        self._plan(start, start + k, keys, blocks)
        self._plan(start + k, end, keys, blocks)

    def prefetch(self, ranges: list[tuple[int, int]]) -> None:
        keys: set[tuple[int, int]] = set()
        blocks: set[int] = set()
        for start, end in ranges:
            self._plan(start, end, keys, blocks)
        wanted = [key for key in keys if key not in self._nodes]
        size = 1 << self.store_level
        spans = [(b * size, b * size + size) for b in sorted(blocks) if b not in self._blocks]
        if self._fetch is not None and (wanted or spans):
            found, leaves = self._fetch(wanted, spans)
            for lo, _hi in spans:
                self._blocks[lo >> self.store_level] = leaves.get(lo, [])
        elif wanted:
            found = self._stored(wanted)
        else:
            found = {}
        for key in wanted:
            self._nodes[key] = found.get(key)

    def mth(self, start: int, end: int) -> bytes:
        """MTH(D[start:end]) for a range of the RFC's recursion."""
        n = end - start
        if n <= 0:
            return EMPTY_ROOT
        if n & (n - 1) == 0 and start % n == 0:
            level = n.bit_length() - 1
            if level >= self.store_level:
                found = self._node(level, start >> level)
                if found is not None:
                    return found
            elif n <= (1 << self.store_level):
                return root_of(self._leaf_range(start, end))
        if n == 1:
            return self._leaf_range(start, end)[0]
        k = _split(n)
        return node_hash(self.mth(start, start + k), self.mth(start + k, end))

    @staticmethod
    def inclusion_ranges(index: int, size: int) -> list[tuple[int, int]]:
        """The subtrees of PATH(m, D[n]) (RFC 9162 §2.1.3.1), leaf to root."""
        if not 0 <= index < size:
            raise ValueError(f"leaf {index} is not in a tree of {size}")
        ranges: list[tuple[int, int]] = []
        start, end, m = 0, size, index
        while end - start > 1:
            k = _split(end - start)
            if m < k:
                ranges.append((start + k, end))
                end = start + k
            else:
                ranges.append((start, start + k))
                start, m = start + k, m - k
        ranges.reverse()
        return ranges

    @staticmethod
    def consistency_ranges(first: int, second: int) -> list[tuple[int, int]]:
        """The subtrees of PROOF(m, D[n]) (RFC 9162 §2.1.4.1), in the proof's order."""
        if not 0 < first <= second:
            raise ValueError(f"no consistency proof from {first} to {second}")
        if first == second:
            return []
        ranges: list[tuple[int, int]] = []
        start, n, m, complete = 0, second, first, True
        while m != n:
            k = _split(n)
            if m <= k:
                ranges.append((start + k, start + n))
                n = k
            else:
                ranges.append((start, start + k))
                start, n, m, complete = start + k, n - k, m - k, False
        if not complete:
            ranges.append((start, start + n))
        ranges.reverse()
        return ranges

    def hashes(self, ranges: list[tuple[int, int]]) -> list[bytes]:
        self.prefetch(ranges)
        return [self.mth(start, end) for start, end in ranges]

    def inclusion_path(self, index: int, size: int) -> list[bytes]:
        return self.hashes(self.inclusion_ranges(index, size))

    def consistency_proof(self, first: int, second: int) -> list[bytes]:
        return self.hashes(self.consistency_ranges(first, second))
