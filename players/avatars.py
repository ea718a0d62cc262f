"""Each player's picture, drawn from their name: a 5×5 mirrored pattern in a colour of its
own (an identicon, as GitHub and Stack Overflow give a new account), so a new player is
told apart at a glance without uploading anything. Pure: the same name, the same picture.
"""

from __future__ import annotations

import hashlib

from django.utils.html import format_html
from django.utils.safestring import SafeString

CELLS = 5


def pattern(name: str) -> tuple[int, list[tuple[int, int]]]:
    """The hue (0–359) and the filled cells (column, row) of ``name``'s picture: the left
    three columns from the name's hash, mirrored onto the right two."""
    digest = hashlib.sha256(name.casefold().encode()).digest()
    hue = int.from_bytes(digest[:2], "big") % 360
    bits = int.from_bytes(digest[2:6], "big")
    cells = []
    for row in range(CELLS):
        for column in range(3):
            if bits >> (row * 3 + column) & 1:
                cells.append((column, row))
                if column < 2:
                    cells.append((CELLS - 1 - column, row))
    return hue, sorted(cells)


def avatar_svg(name: str, size: int = 40) -> SafeString:
    """``name``'s picture as inline SVG, ``size`` pixels square, described for screen
    readers as the player's picture."""
    hue, cells = pattern(name)
    rects = "".join(f'<rect x="{c + 0.5}" y="{r + 0.5}" width="1" height="1"/>' for c, r in cells)
    return format_html(
        '<svg class="avatar" width="{size}" height="{size}" viewBox="0 0 6 6" role="img" '
        'aria-label="{label}"><rect width="6" height="6" rx="1" fill="hsl({hue},45%,92%)"/>'
        '<g fill="hsl({hue},55%,40%)">{rects}</g></svg>',
        size=size,
        label=f"{name}'s picture",
        hue=hue,
        rects=SafeString(rects),
    )
