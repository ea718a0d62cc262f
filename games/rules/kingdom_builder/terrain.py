"""Terrain kinds, their board letters, and the 25 terrain cards."""

from __future__ import annotations

import random

GRASS = "grass"
CANYON = "canyon"
DESERT = "desert"
FLOWER_FIELD = "flower_field"
FOREST = "forest"
WATER = "water"
MOUNTAIN = "mountain"
CASTLE = "castle"
LOCATION = "location"
NOMAD_SPACE = "nomad_space"
# A buildable hex without a terrain kind: only in positions scored by ``manage.py score``.
PLAIN = "plain"

# The five terrains of the terrain cards: the only ones settlements are built on.
BUILDABLE_TERRAINS: tuple[str, ...] = (GRASS, CANYON, DESERT, FLOWER_FIELD, FOREST)

LETTER_TERRAIN: dict[str, str] = {
    "G": GRASS,
    "C": CANYON,
    "D": DESERT,
    "F": FLOWER_FIELD,
    "T": FOREST,
    "W": WATER,
    "M": MOUNTAIN,
    "S": CASTLE,
    "N": NOMAD_SPACE,
    "L": LOCATION,
    ".": PLAIN,
}
BUILDABLE_LETTERS = frozenset("GCDFT.")

TERRAIN_NAMES: dict[str, str] = {
    GRASS: "grass",
    CANYON: "canyon",
    DESERT: "desert",
    FLOWER_FIELD: "flower field",
    FOREST: "forest",
    WATER: "water",
    MOUNTAIN: "mountain",
    CASTLE: "castle",
    LOCATION: "location",
    NOMAD_SPACE: "nomad space",
    PLAIN: "plain",
}

CARDS_PER_TERRAIN = 5


def terrain_deck() -> list[str]:
    """The 25 terrain cards, 5 of each buildable terrain, unshuffled."""
    return [t for t in BUILDABLE_TERRAINS for _ in range(CARDS_PER_TERRAIN)]


def shuffled(cards: list[str], rng: random.Random) -> list[str]:
    """A shuffled copy; the first card is the top of the draw pile."""
    order = list(cards)
    rng.shuffle(order)
    return order
