"""Signed notes and cosignatures (tlog.note) against the reference vectors.

Vectors copied from: Go's ``golang.org/x/mod/sumdb/note/note_test.go`` (BSD-style licence,
Copyright 2019 The Go Authors; github.com/golang/mod, commit fe2ec04) and the examples of
C2SP ``signed-note`` v1.0.0 (github.com/C2SP/C2SP, CC BY 4.0 / BSD-1-Clause).
"""

from __future__ import annotations

import pytest

from tlog import note as notes

# --- Go sumdb/note (note_test.go) ---------------------------------------------------------------
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
PETER_SIG = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"
ENOCH_SIG = "— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n"
# --- C2SP signed-note v1.0.0, "Example" --------------------------------------------------------
FOO_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
FOO_NOTE = (
    "This is an example message.\n\n"
    "— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
)


def test_go_verifier_key_and_its_manglings() -> None:
    verifier = notes.parse_vkey(PETER_VKEY)
    assert (verifier.name, verifier.key_id, verifier.vkey) == ("PeterNeumann", 0xC74F20A3, PETER_VKEY)
    raw = PETER_VKEY.encode()
    bad = [
        raw[i:j] for i in range(len(raw) + 1) for j in range(i + 1, len(raw) + 1) if (i, j) != (0, len(raw))
    ]
    bad += [raw[:i] + bytes([raw[i] + 1]) + raw[i + 1 :] for i in range(len(raw))]
    bad += [
        b"PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",  # wrong length
        b"PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",  # unknown algorithm
    ]
    for key in bad:
        with pytest.raises(notes.NoteError):
            notes.parse_vkey(key.decode("utf-8", "replace"))


def test_go_signer_key_signs_the_reference_note() -> None:
    signer = notes.Signer.from_skey(PETER_SKEY)
    assert signer.verifier.vkey == PETER_VKEY and signer.skey == PETER_SKEY
    assert notes.sign(TEXT, signer) == TEXT + "\n" + PETER_SIG
    with pytest.raises(notes.NoteError, match="malformed"):
        notes.sign("abc", signer)
    raw = PETER_SKEY.encode()
    for i in range(len(raw)):
        mangled = raw[:i] + bytes([raw[i] + 1]) + raw[i + 1 :]
        with pytest.raises(notes.NoteError):
            notes.Signer.from_skey(mangled.decode("utf-8", "replace"))
    for i, j in [(0, 10), (1, len(raw)), (0, len(raw) - 1), (12, len(raw))]:
        with pytest.raises(notes.NoteError):
            notes.Signer.from_skey(raw[i:j].decode())


def test_go_open() -> None:
    peter, enoch = notes.parse_vkey(PETER_VKEY), notes.parse_vkey(ENOCH_VKEY)
    opened = notes.open_note(TEXT + "\n" + PETER_SIG + ENOCH_SIG, [peter])
    assert opened.text == TEXT
    assert [s.name for s in opened.signatures] == ["PeterNeumann"]
    assert [s.name for s in opened.unverified] == ["EnochRoot"]
    both = notes.open_note(TEXT + "\n" + PETER_SIG + ENOCH_SIG, [peter, enoch])
    assert [s.name for s in both.signatures] == ["PeterNeumann", "EnochRoot"] and not both.unverified
    with pytest.raises(notes.UnverifiedNote, match="no verifiable signatures") as unverified:
        notes.open_note(TEXT + "\n" + PETER_SIG + ENOCH_SIG, [])
    assert len(unverified.value.note.unverified) == 2
    with pytest.raises(notes.NoteError, match="ambiguous key EnochRoot\\+af0cfe78"):
        notes.open_note(
            TEXT + "\n" + ENOCH_SIG, [enoch, peter, notes.Verifier(enoch.name, enoch.key_id, 1, b"x" * 32)]
        )
    with pytest.raises(notes.NoteError, match="malformed"):
        notes.open_note(TEXT + "\n" + PETER_SIG * 101, [peter])
    with pytest.raises(notes.InvalidNoteSignature, match="invalid signature for key PeterNeumann\\+c74f20a3"):
        notes.open_note(TEXT + "\n" + PETER_SIG[:60] + "ABCD" + PETER_SIG[60:], [peter])
    # repeated signatures kept once; a mangled unknown one listed apart
    enoch_abcd = ENOCH_SIG[:60] + "ABCD" + ENOCH_SIG[60:]
    repeated = notes.open_note(
        TEXT + "\n" + PETER_SIG + PETER_SIG + ENOCH_SIG + ENOCH_SIG + enoch_abcd, [peter]
    )
    assert len(repeated.signatures) == 1 and len(repeated.unverified) == 2
    for bad in [
        TEXT,
        TEXT + "\n",
        TEXT + "\n" + PETER_SIG[:-1],
        "\x01" + TEXT + "\n" + PETER_SIG,
        TEXT
        + "\n"
        + "— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=",
        TEXT + "\n" + PETER_SIG + "Unexpected line.\n",
    ]:
        with pytest.raises(notes.NoteError, match="malformed"):
            notes.open_note(bad, [peter])
    with pytest.raises(notes.NoteError, match="malformed"):
        notes.open_note(b"\xff" + (TEXT + "\n" + PETER_SIG).encode(), [peter])


def test_c2sp_signed_note_example() -> None:
    verifier = notes.parse_vkey(FOO_VKEY)
    opened = notes.open_note(FOO_NOTE, [verifier])
    assert opened.text == "This is an example message.\n" and opened.signatures[0].key_id == 0x530D903A


def test_cosignature_v1_signs_header_time_and_text() -> None:
    witness = notes.Signer.generate("witness.example/w1", notes.COSIGNATURE_V1)
    text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    line = witness.signature_line(text, timestamp=1679315147)
    assert notes.cosigned_message(text, 1679315147) == (
        b"cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\n"
        b"CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    )
    log = notes.Signer.generate("example.com/behind-the-sofa")
    opened = notes.open_note(notes.sign(text, log) + line, [log.verifier, witness.verifier])
    cosignature = opened.signed_by(witness.verifier)
    assert cosignature is not None and cosignature.timestamp == 1679315147
    # the key ID is of type 0x04: the same key as a note key (0x01) is another key
    assert witness.key_id == notes.key_id(witness.name, 0x04, witness.public)
    assert notes.parse_vkey(witness.verifier.vkey) == witness.verifier
    # a cosignature is bound to its time: another time fails the whole note
    forged = line.replace(line.split(" ")[2], _with_time(line.split(" ")[2], 1679315148))
    with pytest.raises(notes.InvalidNoteSignature):
        notes.open_note(notes.sign(text, log) + forged, [log.verifier, witness.verifier])
    with pytest.raises(notes.NoteError, match="timestamp"):
        witness.signature_line(text)


def _with_time(encoded: str, timestamp: int) -> str:
    import base64

    raw = base64.b64decode(encoded.strip())
    return base64.b64encode(raw[:4] + timestamp.to_bytes(8, "big") + raw[12:]).decode() + "\n"
