"""games/publishing/news.py: a socket picks its own audience's frame from a head's
published news, and reads instead (None) whenever that frame cannot be all it needs."""

from __future__ import annotations

import json

from games.publishing import news


def published(after: int = 4) -> dict:
    def update(seat: int | None) -> dict:
        return {
            "events": [
                {"seq": after + 1, "data": {"mine": seat}},
                {"seq": after + 2, "data": {"mine": seat}},
            ],
            "view": json.dumps({"seat": seat}),
            "legal": json.dumps([{"type": "pass"}] if seat == 0 else []),
        }

    updates = {"0": update(0), "1": update(1), "-": update(None)}
    frames = {
        key: news.splice(u["events"], after + 2, "active", u, None if key == "-" else int(key))
        for key, u in updates.items()
    }
    return {
        "after": after,
        "status": "active",
        "viewers": [[10, 0], [11, 1]],
        "frames": frames,
        "last": after + 2,
    }


def test_a_player_gets_its_own_seats_frame():
    seat, frame, last_seq = news.frame_from(published(), 6, user_id=11, sent_seq=4)
    sent = json.loads(frame)
    assert seat == 1 and last_seq == 6
    assert [e["seq"] for e in sent["events"]] == [5, 6]
    assert sent["events"][0]["data"] == {"mine": 1}
    assert sent["view"] == {"seat": 1} and sent["legal"] == [] and sent["your_seat"] == 1
    assert sent["head"] == 6 and sent["status"] == "active"


def test_a_socket_that_sent_part_of_the_batch_reads_the_rest():
    assert news.frame_from(published(), 6, user_id=11, sent_seq=5) is None


def test_a_spectator_or_a_departed_player_gets_the_spectators_update():
    for user_id in (None, 99):
        seat, frame, _ = news.frame_from(published(), 6, user_id=user_id, sent_seq=4)
        sent = json.loads(frame)
        assert seat is None and sent["your_seat"] is None and sent["view"] == {"seat": None}


def test_a_socket_behind_the_news_or_without_its_audiences_update_must_read():
    assert news.frame_from(published(after=4), 6, user_id=10, sent_seq=3) is None
    without_spectators = published()
    del without_spectators["frames"]["-"]
    assert news.frame_from(without_spectators, 6, user_id=None, sent_seq=4) is None


def test_a_socket_that_has_sent_the_whole_batch_gets_nothing():
    assert news.frame_from(published(), 6, user_id=10, sent_seq=6) == (0, None, None)


def test_the_answer_to_a_command_rides_in_the_movers_frame():
    _, frame, _ = news.frame_from(published(), 6, user_id=10, sent_seq=4)
    answered = json.loads(news.answered(frame, {"ref": "r", "head_seq": 6, "replayed": False}))
    assert answered["accepted"] == {"ref": "r", "head_seq": 6, "replayed": False}
    assert answered["type"] == "events"
