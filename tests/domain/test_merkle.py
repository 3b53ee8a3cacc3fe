"""The log's Merkle tree against published RFC 6962/9162 test vectors, and by properties.

The vectors (data, not code) are those of transparency-dev/merkle, ``proof/verify_test.go``
(``leaves``, ``roots``, ``inclusionProofs``, ``consistencyProofs``): the eight leaves of the
reference tree of RFC 6962's test suite, the root of each prefix, and audit paths. The leaf
numbers of ``inclusionProofs`` there count from 1; here from 0.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import merkle

LEAVES = [
    bytes.fromhex(h)
    for h in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
ROOTS = [
    bytes.fromhex(h)
    for h in (
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    )
]


def _h(*hexes: str) -> list[bytes]:
    return [bytes.fromhex(h) for h in hexes]


#: (leaf index from 0, tree size, audit path)
INCLUSION = [
    (0, 1, []),
    (
        0,
        8,
        _h(
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ),
    ),
    (
        5,
        8,
        _h(
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ),
    ),
    (2, 3, _h("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125")),
    (
        1,
        5,
        _h(
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ),
    ),
]

#: (size1, size2, consistency proof)
CONSISTENCY = [
    (1, 1, []),
    (
        1,
        8,
        _h(
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ),
    ),
    (
        6,
        8,
        _h(
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ),
    ),
    (
        2,
        5,
        _h(
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ),
    ),
    (
        6,
        7,
        _h(
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ),
    ),
]

HASHES = [merkle.leaf_hash(d) for d in LEAVES]


def test_the_empty_tree_hashes_to_sha256_of_nothing() -> None:
    assert merkle.EMPTY_ROOT.hex() == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    )
    assert merkle.root([]) == merkle.EMPTY_ROOT


@pytest.mark.parametrize("size", range(1, 9))
def test_every_prefix_has_the_published_root(size: int) -> None:
    assert merkle.root(HASHES[:size]) == ROOTS[size - 1]
    assert merkle.frontier_root(merkle.frontier_of(HASHES[:size])) == ROOTS[size - 1]


def test_the_frontier_appended_leaf_by_leaf_has_every_published_root() -> None:
    frontier: list[bytes] = []
    for size, h in enumerate(HASHES):
        frontier = merkle.frontier_append(frontier, size, h)
        assert merkle.frontier_root(frontier) == ROOTS[size]


@pytest.mark.parametrize(("index", "size", "path"), INCLUSION)
def test_inclusion_proofs_are_the_published_ones_and_verify(
    index: int, size: int, path: list[bytes]
) -> None:
    assert merkle.inclusion_proof(index, HASHES[:size]) == path
    assert merkle.verify_inclusion(index, size, HASHES[index], path, ROOTS[size - 1])


@pytest.mark.parametrize(("index", "size", "path"), [v for v in INCLUSION if v[2]])
def test_a_corrupted_inclusion_proof_fails(index: int, size: int, path: list[bytes]) -> None:
    root = ROOTS[size - 1]
    leaf = HASHES[index]
    for wrong_index in (index - 1, index + 1, index ^ 2):
        if 0 <= wrong_index < size:
            assert not merkle.verify_inclusion(wrong_index, size, leaf, path, root)
    assert not merkle.verify_inclusion(index, size * 2, leaf, path, root)
    assert not merkle.verify_inclusion(index, size // 2, leaf, path, root)
    assert not merkle.verify_inclusion(index, size, merkle.leaf_hash(b"x"), path, root)
    assert not merkle.verify_inclusion(index, size, leaf, path, merkle.EMPTY_ROOT)
    assert not merkle.verify_inclusion(index, size, leaf, [*path, root], root)
    assert not merkle.verify_inclusion(index, size, leaf, [root, *path], root)
    assert not merkle.verify_inclusion(index, size, leaf, path[:-1], root)
    for i in range(len(path)):
        flipped = list(path)
        flipped[i] = bytes([path[i][0] ^ 8]) + path[i][1:]
        assert not merkle.verify_inclusion(index, size, leaf, flipped, root)


@pytest.mark.parametrize(("size1", "size2", "proof"), CONSISTENCY)
def test_consistency_proofs_are_the_published_ones_and_verify(
    size1: int, size2: int, proof: list[bytes]
) -> None:
    assert merkle.consistency_proof(size1, HASHES[:size2]) == proof
    root1, root2 = ROOTS[size1 - 1], ROOTS[size2 - 1]
    assert merkle.verify_consistency(size1, size2, proof, root1, root2)


@pytest.mark.parametrize(("size1", "size2", "proof"), [v for v in CONSISTENCY if v[2]])
def test_a_corrupted_consistency_proof_fails(size1: int, size2: int, proof: list[bytes]) -> None:
    root1, root2 = ROOTS[size1 - 1], ROOTS[size2 - 1]
    check = merkle.verify_consistency
    assert not check(size1 - 1, size2, proof, root1, root2)
    assert not check(size1 + 1, size2, proof, root1, root2)
    assert not check(size1 ^ 2, size2, proof, root1, root2)
    assert not check(size1, size2 * 2, proof, root1, root2)
    assert not check(size1, size2 // 2, proof, root1, root2)
    assert not check(size1, size2, proof, root2, root1)
    assert not check(size1, size2, [], root1, root2)
    assert not check(size1, size2, [*proof, root1], root1, root2)
    assert not check(size1, size2, [root2, *proof], root1, root2)
    assert not check(size1, size2, proof[:-1], root1, root2)
    for i in range(len(proof)):
        flipped = list(proof)
        flipped[i] = bytes([proof[i][0] ^ 16]) + proof[i][1:]
        assert not check(size1, size2, flipped, root1, root2)


def test_the_trivial_consistency_cases() -> None:
    some, other = hashlib.sha256(b"1").digest(), hashlib.sha256(b"2").digest()
    assert merkle.verify_consistency(0, 0, [], some, some)
    assert merkle.verify_consistency(0, 5, [], some, other)
    assert merkle.verify_consistency(3, 3, [], some, some)
    assert not merkle.verify_consistency(3, 3, [], some, other)  # one size, two roots
    assert not merkle.verify_consistency(3, 2, [], some, other)  # a tree never shrinks
    assert not merkle.verify_consistency(3, 3, [some], some, some)


def _leaves(n: int) -> list[bytes]:
    return [merkle.leaf_hash(i.to_bytes(4, "big")) for i in range(n)]


def _recursive_mth(hashes: list[bytes]) -> bytes:
    """MTH spelled as RFC 9162 §2.1.1 writes it, recursively."""
    if len(hashes) == 1:
        return hashes[0]
    k = 1
    while k * 2 < len(hashes):
        k *= 2
    return merkle.node_hash(_recursive_mth(hashes[:k]), _recursive_mth(hashes[k:]))


@given(st.integers(1, 140), st.data())
def test_every_proof_of_every_tree_verifies(n: int, data: st.DataObject) -> None:
    hashes = _leaves(n)
    root = merkle.root(hashes)
    assert root == _recursive_mth(hashes) == merkle.frontier_root(merkle.frontier_of(hashes))
    index = data.draw(st.integers(0, n - 1))
    path = merkle.inclusion_proof(index, hashes)
    assert merkle.verify_inclusion(index, n, hashes[index], path, root)
    assert not merkle.verify_inclusion(index, n, merkle.leaf_hash(b"other"), path, root)
    m = data.draw(st.integers(0, n))
    proof = merkle.consistency_proof(m, hashes)
    assert merkle.verify_consistency(m, n, proof, merkle.root(hashes[:m]), root)


@given(st.integers(2, 80), st.data())
def test_a_rewritten_history_is_inconsistent(n: int, data: st.DataObject) -> None:
    """The witness's guarantee: whatever leaf of the old tree changed, no proof from the new
    tree links it to the old root."""
    hashes = _leaves(n)
    m = data.draw(st.integers(1, n - 1))
    old_root = merkle.root(hashes[:m])
    changed = list(hashes)
    changed[data.draw(st.integers(0, m - 1))] = merkle.leaf_hash(b"rewritten")
    proof = merkle.consistency_proof(m, changed)
    assert not merkle.verify_consistency(m, n, proof, old_root, merkle.root(changed))
