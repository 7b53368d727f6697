"""A tiny deterministic RNG whose whole state is one integer.

Why not random.Random: its state is 625 integers, which bloats every stored
game; splitmix64 is fast, well mixed, and serialises as a single int.
"""
from __future__ import annotations

import hashlib

_MASK = (1 << 64) - 1
_LIMITS: dict[int, int] = {}  # n -> largest multiple of n below 2**64


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        # Rejection sampling keeps it exactly uniform. next64 is inlined and the
        # limit remembered: every shuffle, die and random move comes through here.
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("n must be positive")
            limit = self._limit(n)
        s = self.state
        while True:
            s = (s + 0x9E3779B97F4A7C15) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = s
                return z % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], like random.randint."""
        return lo + self.below(hi - lo + 1)

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1  # randint(1, sides), one call fewer

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates with below() inlined (the same draws, a third of the
        time): every deal shuffles a deck."""
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS.get(n) or self._limit(n)
            while True:
                s = (s + 0x9E3779B97F4A7C15) & _MASK
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = s

    @staticmethod
    def _limit(n: int) -> int:
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        if len(_LIMITS) < 4096:
            _LIMITS[n] = limit
        return limit

    def sample(self, seq, k: int) -> list:
        pool = list(seq)
        self.shuffle(pool)
        return pool[:k]


def derived(secret: int, *labels: int) -> Rng:
    """A separate stream keyed by a secret RNG state and some labels (a seat, a move count),
    through a hash: its draws say nothing about the secret or the stream it came from, and
    drawing from it leaves that stream where it was (a replay stays the same)."""
    key = b"".join((x & _MASK).to_bytes(8, "little") for x in (secret, *labels))
    return Rng(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))
