"""Each player's picture is drawn from their name: the same name, the same picture, a
mirrored pattern, and another name another picture."""

from __future__ import annotations

from players.avatars import CELLS, avatar_svg, pattern


def test_a_name_always_draws_the_same_mirrored_picture():
    hue, cells = pattern("ana")
    assert pattern("ana") == (hue, cells) == pattern("ANA")
    assert 0 <= hue < 360
    assert all((CELLS - 1 - column, row) in cells for column, row in cells)


def test_names_draw_different_pictures():
    pictures = {tuple(pattern(f"player{i}")[1]) for i in range(50)}
    assert len(pictures) > 45


def test_the_picture_is_inline_svg_described_for_screen_readers():
    svg = avatar_svg("o'brien<b>", 32)
    assert svg.startswith('<svg class="avatar" width="32" height="32"')
    assert 'aria-label="o&#x27;brien&lt;b&gt;&#x27;s picture"' in svg
    assert svg.count("<rect") == 1 + len(pattern("o'brien<b>")[1])
