"""The game's random numbers: SplitMix64, one integer of state.

One int copies for free and saves as text, and the sequence is the same on
every machine and Python version (random.Random's state is 625 words).
"""
MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A number in [0, n), unbiased by rejection."""
    limit = MASK - (MASK + 1) % n
    while True:
        state, z = next_u64(state)
        if z <= limit:
            return state, z % n


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates in place; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state, j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state
