"""The ``add-checkpoint`` call of C2SP ``tlog-witness`` v1.0.0: its request body and answers.

Request: ``old <size>``, at most 63 base64 consistency-proof lines, a blank line, then the
signed checkpoint. Answers: 200 with the witness's cosignature lines; 400 bad request;
403 no trusted signature (or a failing one); 404 unknown origin; 409 with the size the
witness holds (``Content-Type: text/x.tlog.size``); 422 a proof that does not verify.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

SIZE_CONTENT_TYPE = "text/x.tlog.size"
MAX_PROOF = 63


class RequestError(ValueError):
    """A request body that is not an add-checkpoint request (400)."""


@dataclass(frozen=True)
class AddCheckpoint:
    old_size: int
    proof: list[bytes]
    checkpoint: str  # the signed note, as sent

    @property
    def body(self) -> bytes:
        lines = [f"old {self.old_size}", *(base64.b64encode(h).decode() for h in self.proof)]
        return ("".join(line + "\n" for line in lines) + "\n" + self.checkpoint).encode("utf-8")


def _decimal(text: str) -> int:
    if not text.isascii() or not text.isdigit() or (text != "0" and text.startswith("0")):
        raise RequestError(f"not a decimal without leading zeroes: {text!r}")
    return int(text)


def parse_request(body: bytes) -> AddCheckpoint:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError("the body is not UTF-8") from error
    head, sep, checkpoint = text.partition("\n\n")
    if not sep:
        raise RequestError("no blank line before the checkpoint")
    lines = head.split("\n")
    if not lines[0].startswith("old "):
        raise RequestError("the first line is not 'old <size>'")
    old = _decimal(lines[0][4:])
    if len(lines) - 1 > MAX_PROOF:
        raise RequestError("more than 63 consistency proof lines")
    proof = []
    for line in lines[1:]:
        try:
            digest = base64.b64decode(line.encode("ascii"), validate=True)
        except (binascii.Error, UnicodeEncodeError) as error:
            raise RequestError("a proof line is not base64") from error
        if len(digest) != 32:
            raise RequestError("a proof line is not a SHA-256 hash")
        proof.append(digest)
    return AddCheckpoint(old, proof, checkpoint)


def parse_size(body: bytes) -> int:
    """The size a 409 answer holds (``<size>\\n``)."""
    text = body.decode("ascii", "replace")
    if not text.endswith("\n"):
        raise RequestError("a size answer ends with a newline")
    return _decimal(text[:-1])
