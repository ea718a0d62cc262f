"""Signed checkpoints: the server's key, a signature at every snapshot and at the end of a
game, exports that carry them, and what they catch offline that the hash chain cannot
(a log cut short, a game rewritten with every hash recomputed, another key)."""

from __future__ import annotations

import base64
import copy
import json
import os
import uuid

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.core.management import call_command
from django.core.management.base import CommandError

from audit.exports import export_game, verify_export
from audit.stored import audit_game
from games import selectors, services
from games.models import Game, GameEvent, Snapshot
from games.storage import signing
from games.storage.chain import GENESIS, record_hash
from tests.conftest import TEST_SIGNING_KEY
from tests.games.helpers import humans_game, to_act
from tests.games.tampering import triggers_disabled

db = pytest.mark.django_db(transaction=True)


def play(game: Game, users, moves: int) -> Game:
    """``moves`` first legal commands, each with a command id (as the web client sends)."""
    by_seat = {game.seats.get(user=u).number: u for u in users}
    for _ in range(moves):
        seat = min(to_act(game))
        command = selectors.legal_commands(game, seat)[0]
        services.game_submit(
            game_id=game.id, user=by_seat[seat], command=command, command_id=uuid.uuid4()
        )
    game.refresh_from_db()
    return game


@pytest.fixture
def players(make_user) -> list:
    return [make_user("ana"), make_user("bo")]


@pytest.fixture
def in_progress(players, settings) -> Game:
    settings.SNAPSHOT_EVERY = 4
    game = play(humans_game(players), players, moves=6)
    assert game.status == Game.Status.ACTIVE
    return game


@pytest.fixture
def finished(in_progress, players) -> Game:
    services.game_resign(game_id=in_progress.id, user=players[1])
    in_progress.refresh_from_db()
    assert in_progress.status == Game.Status.FINISHED
    return in_progress


def published() -> dict[str, str]:
    return signing.published_keys()


def other_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(b"\x07" * 32)


def rehash(document: dict) -> None:
    prev = GENESIS
    for record in document["events"]:
        record["prev_hash"] = prev
        record["hash"] = prev = record_hash(record)


def resign_with(document: dict, key: Ed25519PrivateKey) -> None:
    """What a forger can do: sign every checkpoint again with a key of their own."""
    public = signing.public_b64(key)
    key_id = signing.fingerprint(public)
    hashes = {r["seq"]: r["hash"] for r in document["events"]}
    for point in document["checkpoints"]:
        point["hash"], point["key_id"] = hashes[point["seq"]], key_id
        signed = signing.message(document["game"], point["seq"], point["hash"], key_id)
        point["signature"] = base64.b64encode(key.sign(signed)).decode()
    document["signing_keys"] = {key_id: public}


def problems(verdict) -> str:
    return " | ".join(verdict.problems)


# ---- the server's key -----------------------------------------------------------------
def test_the_tests_sign_with_the_fixed_key():
    fixed = signing.parse_private_key(TEST_SIGNING_KEY)
    assert signing.public_b64(signing.server_key()) == signing.public_b64(fixed)
    assert os.environ["SIGNING_KEY"] == TEST_SIGNING_KEY


def test_without_a_configured_key_one_is_made_once_and_kept_in_its_file(settings, tmp_path):
    settings.SIGNING_KEY = ""
    settings.SIGNING_KEY_FILE = tmp_path / ".signing_key"
    first = signing.public_b64(signing.server_key())
    assert (settings.SIGNING_KEY_FILE.stat().st_mode & 0o777) == 0o600
    signing._load.cache_clear()  # a restarted process reads the same file
    assert signing.public_b64(signing.server_key()) == first
    settings.SIGNING_KEY_FILE = tmp_path / "another"
    assert signing.public_b64(signing.server_key()) != first


def test_a_pem_signing_key_is_read_too(settings):
    pem = other_key().private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    settings.SIGNING_KEY = pem.decode()
    assert signing.public_b64(signing.server_key()) == signing.public_b64(other_key())


def test_retired_keys_stay_published_beside_the_current_one(settings):
    retired = signing.public_b64(other_key())
    settings.SIGNING_RETIRED_KEYS = [retired]
    keys = signing.published_keys()
    assert len(keys) == 2 and keys[signing.fingerprint(retired)] == retired


# ---- signatures at every snapshot and at the end --------------------------------------
@db
def test_every_snapshot_and_the_end_of_a_game_are_signed(finished):
    snapshots = list(Snapshot.objects.filter(game=finished).order_by("seq"))
    seqs = [s.seq for s in snapshots]
    assert len(seqs) >= 3 and seqs[-1] == finished.head_seq
    assert all(seq % 4 == 0 for seq in seqs[:-1])
    public = signing.public_b64(signing.server_key())
    for snapshot in snapshots:
        head = GameEvent.objects.get(game=finished, seq=snapshot.seq)
        assert snapshot.head_hash == head.hash
        assert snapshot.key_id == signing.fingerprint(public)
        signed = signing.message(str(finished.id), snapshot.seq, head.hash, snapshot.key_id)
        assert signing.verify_signature(public, snapshot.signature, signed)


@db
def test_an_export_carries_the_checkpoints_and_the_key_that_signed_them(finished):
    document = export_game(finished)
    assert [p["seq"] for p in document["checkpoints"]] == list(
        Snapshot.objects.filter(game=finished).order_by("seq").values_list("seq", flat=True)
    )
    assert document["signing_keys"] == signing.published_keys()
    verdict = verify_export(document, keys=signing.published_keys())
    assert verdict.passed, verdict.problems
    assert verdict.signatures_valid is True
    assert verdict.signed_by == list(signing.published_keys())


@db
def test_a_game_in_progress_before_its_first_snapshot_has_nothing_signed_yet(players):
    game = humans_game(players)
    document = export_game(game)
    assert document["checkpoints"] == []
    verdict = verify_export(document, keys=signing.published_keys())
    assert verdict.passed and verdict.signatures_valid is None


# ---- what the signatures catch --------------------------------------------------------
@db
def test_a_cut_tail_of_a_game_in_progress_is_found_by_the_audit_and_offline(in_progress):
    """An attacker with the database deletes the last events (triggers off) and moves
    the head back: chain, fields and replay are all intact, the checkpoint is not."""
    last_signed = Snapshot.objects.filter(game=in_progress).order_by("-seq").first().seq
    cut_to = last_signed - 2
    with triggers_disabled("games_gameevent"):
        GameEvent.objects.filter(game=in_progress, seq__gt=cut_to).delete()
    Game.objects.filter(pk=in_progress.pk).update(head_seq=cut_to)
    game = Game.objects.get(pk=in_progress.pk)

    verdict = audit_game(game)
    assert verdict.chain_intact and verdict.fields_match and verdict.replay_matches
    assert not verdict.passed and verdict.signatures_valid is False
    assert f"the server signed event {last_signed} but the log ends at event {cut_to}" in (
        problems(verdict)
    )
    offline = verify_export(json.loads(json.dumps(export_game(game))), keys=published())
    assert not offline.passed and "events were cut from the log" in problems(offline)


@db
def test_a_finished_game_rewritten_with_every_hash_recomputed_fails_offline(finished):
    """A change re-execution cannot see (a command's id) and a fresh chain: only the
    signatures tell."""
    document = json.loads(json.dumps(export_game(finished)))
    victim = next(e for e in document["events"] if e["command_id"])
    victim["command_id"] = str(uuid.uuid4())
    rehash(document)
    verdict = verify_export(document, keys=published())
    assert verdict.chain_intact and verdict.replay_matches and verdict.fields_match
    assert verdict.reexecution_matches is True
    assert not verdict.passed and verdict.signatures_valid is False
    assert "differs from the one the server signed" in problems(verdict)


@db
def test_a_finished_game_stripped_of_its_signatures_fails(finished):
    document = json.loads(json.dumps(export_game(finished)))
    document["checkpoints"] = []
    verdict = verify_export(document, keys=published())
    assert not verdict.passed
    assert f"the game ended at event {finished.head_seq} but no valid signature" in (
        problems(verdict)
    )


@db
def test_a_wrong_key_fails_and_a_forgers_own_key_fails_once_the_key_is_pinned(finished):
    genuine = json.loads(json.dumps(export_game(finished)))
    forged_key = other_key()
    wrong = {signing.fingerprint(signing.public_b64(forged_key)): signing.public_b64(forged_key)}
    verdict = verify_export(genuine, keys=wrong)
    assert not verdict.passed and "signed by an unknown key" in problems(verdict)

    forged = copy.deepcopy(genuine)
    forged["events"][-2]["actor"] = "staff:mallory"
    rehash(forged)
    resign_with(forged, forged_key)
    # Without a pinned key, the export's own key is all there is to check against ...
    assert verify_export(forged).signatures_valid is True
    # ... with the published key, or its id pinned, the forger's key is unknown.
    (genuine_id,) = published()
    for verdict in (
        verify_export(forged, keys=published()),
        verify_export(forged, pinned={genuine_id}),
    ):
        assert not verdict.passed and "signed by an unknown key" in problems(verdict)
    assert verify_export(genuine, pinned={genuine_id}).passed


@db
def test_a_key_swapped_into_an_export_under_the_genuine_id_is_not_trusted(finished):
    document = json.loads(json.dumps(export_game(finished)))
    (genuine_id,) = document["signing_keys"]
    document["signing_keys"] = {genuine_id: signing.public_b64(other_key())}
    verdict = verify_export(document, pinned={genuine_id})
    assert not verdict.passed and "signed by an unknown key" in problems(verdict)


@db
def test_a_forged_signature_is_refused(finished):
    document = json.loads(json.dumps(export_game(finished)))
    point = document["checkpoints"][0]
    point["signature"] = base64.b64encode(b"\x00" * 64).decode()
    verdict = verify_export(document, keys=published())
    assert not verdict.passed
    assert f"the signature of the checkpoint at event {point['seq']} is not valid" in (
        problems(verdict)
    )


@db
def test_the_audit_checks_the_stored_signatures(finished, capsys):
    snapshot = Snapshot.objects.filter(game=finished).order_by("seq").first()
    with triggers_disabled("games_snapshot"):
        Snapshot.objects.filter(pk=snapshot.pk).update(
            signature=base64.b64encode(b"1" * 64).decode()
        )
    verdict = audit_game(finished)
    assert not verdict.passed and verdict.signatures_valid is False
    with pytest.raises(CommandError):
        call_command("audit_game", str(finished.id))
    assert "signatures=False" in capsys.readouterr().out


# ---- the verify_export command ---------------------------------------------------------
@db
def test_verify_export_checks_the_signatures_with_the_published_keys(finished, tmp_path, client):
    keys_file = tmp_path / "keys.json"
    keys_file.write_text(client.get("/api/keys/").content.decode())
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export_game(finished)))
    call_command("verify_export", str(path), "--keys", str(keys_file))
    (genuine_id,) = published()
    call_command("verify_export", str(path), "--key-id", genuine_id)

    other = tmp_path / "other.pub"
    other.write_text(signing.public_b64(other_key()))
    with pytest.raises(CommandError, match="signed by an unknown key"):
        call_command("verify_export", str(path), "--keys", str(other))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"keys": [{"key_id": "0" * 32, "public_key": other.read_text()}]}))
    with pytest.raises(CommandError, match="not the fingerprint"):
        call_command("verify_export", str(path), "--keys", str(bad))
