"""The rules-engine contract shared by every ruleset.

A ruleset is one object. It folds recorded events into state (``evolve``), decides new
events from a seat's command (``decide``), lists legal commands, says who may act, and
redacts state per viewer (``view``). Nothing here imports Django: the engines are pure
and deterministic — every random outcome is drawn from the ``rng`` handed to ``setup`` /
``decide`` and recorded in the events it returns.

State may be any Python object the ruleset likes. ``evolve`` MAY mutate the state it is
given and return it (copying a 400-hex board per event would dominate the cost of a
command); callers that need to keep an older state take ``copy_state`` first.
``decide``, ``legal_commands``, ``to_act``, ``view`` and ``outcome`` never mutate.
"""

from __future__ import annotations

import copy
import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Command and IllegalCommand live in ``commands`` (shapes needs them too); the rulesets
# import them from here, the contract's one module (hence the explicit re-export).
from games.rules.commands import Command as Command
from games.rules.commands import IllegalCommand as IllegalCommand
from games.rules.shapes import CommandShapes

State = Any


@dataclass(frozen=True)
class Event:
    """A fact. ``public`` is for everyone; ``private[seat]`` only for that seat."""

    type: str
    public: dict[str, Any] = field(default_factory=dict)
    private: dict[int, dict[str, Any]] = field(default_factory=dict)

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """The event's data as ``seat`` sees it (``None`` = spectator)."""
        if seat is None or seat not in self.private:
            return dict(self.public)
        return {**self.public, **self.private[seat]}


@dataclass(frozen=True)
class Outcome:
    """Final result. ``ranking`` lists groups of tied seats, best first."""

    scores: dict[int, int]
    ranking: list[list[int]]
    breakdown: dict[int, dict[str, int]] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return list(self.ranking[0]) if self.ranking else []

    def as_json(self) -> dict[str, Any]:
        return {
            "scores": {str(s): v for s, v in self.scores.items()},
            "ranking": [list(g) for g in self.ranking],
            "winners": self.winners,
            "breakdown": {str(s): b for s, b in self.breakdown.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            scores={int(s): v for s, v in data["scores"].items()},
            ranking=[list(g) for g in data["ranking"]],
            breakdown={int(s): b for s, b in data.get("breakdown", {}).items()},
        )


def rank_by_score(scores: dict[int, Any]) -> list[list[int]]:
    """Groups of seats by descending score (any comparable score, e.g. a tuple)."""
    groups: list[list[int]] = []
    last: Any = object()
    for seat in sorted(scores, key=lambda s: (scores[s], -s), reverse=True):
        if groups and scores[seat] == last:
            groups[-1].append(seat)
        else:
            groups.append([seat])
        last = scores[seat]
    return [sorted(g) for g in groups]


@dataclass(frozen=True)
class PickItem:
    """One thing a list option may name: its value, its name for players, and the bool
    option (an expansion) that must be on for it to be offered (None: always)."""

    value: str
    label: str
    needs: str | None = None


@dataclass(frozen=True)
class Pick:
    """A list option's shape, for a form: exactly ``count`` different ``items``."""

    count: int
    items: tuple[PickItem, ...]
    default_label: str | None = None  # what leaving it unpicked gives, for players


@dataclass(frozen=True)
class Option:
    """A declared table option. ``choices`` None means any value of ``default``'s type.

    The rest only helps a form speak player: ``label`` and ``labels`` (one per choice)
    name the option and its choices, ``applies_when`` ({option: value}) says when the
    option matters at all, ``pick`` describes a list of names, and ``control`` names a
    special control a client may draw (e.g. "board_sections"). Checking ignores them.
    """

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    label: str | None = None
    labels: tuple[str, ...] | None = None
    applies_when: Mapping[str, Any] | None = field(default=None, hash=False, compare=False)
    pick: Pick | None = None
    control: str | None = None

    def as_json(self) -> dict[str, Any]:
        kind = type(self.default).__name__
        return {
            "name": self.name,
            "default": self.default,
            "description": self.description,
            "choices": list(self.choices) if self.choices is not None else None,
            "type": kind,
            "label": self.label or self.name.replace("_", " ").capitalize(),
            "labels": list(self.labels) if self.labels is not None else None,
            "applies_when": dict(self.applies_when) if self.applies_when else None,
            "pick": (
                {
                    "count": self.pick.count,
                    "default_label": self.pick.default_label,
                    "items": [
                        {"value": i.value, "label": i.label, "needs": i.needs}
                        for i in self.pick.items
                    ],
                }
                if self.pick
                else None
            ),
            "control": self.control,
        }


class Ruleset(ABC):
    key: str
    version: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    # Command type -> its fields besides "type" (see ``validate_command``): the service
    # refuses any other shape before ``decide`` and records only what passed.
    command_shapes: CommandShapes

    # ---- table options -------------------------------------------------------------
    def clean_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and refuse unknown or out-of-range options."""
        options = dict(options or {})
        declared = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(declared))
        if unknown:
            raise IllegalCommand("unknown_option", f"Unknown table option: {', '.join(unknown)}.")
        cleaned: dict[str, Any] = {}
        for name, option in declared.items():
            value = options.get(name, option.default)
            if option.choices is not None and value not in option.choices:
                raise IllegalCommand(
                    "bad_option",
                    f"Option {name!r} must be one of {list(option.choices)}, not {value!r}.",
                )
            if option.choices is None and option.default is not None:
                expected = type(option.default)
                if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                    raise IllegalCommand(
                        "bad_option", f"Option {name!r} must be a {expected.__name__}."
                    )
            cleaned[name] = value
        return self.check_options(cleaned)

    def check_options(self, options: dict[str, Any]) -> dict[str, Any]:
        """Hook for cross-option checks; raise IllegalCommand('bad_option', ...)."""
        return options

    def seat_range(self, options: dict[str, Any]) -> tuple[int, int]:
        """(min, max) seats under these options (e.g. Nomads allows a 5th player)."""
        return self.min_players, self.max_players

    # ---- the contract ------------------------------------------------------------------
    @abstractmethod
    def setup(self, options: dict[str, Any], players: int, rng: random.Random) -> list[Event]:
        """The opening facts. The first event must let ``evolve(None, e)`` build state."""

    @abstractmethod
    def evolve(self, state: State | None, event: Event) -> State:
        """Fold one recorded event into state (may mutate and return ``state``)."""

    @abstractmethod
    def decide(self, state: State, seat: int, command: Command, rng: random.Random) -> list[Event]:
        """Validate ``command`` from ``seat`` and return new events, or raise IllegalCommand."""

    @abstractmethod
    def legal_commands(self, state: State, seat: int) -> list[Command]:
        """Every command ``decide`` accepts from ``seat`` now."""

    @abstractmethod
    def to_act(self, state: State) -> set[int]:
        """Seats that may act now (empty once the game is over)."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """JSON-ready state as ``seat`` sees it; None is a spectator."""

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """Final scores and ranking once the game is over, else None."""

    @abstractmethod
    def dump(self, state: State) -> dict[str, Any]:
        """JSON-ready snapshot of the full state (secrets included)."""

    @abstractmethod
    def load(self, data: dict[str, Any]) -> State:
        """Inverse of ``dump``."""

    # ---- helpers every ruleset gets ----------------------------------------------------
    def copy_state(self, state: State) -> State:
        return copy.deepcopy(state)

    def fold(self, events: Iterable[Event], state: State | None = None) -> State:
        for event in events:
            state = self.evolve(state, event)
        return state

    def awaited(self, state: State) -> set[int]:
        """The seats the game cannot go on without (their clocks run); by default every
        seat to act. A ruleset where others may act meanwhile (a Kingdom Cards bystander
        changing its kingdom) narrows it, so a bystander's clock never runs."""
        return self.to_act(state)

    # Command types a bot never plays (Kingdom Builder's undo: a bot means its moves).
    bots_skip: frozenset[str] = frozenset()

    def bot_commands(self, state: State, seat: int) -> list[Command]:
        """The legal commands a bot chooses from."""
        legal = self.legal_commands(state, seat)
        return (
            [c for c in legal if c.get("type") not in self.bots_skip] if self.bots_skip else legal
        )

    def secrets(self, state: State) -> dict[int, dict[str, Any]]:
        """What each seat holds hidden from the others (a hand, a starting tile), by
        seat. The service shows it to everyone once the game is over; never the face-down
        piles' order (nobody holds that). None by default."""
        return {}


def seeded_rng(seed: str, seq: int) -> random.Random:
    """The RNG for the decision taken at head ``seq`` of a game with secret ``seed``.

    Derived by hashing so that knowing one decision's outcomes tells nothing about the
    next; ``random.Random`` seeded with an int is stable across CPython versions for
    ``random()``, ``shuffle``, ``randrange`` and ``choice``.
    """
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def require(condition: bool, code: str, message: str) -> None:
    """Raise IllegalCommand(code, message) unless ``condition`` holds."""
    if not condition:
        raise IllegalCommand(code, message)


def command_type(command: Command, allowed: Sequence[str]) -> str:
    """The command's ``type``, refusing anything that is not one of ``allowed``."""
    kind = command.get("type") if isinstance(command, dict) else None
    if not isinstance(kind, str) or kind not in allowed:
        raise IllegalCommand(
            "unknown_command",
            f"Unknown command {kind!r}; expected one of: {', '.join(allowed)}.",
        )
    return kind


class OptionalRulesetParts:
    """Parts a ruleset may add beyond the core contract (checked with ``hasattr``).

    - ``describe_event(event_type, data, names) -> str``: the move log in words, from the
      data a viewer sees ("Ana built a settlement on canyon").
    - ``determinize(state, seat, rng) -> state``: a copy of ``state`` in which everything
      hidden from ``seat`` is re-sampled consistently with what ``seat`` sees (for search
      bots, which must never read another seat's secrets).
    - ``score_position(position) -> dict``: scores a position file for ``manage.py score``.
    """
