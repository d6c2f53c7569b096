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
import sys
from operator import mod

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
    could fail it: below 2**64 - 2**32 it passes for any list shorter than 2**32.
    A list of PACKED_FROM items or more takes all its draws at once (_packed_draws)."""
    if PACKED_FROM <= len(items) <= PACKED_UPTO:
        draws = _packed_draws(state, len(items) - 1)
        if draws is not None:
            for i, j in zip(range(len(items) - 1, 0, -1), draws):
                items[i], items[j] = items[j], items[i]
            return (state + (len(items) - 1) * GAMMA) & MASK
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


# Packed draws: n SplitMix64 outputs computed side by side in one big integer, a
# 128-bit lane each (a 64-bit word times a 64-bit constant fits in a lane, so no
# product spills into the next lane): each of the few whole-integer operations
# runs in C over all lanes, where the loop above runs about 20 bytecodes per draw.
# Bit for bit the same words: the lanes are masked to 64 bits after every step
# that could carry past them, as the loop's `& MASK` does.
PACKED_FROM = 12        # from this length a shuffle takes its draws packed; below, the loop is cheaper
PACKED_UPTO = 1024      # and up to this one (a length's constants are five integers of 16 bytes a draw)
_LITTLE = sys.byteorder == "little"     # the lanes are read back as native 64-bit words
_lanes: dict[int, tuple] = {}           # n draws -> _lane_constants(n)


def _lane_constants(n: int) -> tuple:
    """(1 in each of n lanes, GAMMA times 1, 2, ..., n, 64 low bits of each lane, 32
    low bits of each, bit 32 of each, i + 1 for each draw), made once per length."""
    lanes = _lanes.get(n)
    if lanes is None:
        if len(_lanes) >= 64:     # many lengths (discard piles reshuffled): start again
            _lanes.clear()
        ones = int.from_bytes((b"\x01" + bytes(15)) * n, "little")
        ramp = int.from_bytes(b"".join((k + 1).to_bytes(16, "little") for k in range(n)), "little")
        lanes = _lanes[n] = (ones, ramp * GAMMA, ones * MASK, ones * 0xFFFFFFFF, ones << 32,
                             range(n + 1, 1, -1))
    return lanes


def _packed_draws(state: int, n: int):
    """The n draws of a shuffle of n + 1 items from `state`, as the loop in `shuffle`
    takes them (j for i = n, n - 1, ..., 1), or None when one of them might fail
    below's limit (a word over 2**64 - 2**32, about once in 2**32 draws): the loop
    then draws again as below would, which packing cannot."""
    if not _LITTLE:
        return None
    ones, ramp, mask, low32, bit32, sizes = _lane_constants(n)
    s = (state * ones + ramp) & mask                    # state + k * GAMMA in lane k - 1
    z = ((s ^ (s >> 30)) & mask) * 0xBF58476D1CE4E5B9 & mask
    z = ((z ^ (z >> 27)) & mask) * 0x94D049BB133111EB & mask
    z ^= z >> 31    # (the bits shifted into a lane's high half are never read)
    # a lane whose high 32 bits are all ones carries into its bit 32 when 1 is added to them
    if ((z >> 32) & low32) + ones & bit32:
        return None
    words = memoryview(z.to_bytes(16 * n, "little")).cast("Q")[::2].tolist()
    return map(mod, words, sizes)


def _shuffle_long(state: int, items: list) -> int:
    """shuffle's draws for a list of 2**32 items or more, `below` by `below`."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
