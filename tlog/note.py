"""Signed notes (C2SP ``signed-note`` v1.0.0) with Ed25519 keys, and Ed25519 cosignatures
(C2SP ``tlog-cosignature`` v1.0.1, ``cosignature/v1``).

A note is a text ending in a newline, a blank line, then signature lines
``— <key name> base64(key ID || signature)``. A key is named and identified by
``key ID = SHA-256(name || 0x0A || type || public key)[:4]``; a verifier key (vkey) is
``name+hex(key ID)+base64(type || public key)``, a signer key (as Go's
``golang.org/x/mod/sumdb/note`` writes it) ``PRIVATE+KEY+name+hex(key ID)+base64(type || seed)``.

:func:`open_note` follows Go's ``note.Open``: signatures by unknown keys are ignored,
a known key's signature that fails rejects the whole note, and a note with no verified
signature is rejected.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
import struct
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature as _BadSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519 = 0x01  # a note signature over the text
COSIGNATURE_V1 = 0x04  # a timestamped Ed25519 checkpoint cosignature
DASH = "\u2014"  # the em dash opening a signature line
MAX_SIGNATURES = 100


class NoteError(ValueError):
    """A malformed note, key or signature."""


class UnverifiedNote(NoteError):
    """No signature of the note is by a known key."""

    def __init__(self, note: Note) -> None:
        super().__init__("note has no verifiable signatures")
        self.note = note


class InvalidNoteSignature(NoteError):
    """A known key's signature does not verify: the whole note is rejected."""

    def __init__(self, name: str, key_id: int) -> None:
        super().__init__(f"invalid signature for key {name}+{key_id:08x}")
        self.name = name
        self.key_id = key_id


def valid_name(name: str) -> bool:
    return bool(name) and not any(c.isspace() for c in name) and "+" not in name


def _b64decode(text: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError) as error:
        raise NoteError("bad base64") from error


def key_id(name: str, kind: int, public: bytes) -> int:
    digest = hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([kind]) + public).digest()
    return int.from_bytes(digest[:4], "big")


def cosigned_message(text: str, timestamp: int) -> bytes:
    """What an Ed25519 ``cosignature/v1`` signs: header, time line, then the checkpoint's text."""
    return f"cosignature/v1\ntime {timestamp}\n".encode() + text.encode("utf-8")


@dataclass(frozen=True)
class Verifier:
    """A public key that verifies notes (type 0x01) or cosignatures (type 0x04)."""

    name: str
    key_id: int
    kind: int
    public: bytes

    @property
    def vkey(self) -> str:
        encoded = base64.b64encode(bytes([self.kind]) + self.public).decode()
        return f"{self.name}+{self.key_id:08x}+{encoded}"

    def verify(self, text: str, signature: bytes) -> bool:
        """The signature's bytes after the key ID, over the note's text."""
        key = Ed25519PublicKey.from_public_bytes(self.public)
        if self.kind == COSIGNATURE_V1:
            if len(signature) != 8 + 64:
                return False
            (timestamp,) = struct.unpack(">Q", signature[:8])
            if timestamp >= 1 << 63:
                return False
            message, signature = cosigned_message(text, timestamp), signature[8:]
        else:
            message = text.encode("utf-8")
        try:
            key.verify(signature, message)
        except _BadSignature:
            return False
        return True


def parse_vkey(vkey: str) -> Verifier:
    """A verifier key ``name+hex(id)+base64(type || key)``; NoteError when anything is off."""
    name, _, rest = vkey.partition("+")
    hex_id, _, encoded = rest.partition("+")
    if len(hex_id) != 8 or not valid_name(name) or any(c not in "0123456789abcdefABCDEF" for c in hex_id):
        raise NoteError("malformed verifier id")
    key = _b64decode(encoded)
    if not key:
        raise NoteError("malformed verifier id")
    if int(hex_id, 16) != key_id(name, key[0], key[1:]):
        raise NoteError("invalid verifier hash")
    if key[0] not in (ED25519, COSIGNATURE_V1):
        raise NoteError("unknown verifier algorithm")
    if len(key) != 33:
        raise NoteError("malformed verifier id")
    return Verifier(name, int(hex_id, 16), key[0], key[1:])


@dataclass(frozen=True)
class Signer:
    """A private Ed25519 key that signs notes (type 0x01) or cosigns checkpoints (type 0x04)."""

    name: str
    kind: int
    seed: bytes = field(repr=False)

    @classmethod
    def generate(cls, name: str, kind: int = ED25519) -> Signer:
        if not valid_name(name):
            raise NoteError(f"invalid key name {name!r}")
        return cls(name, kind, secrets.token_bytes(32))

    @classmethod
    def from_skey(cls, skey: str) -> Signer:
        """``PRIVATE+KEY+name+hex(id)+base64(type || seed)``, the ID checked against the key."""
        parts = skey.split("+", 4)
        if len(parts) != 5 or parts[:2] != ["PRIVATE", "KEY"]:
            raise NoteError("malformed signer id")
        _, _, name, hex_id, encoded = parts
        if len(hex_id) != 8 or not valid_name(name) or any(c not in "0123456789abcdefABCDEF" for c in hex_id):
            raise NoteError("malformed signer id")
        key = _b64decode(encoded)
        if not key or key[0] not in (ED25519, COSIGNATURE_V1):
            raise NoteError("unknown signer algorithm")
        if len(key) != 33:
            raise NoteError("malformed signer id")
        signer = cls(name, key[0], key[1:])
        if signer.key_id != int(hex_id, 16):
            raise NoteError("invalid signer hash")
        return signer

    @property
    def _private(self) -> Ed25519PrivateKey:
        return Ed25519PrivateKey.from_private_bytes(self.seed)

    @property
    def public(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @property
    def key_id(self) -> int:
        return key_id(self.name, self.kind, self.public)

    @property
    def skey(self) -> str:
        encoded = base64.b64encode(bytes([self.kind]) + self.seed).decode()
        return f"PRIVATE+KEY+{self.name}+{self.key_id:08x}+{encoded}"

    @property
    def verifier(self) -> Verifier:
        return Verifier(self.name, self.key_id, self.kind, self.public)

    def signature_line(self, text: str, *, timestamp: int | None = None) -> str:
        """``— name base64(id || signature)`` over a note's text (a cosignature: with its time)."""
        if self.kind == COSIGNATURE_V1:
            if timestamp is None or not 0 < timestamp < 1 << 63:
                raise NoteError("a cosignature needs a timestamp")
            raw = struct.pack(">Q", timestamp) + self._private.sign(cosigned_message(text, timestamp))
        else:
            raw = self._private.sign(text.encode("utf-8"))
        encoded = base64.b64encode(struct.pack(">I", self.key_id) + raw).decode()
        return f"{DASH} {self.name} {encoded}\n"


@dataclass(frozen=True)
class Signature:
    name: str
    key_id: int
    b64: str

    @property
    def line(self) -> str:
        return f"{DASH} {self.name} {self.b64}\n"

    @property
    def raw(self) -> bytes:
        return _b64decode(self.b64)[4:]

    @property
    def timestamp(self) -> int | None:
        """A cosignature's time (seconds since the Epoch); None for a shorter signature."""
        raw = self.raw
        return struct.unpack(">Q", raw[:8])[0] if len(raw) == 72 else None


@dataclass
class Note:
    text: str
    signatures: list[Signature] = field(default_factory=list)  # verified, in the note's order
    unverified: list[Signature] = field(default_factory=list)  # by unknown keys

    def signed_by(self, verifier: Verifier) -> Signature | None:
        return next(
            (s for s in self.signatures if (s.name, s.key_id) == (verifier.name, verifier.key_id)), None
        )


def check_text(text: str) -> None:
    if not text.endswith("\n") or any(ord(c) < 0x20 and c != "\n" for c in text):
        raise NoteError("malformed note")


def sign(text: str, *signers: Signer, timestamp: int | None = None) -> str:
    """The note: its text, a blank line, one signature line per signer."""
    check_text(text)
    return text + "\n" + "".join(s.signature_line(text, timestamp=timestamp) for s in signers)


def assemble(text: str, signatures: list[Signature]) -> str:
    """A note from its text and signatures (e.g. the log's, then a witness's cosignatures)."""
    check_text(text)
    return text + "\n" + "".join(s.line for s in signatures)


def signature_lines(block: str) -> list[Signature]:
    """Signature lines alone (a witness's answer), each checked as in a note."""
    return split("x\n\n" + block)[1]


def split(message: str | bytes) -> tuple[str, list[Signature]]:
    """The text and the signature lines of a note, every line checked (NoteError otherwise)."""
    if isinstance(message, bytes):
        try:
            message = message.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NoteError("malformed note") from error
    if any(ord(c) < 0x20 and c != "\n" for c in message) or "\ufffd" in message:
        raise NoteError("malformed note")
    at = message.rfind("\n\n")
    if at < 0:
        raise NoteError("malformed note")
    text, block = message[: at + 1], message[at + 2 :]
    if not block.endswith("\n"):
        raise NoteError("malformed note")
    signatures = []
    for line in block[:-1].split("\n"):
        if not line.startswith(DASH + " "):
            raise NoteError("malformed note")
        name, _, encoded = line[2:].partition(" ")
        try:
            raw = _b64decode(encoded)
        except NoteError as error:
            raise NoteError("malformed note") from error
        if not valid_name(name) or not encoded or len(raw) < 5:
            raise NoteError("malformed note")
        signatures.append(Signature(name, int.from_bytes(raw[:4], "big"), encoded))
        if len(signatures) > MAX_SIGNATURES:
            raise NoteError("malformed note")
    return text, signatures


def open_note(message: str | bytes, known: list[Verifier]) -> Note:
    """Parse a note and verify its signatures by the known keys (Go's ``note.Open``)."""
    text, signatures = split(message)
    by_id: dict[tuple[str, int], list[Verifier]] = {}
    for verifier in known:
        if verifier not in by_id.setdefault((verifier.name, verifier.key_id), []):
            by_id[(verifier.name, verifier.key_id)].append(verifier)
    note = Note(text)
    seen: set[tuple[str, int]] = set()
    for signature in signatures:
        found = by_id.get((signature.name, signature.key_id))
        if not found:
            if signature not in note.unverified:
                note.unverified.append(signature)
            continue
        if len(found) > 1:
            raise NoteError(f"ambiguous key {signature.name}+{signature.key_id:08x}")
        if (signature.name, signature.key_id) in seen:
            continue
        seen.add((signature.name, signature.key_id))
        if not found[0].verify(text, signature.raw):
            raise InvalidNoteSignature(signature.name, signature.key_id)
        note.signatures.append(signature)
    if not note.signatures:
        raise UnverifiedNote(note)
    return note
