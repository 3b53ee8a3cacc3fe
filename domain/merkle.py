"""Merkle trees as RFC 9162 §2.1 (Certificate Transparency) hashes them: pure, no I/O.

A tree over the leaves ``D[0:n]`` (each leaf a byte string) has the Merkle Tree Hash

    MTH({})      = SHA-256()
    MTH({d0})    = SHA-256(0x00 ‖ d0)                       (a leaf hash)
    MTH(D[0:n])  = SHA-256(0x01 ‖ MTH(D[0:k]) ‖ MTH(D[k:n])) (a node hash)

where ``k`` is the largest power of two smaller than ``n``. Proofs and their verification
follow §2.1.3 (inclusion: the audit path of one leaf) and §2.1.4 (consistency: that the tree
of ``m`` leaves is a prefix of the tree of ``n``). Everything here takes *leaf hashes*, so a
caller that stores them (api/transparency) never re-reads the leaves themselves.

The log also keeps a *frontier* (a compact range from 0 to ``n``): the roots of the perfect
subtrees the binary decomposition of ``n`` splits the tree into, largest first. Appending a
leaf updates it in O(log n) hashes, and folding it from the right gives ``MTH``: the log's
root is known after every append without reading every leaf.

The test vectors of transparency-dev/merkle (tests/domain/test_merkle.py) check all of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final

#: the root of the empty tree: SHA-256 of nothing
EMPTY_ROOT: Final = hashlib.sha256(b"").digest()
HASH_SIZE: Final = 32


def leaf_hash(leaf: bytes) -> bytes:
    """SHA-256(0x00 ‖ leaf)."""
    return hashlib.sha256(b"\x00" + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 ‖ left ‖ right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(hashes: Sequence[bytes]) -> bytes:
    """MTH of the leaves whose leaf hashes are ``hashes``.

    Computed level by level, an odd last node moving up unchanged: that builds the same tree
    as the recursive definition (its right subtrees are the ones left over at each level).
    """
    if not hashes:
        return EMPTY_ROOT
    level = list(hashes)
    while len(level) > 1:
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def inclusion_proof(index: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PATH(index, D[0:n]) of RFC 9162 §2.1.3.1: the audit path of leaf ``index``."""
    if not 0 <= index < len(hashes):
        raise ValueError(f"leaf {index} is not in a tree of {len(hashes)} leaves")
    path: list[bytes] = []
    lo, hi = 0, len(hashes)
    # walk down from the root, collecting the sibling subtree at each step (then reverse:
    # the path lists siblings from the leaf up)
    while hi - lo > 1:
        k = _split(hi - lo)
        if index - lo < k:
            path.append(root(hashes[lo + k : hi]))
            hi = lo + k
        else:
            path.append(root(hashes[lo : lo + k]))
            lo = lo + k
    path.reverse()
    return path


def consistency_proof(size1: int, hashes: Sequence[bytes]) -> list[bytes]:
    """PROOF(size1, D[0:n]) of RFC 9162 §2.1.4.1: that the first ``size1`` leaves' tree is a
    prefix of this one. Empty when ``size1`` is 0 or ``n``."""
    n = len(hashes)
    if not 0 <= size1 <= n:
        raise ValueError(f"a tree of {n} leaves has no prefix of {size1}")
    if size1 in (0, n):
        return []
    return _subproof(size1, hashes, 0, n, True)


def _subproof(m: int, hashes: Sequence[bytes], lo: int, hi: int, whole: bool) -> list[bytes]:
    """SUBPROOF(m, D[lo:hi], whole) of RFC 9162 §2.1.4.1."""
    n = hi - lo
    if m == n:
        return [] if whole else [root(hashes[lo:hi])]
    k = _split(n)
    if m <= k:
        return _subproof(m, hashes, lo, lo + k, whole) + [root(hashes[lo + k : hi])]
    return _subproof(m - k, hashes, lo + k, hi, False) + [root(hashes[lo : lo + k])]


def verify_inclusion(
    index: int, size: int, leaf: bytes, proof: Sequence[bytes], expected_root: bytes
) -> bool:
    """Whether ``proof`` shows the leaf hash ``leaf`` at ``index`` in the tree of ``size``
    leaves whose root is ``expected_root`` (RFC 9162 §2.1.3.2, step for step)."""
    if not 0 <= index < size or len(leaf) != HASH_SIZE:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0 or len(p) != HASH_SIZE:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected_root


def verify_consistency(
    size1: int, size2: int, proof: Sequence[bytes], root1: bytes, root2: bytes
) -> bool:
    """Whether ``proof`` shows the tree of ``size1`` leaves with root ``root1`` to be a prefix
    of the tree of ``size2`` leaves with root ``root2`` (RFC 9162 §2.1.4.2, step for step;
    the cases the algorithm leaves out, ``size1`` of 0 or equal to ``size2``, need an empty
    proof, and equal roots for equal sizes)."""
    if not 0 <= size1 <= size2:
        return False
    if size1 == size2:
        return not proof and root1 == root2
    if size1 == 0:
        return not proof
    if not proof or any(len(c) != HASH_SIZE for c in proof):
        return False
    path = list(proof)
    if size1 & (size1 - 1) == 0:  # an exact power of two: its root is a node of the new tree
        path.insert(0, root1)
    fn, sn = size1 - 1, size2 - 1
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
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return sn == 0 and fr == root1 and sr == root2


# --- the frontier: the log's root after each append, in O(log n) ------------------------


def frontier_append(frontier: Sequence[bytes], size: int, leaf: bytes) -> list[bytes]:
    """The frontier of the tree of ``size + 1`` leaves, from that of ``size`` leaves and the
    new leaf's hash: perfect subtrees of equal size merge, as binary addition carries."""
    if len(frontier) != size.bit_count():
        raise ValueError(f"a frontier of {len(frontier)} subtrees is not one of {size} leaves")
    merged = list(frontier)
    carry = leaf
    while size & 1:
        carry = node_hash(merged.pop(), carry)
        size >>= 1
    merged.append(carry)
    return merged


def frontier_root(frontier: Sequence[bytes]) -> bytes:
    """MTH of the tree the frontier describes."""
    if not frontier:
        return EMPTY_ROOT
    r = frontier[-1]
    for subtree in reversed(frontier[:-1]):
        r = node_hash(subtree, r)
    return r


def frontier_of(hashes: Sequence[bytes]) -> list[bytes]:
    """The frontier of the tree over ``hashes`` (its perfect subtrees' roots, largest first)."""
    subtrees: list[bytes] = []
    lo, n = 0, len(hashes)
    while lo < n:
        width = 1 << ((n - lo).bit_length() - 1)
        subtrees.append(root(hashes[lo : lo + width]))
        lo += width
    return subtrees
