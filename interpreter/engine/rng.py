"""The game's random numbers: SplitMix64, one integer of state.

One int copies for free and saves as text, and the sequence is the same on
every machine and Python version (random.Random's state is 625 words).

Generator v2 (VERSION) passes every seed through SplitMix64's output
function (`mix`, a bijection of 64-bit words; Steele, Lea & Flood, "Fast
splittable pseudorandom number generators", OOPSLA 2014, and Vigna's
reference splitmix64.c) before it becomes the state. v1 used the seed
linearly (`seed * gamma + c`), so seed s+1's state was seed s's state one
step on and the two streams were the same numbers shifted by one draw;
mixed, nearby seeds start at unrelated points of the cycle. Logs and saves
name the version, and one made with another version is refused by name
rather than failing at some later line.
"""
MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15   # SplitMix64's increment: 2^64 / golden ratio, odd
VERSION = 2                  # of the seed-to-stream mapping; logs and saves carry it
# Versions whose step from one state to the next is this one's: a save holds a
# state, not a seed, so a save made by any of them goes on exactly as it would have.
SAME_STEPS = frozenset({1, 2})


def mix(z: int) -> int:
    """SplitMix64's finaliser: a 64-bit word → a well-mixed 64-bit word (a bijection)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def seed_state(seed: int) -> int:
    """The generator state for a seed (any int; taken modulo 2^64, then mixed)."""
    return mix((int(seed) + GAMMA) & MASK)


def _unshift(z: int, k: int) -> int:
    """The inverse of z ^ (z >> k) on 64-bit words."""
    x = z
    for _ in range(64 // k):
        x = z ^ (x >> k)
    return x & MASK


def unmix(z: int) -> int:
    """The inverse of `mix`."""
    z = _unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    return _unshift(z, 30)


def seed_of_v1(seed: int) -> int:
    """The v2 seed whose stream is generator v1's stream for `seed`: a scenario file
    written against a v1 deal keeps it by naming this seed (with a comment)."""
    v1_state = (int(seed) * GAMMA + 0x632BE59BD9B4E019) & MASK
    return (unmix(v1_state) - GAMMA) & MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + GAMMA) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def version_problem(version) -> str | None:
    """Why a log or save written by generator `version` cannot be replayed, or None.

    A file without a version predates versioning and so was made with v1."""
    version = 1 if version is None else version
    if version == VERSION:
        return None
    return f"made with random generator v{version}; this is v{VERSION}"


def below(state: int, n: int) -> tuple[int, int]:
    """A number in [0, n), unbiased by rejection."""
    limit = MASK - (MASK + 1) % n
    while True:
        state, z = next_u64(state)
        if z <= limit:
            return state, z % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the new state. The same draws as calling
    `below(state, i + 1)` for i from the last index down, written out in one loop
    (a deck's shuffle is a hot path: two calls per card cost more than the work;
    every random game shuffles its decks at set-up). Constants are literals (no
    global look-ups), and a draw is tested against below's limit only when it
    could fail it: below 2**64 - 2**32 it passes for any list shorter than 2**32."""
    if len(items) > 1 << 32:
        return _shuffle_long(state, items)
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        if z > 0xFFFFFFFF00000000:     # maybe over below's limit: draw again as it would
            limit = MASK - (MASK + 1) % (i + 1)
            while z > limit:
                state, z = next_u64(state)
        j = z % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def _shuffle_long(state: int, items: list) -> int:
    """shuffle's draws for a list of 2**32 items or more, `below` by `below`."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
