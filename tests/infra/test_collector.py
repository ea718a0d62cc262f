"""infra/collector.py: a server process freezes what it loaded out of the garbage
collector's scans and raises its thresholds; ``GC_THRESHOLD`` sets them or turns it off."""

from __future__ import annotations

import subprocess
import sys

import pytest

from infra.collector import threshold_from
from tests.kingdom.test_settings import PRODUCTION, run_django

LOADED = "import kingdom.asgi, gc; print(gc.get_threshold(), gc.get_freeze_count() > 10000)"


def test_a_loaded_server_freezes_its_start_up_and_raises_the_thresholds():
    done = run_django(LOADED, **PRODUCTION)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "(20000, 20, 20) True"


def test_gc_threshold_sets_them_and_off_leaves_pythons_own():
    done = run_django(LOADED, **PRODUCTION, GC_THRESHOLD="5000,10,30")
    assert done.stdout.split("\n")[0] == "(5000, 10, 30) True", done.stderr
    done = run_django(LOADED, **PRODUCTION, GC_THRESHOLD="off")
    # Python's own thresholds differ by version: 3.13 raised the first from 700 to 2000.
    own = subprocess.run(
        [sys.executable, "-c", "import gc; print(gc.get_threshold())"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert done.stdout.split("\n")[0] == f"{own} False", done.stderr


@pytest.mark.parametrize("value", ["1000", "0,10,10", "a,b,c", ""])
def test_a_malformed_gc_threshold_is_refused(value):
    with pytest.raises(ValueError):
        threshold_from(value)
