"""A full or read-only witness directory: the write fails with an error naming the file, and no
empty or partial file is left behind (the next write, once there is room, succeeds instead of
finding a "different checkpoint" under that name). The disk is made full or read-only by the
operating system's calls failing as they do (a full share cannot be made in a test)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from audit.checkpoints import witness as witness_module
from audit.checkpoints.witness import DirectoryWitness, WitnessUnwritable


def _fail(code: int) -> Any:
    def failing(*args: Any, **kwargs: Any) -> Any:
        raise OSError(code, os.strerror(code))

    return failing


def test_a_full_witness_leaves_no_file_and_names_the_file(tmp_path: Path, monkeypatch: Any) -> None:
    witness = DirectoryWitness(tmp_path / "witness")
    monkeypatch.setattr(witness_module.os, "fsync", _fail(errno.ENOSPC))
    with pytest.raises(WitnessUnwritable) as error:
        witness.write("checkpoint-0000000001.json", b'{"a": 1}\n')
    assert str(tmp_path / "witness" / "checkpoint-0000000001.json") in str(error.value)
    assert "No space left on device" in str(error.value)
    assert list((tmp_path / "witness").iterdir()) == []  # neither the file nor a temporary one
    monkeypatch.undo()
    witness.write("checkpoint-0000000001.json", b'{"a": 1}\n')  # room again: written whole
    assert (tmp_path / "witness" / "checkpoint-0000000001.json").read_bytes() == b'{"a": 1}\n'


def test_a_read_only_witness_names_the_file(tmp_path: Path, monkeypatch: Any) -> None:
    witness = DirectoryWitness(tmp_path / "witness")
    (tmp_path / "witness").mkdir()
    monkeypatch.setattr(witness_module.os, "open", _fail(errno.EROFS))
    with pytest.raises(WitnessUnwritable) as error:
        witness.write("heads/2026-12-01/head-000000000007.json", b"{}\n")
    assert "head-000000000007.json" in str(error.value) and "Read-only file system" in str(error.value)
    monkeypatch.undo()
    assert not (tmp_path / "witness" / "heads" / "2026-12-01" / "head-000000000007.json").exists()
