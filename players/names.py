"""Look-alike player names: the skeletons of a name (Unicode TR39, after NFKC and case
folding), shared by names a reader cannot tell apart: "ana" with a Cyrillic "а",
"ANA", fullwidth "ａna", "b0b" and "bob", "IoIa" and "lola".

The confusables come from Unicode's confusables.txt as the ``confusable_homoglyphs``
package ships it (each character with the characters it may be confused with, both
ways); the prototype a character maps to is read from it once.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs.confusables import confusables_data

# The package wraps right-to-left characters in LEFT-TO-RIGHT MARKs for display.
DISPLAY_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character -> its prototype (TR39's confusables.txt mapping).

    The data lists, for a prototype, every character that maps to it, and for such a
    character only its prototype (sources are single characters). A character listed
    with one partner that lists only it back is a pair: both map to the smaller one,
    which keeps them equal as the file's mapping would."""
    table: dict[str, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1 or len(entries) != 1:
            continue  # a prototype (several sources, or a sequence)
        partner = entries[0]["c"].translate(DISPLAY_MARKS)
        partners_of_partner = confusables_data.get(partner, [])
        if len(partner) > 1 or len(partners_of_partner) > 1:
            table[char] = partner
        else:
            table[char] = min(char, partner)
    return table


def _mapped(text: str) -> str:
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


def skeletons(name: str) -> frozenset[str]:
    """The name as a reader may see it: compatibility forms folded (NFKC), each character
    replaced by its prototype and the letter case folded, in both orders. Folding first
    reads "ANA" as "ana" ("I" would read as "l" otherwise); mapping first reads "IoIa" as
    "lola". Two names look alike when their skeletons meet."""
    text = unicodedata.normalize("NFKC", name)
    mapped_first = _mapped(_mapped(text).casefold())
    folded_first = _mapped(_mapped(text.casefold()).casefold())
    return frozenset({mapped_first, folded_first})
