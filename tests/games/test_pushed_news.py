"""games/pushed_news.py: a socket picks its own seat's update from a head's message, and
takes the read path (None) whenever that update cannot be all it needs."""

from __future__ import annotations

import json

from games import pushed_news


def pushed(after: int = 4) -> dict:
    def update(seat: int) -> dict:
        return {
            "events": [
                {"seq": after + 1, "data": {"mine": seat}},
                {"seq": after + 2, "data": {"mine": seat}},
            ],
            "view": json.dumps({"seat": seat}),
            "legal": json.dumps([{"type": "pass"}] if seat == 0 else []),
        }

    return {
        "after": after,
        "status": "active",
        "viewers": [[10, 0], [11, 1]],
        "updates": {"0": update(0), "1": update(1)},
    }


def test_a_player_gets_its_own_seats_update_and_only_the_events_it_has_not_sent():
    news = pushed_news.news_of("g1", pushed(), 6, user_id=11, sent_seq=5)
    frame = json.loads(news.frame)
    assert news.seat == 1 and news.last_seq == 6
    assert [e["seq"] for e in frame["events"]] == [6]
    assert frame["events"][0]["data"] == {"mine": 1}
    assert frame["view"] == {"seat": 1} and frame["legal"] == [] and frame["your_seat"] == 1
    assert frame["head"] == 6 and frame["status"] == "active"


def test_sockets_of_one_audience_share_one_frame():
    first = pushed_news.news_of("g2", pushed(), 6, user_id=10, sent_seq=4)
    second = pushed_news.news_of("g2", pushed(), 6, user_id=10, sent_seq=4)
    assert first.frame is second.frame


def test_a_socket_behind_the_batch_a_spectator_or_a_departed_player_takes_the_read_path():
    assert pushed_news.news_of("g3", pushed(after=4), 6, user_id=10, sent_seq=3) is None
    assert pushed_news.news_of("g3", pushed(), 6, user_id=None, sent_seq=4) is None
    assert pushed_news.news_of("g3", pushed(), 6, user_id=99, sent_seq=4) is None


def test_a_socket_that_has_sent_the_whole_batch_gets_nothing():
    news = pushed_news.news_of("g4", pushed(), 6, user_id=10, sent_seq=6)
    assert news.frame is None and news.last_seq is None
