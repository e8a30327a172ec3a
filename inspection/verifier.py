#!/usr/bin/env python3
"""Offline verifier of the casino's audit record, for officers: one file, from files only.

It needs Python 3.10+ and the ``cryptography`` package, nothing of the casino's
system (no Django, no database, no network). It checks:

``python verifier.py inclusion PROOF.json --ca ca.pem [--trusted CHECKPOINT.json]``
    that the event in an inclusion proof is in the casino's audit record: the
    proof leads from the event's bytes to the Merkle tree head (RFC 9162
    §2.1.3.2) that the checkpoint in the proof signs, and that signature holds
    against the CA. ``--trusted``: a checkpoint you kept; the proof's
    checkpoint must be it, or ``--consistency FILE`` must prove that one of
    the two extends the other; otherwise the check fails (exit 1).

``python verifier.py consistency PROOF.json --ca ca.pem [--trusted CHECKPOINT.json]``
    that the later checkpoint of the proof extends the earlier one: the record
    only grew, nothing in it was changed or removed (RFC 9162 §2.1.4.2). With
    ``--trusted``, the earlier checkpoint must be the one you kept (the same
    tree size and head): this is how yesterday's checkpoint proves today's.

``python verifier.py checkpoint CHECKPOINT.json --ca ca.pem``
    a checkpoint's CMS signature (detached, over its statement) and its signer's
    certificate, issued by the CA.

``python verifier.py pdf REGISTER.pdf (--sha256 HEX | --record FILE.json)``
    that a register PDF is the one the casino recorded: its SHA-256 against the
    recorded one (given, or read from a report record of the officers' API or
    from an inclusion proof's event, which is then checked too).

``python verifier.py tlog-proof EVENT.tlog-proof --policy POLICY``
    that the event a C2SP tlog proof carries (its ``extra`` line: the event's bytes) is at its
    index in a checkpoint the casino's note key signed and the authority's witnesses cosigned
    as the policy requires (C2SP ``tlog-policy``: the casino's log key, the witnesses' keys, the
    quorum); prints each witness's time. The policy comes from the authority, not the casino.

``python verifier.py pdf REGISTER.pdf --record EVENT.tlog-proof --policy POLICY``
    a register against the SHA-256 its ``register.printed`` event recorded, that event proven as above.

``python verifier.py pdf REGISTER.pdf --policy POLICY [--ca ca.pem]``
    a register by the proof it carries: the print attaches to the PDF, before signing it, the
    tlog proof of its issuing event (``register.issued``, sealed before the pages were laid out:
    the register, its period, its table and the digest of its content), and writes on every
    page's foot that event's number, the register and the digest. The proof is checked under
    the policy as above, and its event must be the one the foot names, for this register, this
    period and this content digest. Prints "registre émis par l'événement n° N du journal
    ORIGIN, cosigné par k témoins sur n". A PDF without a proof, with another register's, with
    a proof altered or under a policy not met fails. The PDF's own signature binds its pages
    to the proof: with ``--ca``, it is checked too (a detached CMS over the file's byte range,
    by a certificate the CA issued, covering the whole file).
``python verifier.py visa EVENT.json --enrolment ENROLMENT.json --authority authority.pem``
    that an officer's act (a visa, a stamp, a closure, a demand) is his own: the event (an
    inclusion proof's, or the event alone) carries his passkey's WebAuthn assertion over the
    statement of exactly this act; the statement's SHA-256 is the assertion's challenge; the
    signature over ``authenticatorData || SHA-256(clientDataJSON)`` holds with the public key
    of his enrolment; the enrolment is signed by the authority's certificate and was in force
    when he signed. It prints "visa de l'officier X vérifié" with the act, its time and the
    fingerprint the registers print beside the visa. Check the inclusion proof itself with
    ``inclusion``.

Exit status: 0 when everything holds, 1 when something does not (each failure
on a line starting with FAILED), 2 for unusable input.

The leaf of event ``seq`` is leaf ``seq - 1``; its bytes are
``recorded_at US actor_name US action US object_type US object_id US payload``
in UTF-8 (US: the unit separator, 0x1F). Leaf hash ``SHA-256(0x00 || bytes)``,
node ``SHA-256(0x01 || left || right)``.
"""

from __future__ import annotations

import argparse
import base64
import datetime as dt
import hashlib
import json
import re
import sys
import zlib
from pathlib import Path
from typing import Any

US = "\x1f"


class Unusable(Exception):
    """The input cannot be read (exit 2)."""


# --- RFC 9162 -------------------------------------------------------------------


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def event_bytes(event: dict[str, Any]) -> bytes:
    fields = ["recorded_at", "actor_name", "action", "object_type", "object_id", "payload"]
    return US.join(str(event[f]) for f in fields).encode("utf-8")


def verify_inclusion(index: int, size: int, leaf: bytes, path: list[bytes], root: bytes) -> bool:
    """RFC 9162 §2.1.3.2."""
    if index >= size or index < 0:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: list[bytes]
) -> bool:
    """RFC 9162 §2.1.4.2."""
    if first <= 0 or first > second:
        return False
    if first == second:
        return not proof and first_root == second_root
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn & 1 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == first_root and sr == second_root and sn == 0


# --- DER and CMS (RFC 5652), enough to check a detached signature ------------------


def _tlv(data: bytes, pos: int) -> tuple[int, int, int]:
    """(tag, start of contents, end of contents) of the DER element at ``pos``."""
    if pos + 2 > len(data):
        raise Unusable("truncated DER")
    tag = data[pos]
    length = data[pos + 1]
    pos += 2
    if length & 0x80:
        count = length & 0x7F
        if count == 0 or count > 4 or pos + count > len(data):
            raise Unusable("bad DER length")
        length = int.from_bytes(data[pos : pos + count], "big")
        pos += count
    if pos + length > len(data):
        raise Unusable("truncated DER")
    return tag, pos, pos + length


def _children(data: bytes, start: int, end: int) -> list[tuple[int, int, int, int]]:
    """The elements inside a constructed element: (tag, element start, contents start, end)."""
    out = []
    pos = start
    while pos < end:
        tag, cstart, cend = _tlv(data, pos)
        out.append((tag, pos, cstart, cend))
        pos = cend
    return out


def _oid(raw: bytes) -> str:
    parts = [raw[0] // 40, raw[0] % 40]
    value = 0
    for byte in raw[1:]:
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            parts.append(value)
            value = 0
    return ".".join(str(p) for p in parts)


OID_SIGNED_DATA = "1.2.840.113549.1.7.2"
OID_DATA = "1.2.840.113549.1.7.1"
OID_CONTENT_TYPE = "1.2.840.113549.1.9.3"
OID_MESSAGE_DIGEST = "1.2.840.113549.1.9.4"
DIGESTS = {
    "2.16.840.1.101.3.4.2.1": "sha256",
    "2.16.840.1.101.3.4.2.2": "sha384",
    "2.16.840.1.101.3.4.2.3": "sha512",
}
RSA_PKCS1 = {
    "1.2.840.113549.1.1.1": None,  # rsaEncryption: the digest algorithm says which hash
    "1.2.840.113549.1.1.11": "sha256",
    "1.2.840.113549.1.1.12": "sha384",
    "1.2.840.113549.1.1.13": "sha512",
}
ECDSA = {"1.2.840.10045.4.3.2": "sha256", "1.2.840.10045.4.3.3": "sha384", "1.2.840.10045.4.3.4": "sha512"}


def verify_cms_detached(
    signature: bytes, content: bytes, ca_pem: bytes, at: dt.datetime | None = None
) -> str:
    """Check a detached CMS signature over ``content`` by a certificate the CA issued.

    Returns the signer's subject; raises ValueError saying what does not hold.
    """
    from cryptography import x509

    tag, start, end = _tlv(signature, 0)
    info = _children(signature, start, end)
    if tag != 0x30 or len(info) < 2 or _oid(signature[info[0][2] : info[0][3]]) != OID_SIGNED_DATA:
        raise ValueError("not CMS signed data")
    _t, _s, sd_start, sd_end = _children(signature, info[1][2], info[1][3])[0]
    signed_data = _children(signature, sd_start, sd_end)
    certificates = []
    signer_infos = None
    for el_tag, _el_start, c_start, c_end in signed_data[3:]:
        if el_tag == 0xA0:
            for _ct, cert_start, _cs, cert_end in _children(signature, c_start, c_end):
                certificates.append(x509.load_der_x509_certificate(signature[cert_start:cert_end]))
        elif el_tag == 0x31:
            signer_infos = _children(signature, c_start, c_end)
    encap = _children(signature, signed_data[2][2], signed_data[2][3])
    if len(encap) > 1:
        raise ValueError("the signature embeds its content: a detached signature is expected")
    if not signer_infos:
        raise ValueError("no signer")
    fields = _children(signature, signer_infos[0][2], signer_infos[0][3])
    sid = fields[1]
    if sid[0] != 0x30:
        raise ValueError("unsupported signer identifier")
    issuer_and_serial = _children(signature, sid[2], sid[3])
    issuer_der = signature[issuer_and_serial[0][1] : issuer_and_serial[0][3]]
    serial = int.from_bytes(signature[issuer_and_serial[1][2] : issuer_and_serial[1][3]], "big", signed=True)
    signer = next(
        (c for c in certificates if c.serial_number == serial and c.issuer.public_bytes() == issuer_der),
        None,
    )
    if signer is None:
        raise ValueError("the signer's certificate is not in the signature")
    digest_alg = _children(signature, fields[2][2], fields[2][3])[0]
    digest_oid = _oid(signature[digest_alg[2] : digest_alg[3]])
    if digest_oid not in DIGESTS:
        raise ValueError(f"unsupported digest algorithm {digest_oid}")
    digest_name = DIGESTS[digest_oid]
    attrs = fields[3]
    if attrs[0] != 0xA0:
        raise ValueError("no signed attributes")
    message_digest, content_type = _digest_and_content_type(signature, attrs)
    if content_type != OID_DATA:
        raise ValueError("the signed content type is not data")
    if message_digest != hashlib.new(digest_name, content).digest():
        raise ValueError("the signed digest is not the content's: the statement was changed")
    signed_attrs = b"\x31" + signature[attrs[1] + 1 : attrs[3]]
    sig_alg = _children(signature, fields[4][2], fields[4][3])
    sig_oid = _oid(signature[sig_alg[0][2] : sig_alg[0][3]])
    sig_value = signature[fields[5][2] : fields[5][3]]
    _verify_signature_value(signer.public_key(), sig_oid, sig_value, signed_attrs, digest_name)
    _check_issued_by_ca(signer, certificates, ca_pem, at)
    return signer.subject.rfc4514_string()


def _digest_and_content_type(signature: bytes, attrs: Any) -> tuple[bytes | None, str | None]:
    """The message digest and the content type among the signed attributes ``attrs``."""
    message_digest = content_type = None
    for _at, _as, a_start, a_end in _children(signature, attrs[2], attrs[3]):
        attr = _children(signature, a_start, a_end)
        attr_oid = _oid(signature[attr[0][2] : attr[0][3]])
        value = _children(signature, attr[1][2], attr[1][3])[0]
        if attr_oid == OID_MESSAGE_DIGEST:
            message_digest = signature[value[2] : value[3]]
        elif attr_oid == OID_CONTENT_TYPE:
            content_type = _oid(signature[value[2] : value[3]])
    return message_digest, content_type


def _verify_signature_value(
    key: Any, sig_oid: str, sig_value: bytes, signed_attrs: bytes, digest_name: str
) -> None:
    """The signer's ``key`` signed ``signed_attrs`` (RSA PKCS#1 v1.5 or ECDSA); ValueError if not."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

    hash_for = {"sha256": hashes.SHA256(), "sha384": hashes.SHA384(), "sha512": hashes.SHA512()}
    try:
        if sig_oid in RSA_PKCS1 and isinstance(key, rsa.RSAPublicKey):
            algorithm = hash_for[RSA_PKCS1[sig_oid] or digest_name]
            key.verify(sig_value, signed_attrs, padding.PKCS1v15(), algorithm)
        elif sig_oid in ECDSA and isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(sig_value, signed_attrs, ec.ECDSA(hash_for[ECDSA[sig_oid]]))
        else:
            raise ValueError(f"unsupported signature algorithm {sig_oid}")
    except InvalidSignature:
        raise ValueError("the signature does not hold (statement or signature changed)") from None


def _check_issued_by_ca(signer: Any, certificates: list[Any], ca_pem: bytes, at: dt.datetime | None) -> None:
    from cryptography import x509

    roots = x509.load_pem_x509_certificates(ca_pem)
    moment = at or dt.datetime.now(dt.UTC)
    current = signer
    for _depth in range(8):
        if not current.not_valid_before_utc <= moment <= current.not_valid_after_utc:
            raise ValueError(
                f"the certificate {current.subject.rfc4514_string()} was not valid at {moment:%Y-%m-%d %H:%M}"
            )
        for root in roots:
            if root.subject == current.issuer:
                try:
                    current.verify_directly_issued_by(root)
                except Exception:  # not this root: try the next one
                    continue
                return
        parent = next((c for c in certificates if c.subject == current.issuer and c != current), None)
        if parent is None:
            break
        current.verify_directly_issued_by(parent)
        current = parent
    raise ValueError("the signer's certificate was not issued by the given CA")


# --- Checkpoints and proofs --------------------------------------------------------------


def _load_json(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise Unusable(f"{path}: {error}") from error
    if not isinstance(data, dict):
        raise Unusable(f"{path}: not a JSON object")
    return data


def _hex(value: Any, what: str) -> bytes:
    try:
        raw = bytes.fromhex(str(value))
    except ValueError:
        raise Unusable(f"{what} is not hexadecimal") from None
    if len(raw) != 32:
        raise Unusable(f"{what} is not a SHA-256")
    return raw


def statement_of(checkpoint: dict[str, Any]) -> dict[str, Any]:
    try:
        statement: dict[str, Any] = json.loads(checkpoint["statement"])
        int(statement["seq"])
    except (KeyError, ValueError, TypeError):
        raise Unusable("the checkpoint's statement is unreadable") from None
    return statement


def check_checkpoint(checkpoint: dict[str, Any], ca_pem: bytes | None, failures: list[str]) -> dict[str, Any]:
    """The statement of a checkpoint file, after checking its signature (when a CA is given)."""
    statement = statement_of(checkpoint)
    label = (
        f"checkpoint no. {statement.get('number', '?')} (seq {statement['seq']}, {statement.get('time', '')})"
    )
    if ca_pem is None:
        print(f"NOTE: {label}: signature not checked (no --ca given)")
        return statement
    try:
        at = dt.datetime.strptime(statement["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC)
    except (KeyError, ValueError):
        at = None
    try:
        signer = verify_cms_detached(
            base64.b64decode(checkpoint.get("signature", "")),
            checkpoint["statement"].encode("utf-8"),
            ca_pem,
            at,
        )
    except ValueError as error:
        failures.append(f"{label}: {error}")
    else:
        print(f"OK: {label} signed by {signer}")
    return statement


def _trusted(args: argparse.Namespace) -> dict[str, Any] | None:
    return statement_of(_load_json(args.trusted)) if getattr(args, "trusted", None) else None


def _ca(args: argparse.Namespace) -> bytes | None:
    if not getattr(args, "ca", None):
        return None
    try:
        return Path(args.ca).read_bytes()
    except OSError as error:
        raise Unusable(f"{args.ca}: {error}") from error


def cmd_checkpoint(args: argparse.Namespace) -> list[str]:
    failures: list[str] = []
    ca = _ca(args)
    if ca is None:
        raise Unusable("give the CA certificate with --ca")
    check_checkpoint(_load_json(args.file), ca, failures)
    return failures


def _root_of(statement: dict[str, Any], label: str, failures: list[str]) -> tuple[int, bytes] | None:
    if "root" not in statement or not statement["root"]:
        failures.append(f"{label}: the checkpoint signs no Merkle tree head")
        return None
    return int(statement.get("tree_size", statement["seq"])), _hex(statement["root"], "root")


def cmd_inclusion(args: argparse.Namespace) -> list[str]:
    proof = _load_json(args.file)
    failures: list[str] = []
    statement = check_checkpoint(proof.get("checkpoint") or {}, _ca(args), failures)
    signed = _root_of(statement, "checkpoint", failures)
    try:
        event = proof["event"]
        seq = int(event["seq"])
        index, size = int(proof["leaf_index"]), int(proof["tree_size"])
        path = [_hex(h, "path") for h in proof["path"]]
        root = _hex(proof["root"], "root")
    except (KeyError, ValueError, TypeError):
        raise Unusable("the inclusion proof is incomplete") from None
    if index != seq - 1:
        failures.append(f"event {seq} is not leaf {index}")
    if signed is not None and (size, root) != signed:
        failures.append(
            f"the proof's tree head (size {size}) is not the one the checkpoint signs (size {signed[0]})"
        )
    if not verify_inclusion(index, size, leaf_hash(event_bytes(event)), path, root):
        failures.append(f"event {seq} is not in the tree of {size} events: the proof does not hold")
    trusted = _trusted(args)
    if trusted is not None:
        _against_kept(trusted, (size, root), getattr(args, "consistency", None), failures)
    if not failures:
        print(
            f"OK: event {seq} ({event.get('action')} {event.get('object_type')}:{event.get('object_id')}) is in the record of {size} events"
        )
    return failures


def _against_kept(
    trusted: dict[str, Any], head: tuple[int, bytes], consistency: str | None, failures: list[str]
) -> None:
    """The proof's tree head against the checkpoint the officer kept: the same head, or one of the
    two extends the other by the given consistency proof (RFC 9162 §2.1.4.2). Anything else fails:
    without that proof nothing shows that the record was not rewritten since."""
    kept = _root_of(trusted, "the checkpoint you kept", failures)
    if kept is None:
        return
    label = f"the checkpoint you kept (no. {trusted.get('number', '?')}, size {kept[0]})"
    if kept == head:
        return
    if kept[0] == head[0]:
        failures.append(f"the proof's checkpoint is not {label}: the record was rewritten")
        return
    if not consistency:
        failures.append(
            f"the proof's checkpoint (size {head[0]}) is not {label}: give the consistency proof between "
            f"them with --consistency FILE (audit_proof --from-size {min(kept[0], head[0])}, or the "
            f"portal's consistency proof from size {min(kept[0], head[0])}); without it nothing shows "
            "the record was not rewritten"
        )
        return
    proof = _load_json(consistency)
    try:
        path = [_hex(h, "path") for h in proof["path"]]
        sizes = int(proof["first_size"]), int(proof["second_size"])
    except (KeyError, ValueError, TypeError):
        raise Unusable("the consistency proof is incomplete") from None
    first, second = sorted((kept, head))
    if sizes != (first[0], second[0]) or not verify_consistency(
        first[0], second[0], first[1], second[1], path
    ):
        failures.append(
            f"the record of the proof (size {head[0]}) does not extend the checkpoint you kept "
            f"(no. {trusted.get('number', '?')}, size {kept[0]}), nor the other way round: the record was rewritten"
        )
        return
    if head[0] > kept[0]:
        print(f"OK: the proof's checkpoint (size {head[0]}) extends the checkpoint you kept (size {kept[0]})")
    else:
        print(f"OK: the checkpoint you kept (size {kept[0]}) extends the proof's checkpoint (size {head[0]})")


def cmd_consistency(args: argparse.Namespace) -> list[str]:
    proof = _load_json(args.file)
    failures: list[str] = []
    ca = _ca(args)
    trusted = _trusted(args)
    if proof.get("first"):
        first = check_checkpoint(proof["first"], ca, failures)
        a = _root_of(first, "first checkpoint", failures)
    else:  # a proof from a tree size: its first head counts only against a checkpoint you kept
        a = None
        if trusted is None:
            print("NOTE: the proof names no first checkpoint: give the one you kept with --trusted")
    second = check_checkpoint(proof.get("second") or {}, ca, failures)
    b = _root_of(second, "second checkpoint", failures)
    try:
        path = [_hex(h, "path") for h in proof["path"]]
        first_size, second_size = int(proof["first_size"]), int(proof["second_size"])
        first_root, second_root = (
            _hex(proof["first_root"], "first root"),
            _hex(proof["second_root"], "second root"),
        )
    except (KeyError, ValueError, TypeError):
        raise Unusable("the consistency proof is incomplete") from None
    if a is not None and (first_size, first_root) != a:
        failures.append("the proof's first tree head is not the one the first checkpoint signs")
    if b is not None and (second_size, second_root) != b:
        failures.append("the proof's second tree head is not the one the second checkpoint signs")
    if trusted is not None:
        kept = (int(trusted.get("tree_size", trusted["seq"])), _hex(trusted.get("root", ""), "kept root"))
        if kept != (first_size, first_root):
            failures.append(
                f"the earlier tree head is not the one of the checkpoint you kept (no. {trusted.get('number', '?')}, "
                f"size {kept[0]}, root {kept[1].hex()}): the record was rewritten"
            )
        first_root = kept[1] if kept[0] == first_size else first_root
    if not verify_consistency(first_size, second_size, first_root, second_root, path):
        failures.append(
            f"the tree of {second_size} events does not extend the tree of {first_size}: "
            "the consistency proof does not hold (events changed or removed)"
        )
    if not failures:
        print(f"OK: the record of {second_size} events extends the record of {first_size} events")
    return failures


def cmd_pdf(args: argparse.Namespace) -> list[str]:
    try:
        content = Path(args.file).read_bytes()
    except OSError as error:
        raise Unusable(f"{args.file}: {error}") from error
    digest = hashlib.sha256(content).hexdigest()
    failures: list[str] = []
    if not args.sha256 and not args.record:
        if not args.policy:
            raise Unusable("give --policy (the proof the register embeds), --record or --sha256")
        check_register_pdf(content, args.file, args.policy, failures)
        ca = _ca(args)
        if ca is not None:
            check_pdf_signature(content, args.file, ca, failures)
        return failures
    if args.sha256:
        recorded = args.sha256.strip().lower()
    elif Path(args.record).suffix == ".tlog-proof":
        if not args.policy:
            raise Unusable("a tlog proof is checked under the authority's policy: give --policy")
        data = check_tlog_proof(args.record, args.policy, failures)
        try:
            recorded = str(json.loads(data.decode("utf-8").split(US)[5])["sha256"]).lower()
        except (IndexError, KeyError, ValueError, TypeError):
            raise Unusable("the proof's event records no sha256") from None
    else:
        record = _load_json(args.record)
        if "event" in record and "path" in record:  # an inclusion proof: its event records the hash
            failures.extend(cmd_inclusion(argparse.Namespace(file=args.record, ca=args.ca, trusted=None)))
            try:
                recorded = str(json.loads(record["event"]["payload"])["sha256"]).lower()
            except (KeyError, ValueError, TypeError):
                raise Unusable("the proof's event records no sha256") from None
        elif "sha256" in record:
            recorded = str(record["sha256"]).lower()
        else:
            raise Unusable(f"{args.record} holds no sha256")
    if digest != recorded:
        failures.append(
            f"{args.file}: SHA-256 {digest} is not the recorded {recorded}: not the register issued"
        )
    else:
        print(f"OK: {args.file} has the recorded SHA-256 {digest}")
    return failures


# --- A printed register: the tlog proof it embeds and the footer naming its issuing event -------
# The print (inspection/registers/issuing.py) attaches the proof of its issuing event to the PDF and
# writes on every page's foot the event's number, the register and its content digest. Both are
# read here from the file's streams (decompressed when Flate), without a PDF library.

_STREAM = re.compile(rb"(?<!end)stream\r?\n")
_SHOWN = re.compile(rb"\(((?:\\.|[^\\)])*)\)\s*Tj", re.S)
_ISSUED = re.compile(
    r"Émis par l'événement n° (\d+) du journal \(registre ([\w.-]+)(?:, table (\d+))?\) — "
    r"empreinte du contenu ([0-9a-f]{64})"
)
_PERIOD = re.compile(r"— (?:Du (\d\d/\d\d/\d{4}) au (\d\d/\d\d/\d{4})|Journée du (\d\d/\d\d/\d{4})) — ")
_STAMP = b"%register-stamp"


def pdf_streams(data: bytes) -> list[bytes]:
    """Every stream of a PDF file, inflated when Flate-compressed."""
    out = []
    for match in _STREAM.finditer(data):
        start = match.end()
        end = data.find(b"endstream", start)
        if end < 0:
            continue
        head = data[max(0, match.start() - 4096) : match.start()]
        head = head[head.rfind(b"obj") :]
        length = re.search(rb"/Length (\d+)(?!\s+\d+\s+R)", head)
        if length and start + int(length.group(1)) <= end:
            raw = data[start : start + int(length.group(1))]
        else:  # an indirect length: the end of line before "endstream" is not the stream's
            raw = data[start:end]
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1] if raw.endswith((b"\n", b"\r")) else raw
        if b"/FlateDecode" in head:
            try:
                raw = zlib.decompressobj().decompress(raw)
            except zlib.error:
                continue
        out.append(raw)
    return out


def _pdf_string(raw: bytes) -> str:
    """A PDF literal string's text (its escapes undone, WinAnsi as the stamp writes it)."""
    out = bytearray()
    i = 0
    while i < len(raw):
        if raw[i] == 0x5C and i + 1 < len(raw):
            octal = re.match(rb"[0-7]{1,3}", raw[i + 1 : i + 4])
            if octal:
                out.append(int(octal.group(), 8) & 0xFF)
                i += 1 + len(octal.group())
                continue
            out += {b"n": b"\n", b"r": b"\r", b"t": b"\t"}.get(raw[i + 1 : i + 2], raw[i + 1 : i + 2])
            i += 2
            continue
        out.append(raw[i])
        i += 1
    return out.decode("cp1252", "replace")


def _day(text: str) -> str:
    day, month, year = text.split("/")
    return f"{year}-{month}-{day}"


_BYTE_RANGE = re.compile(rb"/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]")


def check_pdf_signature(data: bytes, name: str, ca_pem: bytes, failures: list[str]) -> None:
    """The PDF's last signature (PAdES: a detached CMS over its byte range) holds, by a certificate
    the CA issued, and covers the whole file: the pages and the proof they carry are as signed."""
    ranges = list(_BYTE_RANGE.finditer(data))
    if not ranges:
        failures.append(f"{name}: the PDF is not signed")
        return
    a, b, c, d = (int(x) for x in ranges[-1].groups())
    if a != 0 or not 0 < b < c or c + d != len(data) or data[b : b + 1] != b"<" or data[c - 1 : c] != b">":
        failures.append(
            f"{name}: the signature does not cover the whole file: bytes were added after signing"
        )
        return
    try:
        padded = bytes.fromhex(data[b + 1 : c - 1].decode("ascii"))
        signature = padded[: _tlv(padded, 0)[2]]  # the DER, without the zeros padding its room
        signer = verify_cms_detached(signature, data[a : a + b] + data[c : c + d], ca_pem)
    except (ValueError, Unusable) as error:
        failures.append(f"{name}: the PDF's signature does not hold: {error}")
        return
    print(f"OK: the PDF's signature holds, by {signer}, over the whole file (its pages and its proof)")


def check_register_pdf(
    data: bytes, name: str, policy_path: str, failures: list[str]
) -> dict[str, Any] | None:
    """A printed register against the tlog proof of its issuing event it embeds, under a policy:
    what the proof says (the event, the log, the witnesses), None when no proof can be read."""
    streams = pdf_streams(data)
    proofs = {s for s in streams if s.startswith(TLOG_PROOF.encode() + b"\n")}
    if not proofs:
        failures.append(
            f"{name}: no tlog proof is embedded (a register printed before its proofs were embedded, "
            "or not a register of the casino): check it with --record and its issuing event's proof"
        )
        return None
    if len(proofs) > 1:
        failures.append(f"{name}: {len(proofs)} different tlog proofs are embedded: the file was altered")
        return None
    shown = {_pdf_string(m.group(1)) for s in streams if s.startswith(_STAMP) for m in _SHOWN.finditer(s)}
    issued = {m.groups() for line in shown if (m := _ISSUED.search(line))}
    periods = {m.groups() for line in shown if (m := _PERIOD.search(line))}
    if len(issued) != 1 or len(periods) != 1:
        failures.append(
            f"{name}: its pages' foot does not name one issuing event and one period "
            f"({len(issued)} event(s), {len(periods)} period(s)): not a register as the casino prints it"
        )
        return None
    try:
        text = proofs.pop().decode("utf-8")
    except UnicodeDecodeError:
        raise Unusable(f"{name}: the embedded proof is not text") from None
    info = check_tlog_text(text, f"{name} (embedded proof)", policy_path, failures)
    seq, register, table, content = issued.pop()
    first, last, single = periods.pop()
    date_from, date_to = (_day(single), _day(single)) if single else (_day(first), _day(last))
    period = f"Journée du {single}" if single else f"du {first} au {last}"
    event = info["index"] + 1
    origin, k, n = info["origin"], len(info["cosigned"]), info["witnesses"]
    fields = info["data"].decode("utf-8", "replace").split(US)
    try:
        payload = json.loads(fields[5]) if len(fields) == 6 else {}
    except ValueError:
        payload = {}
    payload = payload if isinstance(payload, dict) else {}
    said = {
        "event": event,
        "action": fields[2] if len(fields) == 6 else "",
        "register": payload.get("register"),
        "table_number": payload.get("table_number"),
        "date_from": payload.get("date_from"),
        "date_to": payload.get("date_to"),
        "content_sha256": payload.get("content_sha256"),
    }
    printed = {
        "event": int(seq),
        "action": "register.issued",
        "register": register,
        "table_number": int(table) if table else None,
        "date_from": date_from,
        "date_to": date_to,
        "content_sha256": content,
    }
    differ = [
        f"{key}: the PDF says {printed[key]!r}, the event {said[key]!r}"
        for key in printed
        if said[key] != printed[key]
    ]
    if differ:
        failures.append(
            f"{name}: the embedded proof's event is not this register's issuing event ({'; '.join(differ)})"
        )
    witnesses = "témoin" if k <= 1 else "témoins"
    claim = (
        f"registre émis par l'événement n° {event} du journal {origin}, cosigné par {k} {witnesses} sur {n} "
        f"(register issued by event no. {event} of the log {origin}, cosigned by {k} of {n} witness(es))"
    )
    print(f"{'OK: ' if not failures else 'NOT VERIFIED: '}{claim}")
    print(
        f"registre {register}{f', table {table}' if table else ''}, {period}, empreinte du contenu {content} "
        f"(register {register}, {date_from} to {date_to}, content digest {content})"
    )
    return {"event": event, "origin": origin, "cosigned": k, "witnesses": n, "register": register}


# --- C2SP signed notes, tlog policies and tlog proofs ------------------------------------------
# signed-note v1.0.0, tlog-checkpoint v1.0.0, tlog-cosignature v1.0.1 (Ed25519 cosignature/v1),
# tlog-policy, tlog-proof (c2sp.org/tlog-proof@v1); the same rules as the project's tlog package.

TLOG_PROOF = "c2sp.org/tlog-proof@v1"


def _b64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError):
        raise Unusable(f"{what}: not base64") from None


def _vkey(text: str) -> tuple[str, int, int, bytes]:
    """A verifier key: (name, key ID, type, Ed25519 public key), its ID checked."""
    name, _, rest = text.partition("+")
    hex_id, _, encoded = rest.partition("+")
    key = _b64(encoded, f"vkey {text}")
    if not name or "+" in name or any(c.isspace() for c in name) or len(hex_id) != 8 or len(key) != 33:
        raise Unusable(f"vkey {text}: malformed")
    if key[0] not in (1, 4) or int(hex_id, 16) != int.from_bytes(
        hashlib.sha256(name.encode() + b"\n" + key).digest()[:4], "big"
    ):
        raise Unusable(f"vkey {text}: its key ID or type is wrong")
    return name, int(hex_id, 16), key[0], key[1:]


def _open_note(
    message: str, keys: list[tuple[str, int, int, bytes]]
) -> tuple[str, dict[tuple[str, int], int]]:
    """The note's text and the known keys whose signature verified (with a cosignature's
    time, 0 for a note signature). A known key's failing signature fails the whole note."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    at = message.rfind("\n\n")
    if at < 0 or not message.endswith("\n") or any(ord(c) < 0x20 and c != "\n" for c in message):
        raise Unusable("the checkpoint is not a signed note")
    text, block = message[: at + 1], message[at + 2 :]
    known = {(name, key_id): (kind, public) for name, key_id, kind, public in keys}
    verified: dict[tuple[str, int], int] = {}
    for line in block[:-1].split("\n"):
        if not line.startswith("\u2014 "):
            raise Unusable("the checkpoint is not a signed note")
        name, _, encoded = line[2:].partition(" ")
        raw = _b64(encoded, "a signature")
        if len(raw) < 5:
            raise Unusable("the checkpoint is not a signed note")
        ident = (name, int.from_bytes(raw[:4], "big"))
        if ident not in known or ident in verified:
            continue
        kind, public = known[ident]
        stamp, signed = 0, text.encode("utf-8")
        signature = raw[4:]
        if kind == 4:
            if len(signature) != 72:
                raise Unusable(f"the cosignature of {name} is malformed")
            stamp, signature = int.from_bytes(signature[:8], "big"), signature[8:]
            signed = f"cosignature/v1\ntime {stamp}\n".encode() + signed
        try:
            Ed25519PublicKey.from_public_bytes(public).verify(signature, signed)
        except InvalidSignature:
            raise Unusable(f"the signature of {name} does not verify: the checkpoint was altered") from None
        verified[ident] = stamp
    return text, verified


def _policy(path: str) -> dict[str, Any]:
    """A tlog-policy file: its logs, witnesses, groups and quorum."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise Unusable(f"{path}: {error}") from error
    policy: dict[str, Any] = {"logs": [], "witnesses": {}, "groups": {}, "quorum": ""}
    for number, line in enumerate(lines, 1):
        words = line.replace("\t", " ").split()
        if not words or words[0].startswith("#"):
            continue
        kind, args = words[0], words[1:]
        defined = {**policy["witnesses"], **policy["groups"]}
        if kind == "log" and len(args) in (1, 2):
            policy["logs"].append(_vkey(args[0]))
        elif kind == "witness" and len(args) in (2, 3) and args[0] not in defined:
            policy["witnesses"][args[0]] = _vkey(args[1])
        elif kind == "group" and len(args) >= 3 and all(m in defined for m in args[2:]):
            n = len(args) - 2
            k = {"all": n, "any": 1}.get(args[1]) or (int(args[1]) if args[1].isdigit() else 0)
            if not 1 <= k <= n or len(set(args[2:])) != n:
                raise Unusable(f"{path}:{number}: a bad group")
            policy["groups"][args[0]] = (k, args[2:])
        elif (
            kind == "quorum"
            and len(args) == 1
            and not policy["quorum"]
            and (args[0] == "none" or args[0] in defined)
        ):
            policy["quorum"] = args[0]
        else:
            raise Unusable(f"{path}:{number}: not a policy line: {line.strip()}")
    if not policy["quorum"] or not policy["logs"]:
        raise Unusable(f"{path}: a policy names the casino's log and a quorum")
    return policy


def _satisfied(policy: dict[str, Any], cosigned: set[str], name: str) -> bool:
    if name == "none":
        return True
    if name in policy["witnesses"]:
        return name in cosigned
    k, members = policy["groups"][name]
    return bool(sum(_satisfied(policy, cosigned, m) for m in members) >= k)


def check_tlog_proof(path: str, policy_path: str, failures: list[str]) -> bytes:
    """Check a tlog proof under a policy; the event's bytes it carries."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise Unusable(f"{path}: {error}") from error
    data: bytes = check_tlog_text(text, path, policy_path, failures)["data"]
    return data


def check_tlog_text(text: str, path: str, policy_path: str, failures: list[str]) -> dict[str, Any]:
    """Check a tlog proof's text under a policy: the event's bytes (``data``), its ``index``, the
    log's ``origin``, the witnesses that ``cosigned`` and the policy's number of ``witnesses``."""
    policy = _policy(policy_path)
    head, _, checkpoint = text.partition("\n\n")
    lines = head.split("\n")
    if (
        lines[0] != TLOG_PROOF
        or len(lines) < 3
        or not lines[1].startswith("extra ")
        or not lines[2].startswith("index ")
    ):
        raise Unusable(f"{path}: not a tlog proof of an event ({TLOG_PROOF}, extra, index)")
    data = _b64(lines[1][6:], "the extra line")
    index = int(lines[2][6:]) if lines[2][6:].isdigit() else -1
    path_hashes = [_b64(line, "a proof line") for line in lines[3:]]
    keys = policy["logs"] + list(policy["witnesses"].values())
    note_text, verified = _open_note(checkpoint, keys)
    if not any((name, key_id) in verified for name, key_id, _k, _p in policy["logs"]):
        failures.append("the checkpoint is not signed by the casino's log key of the policy")
        return {"data": data, "index": index, "origin": "", "cosigned": set(), "witnesses": 0}
    body = note_text.split("\n")
    if (
        len(body) < 4
        or body[0] != policy["logs"][0][0]
        and not any(body[0] == log[0] for log in policy["logs"])
    ):
        raise Unusable("the checkpoint's text is not a checkpoint of the policy's log")
    size, root = int(body[1]), _b64(body[2], "the root")
    cosigned = {w for w, (name, key_id, _k, _p) in policy["witnesses"].items() if (name, key_id) in verified}
    for w in sorted(cosigned):
        name, key_id, _k, _p = policy["witnesses"][w]
        stamp = dt.datetime.fromtimestamp(verified[(name, key_id)], dt.UTC)
        print(f"cosigned by {w} ({name}) at {stamp:%Y-%m-%d %H:%M:%S} UTC")
    if not _satisfied(policy, cosigned, policy["quorum"]):
        failures.append(
            f"the checkpoint of size {size} is cosigned by {', '.join(sorted(cosigned)) or 'no witness'}: "
            f"short of the policy's quorum {policy['quorum']}"
        )
    if not verify_inclusion(index, size, leaf_hash(data), path_hashes, root):
        failures.append(f"the event is not at index {index} of the checkpointed tree of {size} events")
    elif not failures:
        print(f"OK: event #{index + 1} is in the casino's record of {size} events, cosigned per the policy")
    return {
        "data": data,
        "index": index,
        "origin": body[0],
        "cosigned": cosigned,
        "witnesses": len(policy["witnesses"]),
    }


def cmd_tlog_proof(args: argparse.Namespace) -> list[str]:
    failures: list[str] = []
    data = check_tlog_proof(args.file, args.policy, failures)
    fields = data.decode("utf-8", "replace").split(US)
    if len(fields) == 6:
        print(f"event: {fields[2]} {fields[3]}:{fields[4]} by {fields[1] or '(system)'} at {fields[0]}")
    return failures


# --- An officer's act (casino_ops.officers, casino_ops.authority) ----------------------------------

# The inputs each officer's act signs besides its entry (casino_ops.officers.SIGNED_ACTS).
SIGNED_ACTS = {
    "depot.order_stamped": ("remark",),
    "depot.reception_stamped": ("remark",),
    "depot.destruction_stamped": ("remark",),
    "depot.maker_approval_stamped": ("remark",),
    "depot.sixain_cap_stamped": ("remark",),
    "depot.incident_closed": ("finding", "fit", "out_of_use"),
    "depot.opening_demanded": ("reason",),
    "control_register.day_stamped": ("remark",),
    "authorised_minimum.stamped": (),
    "house.closing_stamped": ("remark",),
}


def _canonical(document: dict[str, Any], *, without: str = "") -> bytes:
    body = {key: value for key, value in document.items() if key != without}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _moment(text: Any) -> dt.datetime:
    moment = dt.datetime.fromisoformat(str(text))
    if moment.tzinfo is None:
        raise ValueError(f"{text!r} has no time zone")
    return moment


def check_visa(event: dict[str, Any], enrolment: dict[str, Any], authority_pem: bytes) -> list[str]:
    """Why ``event`` is not its officer's own act under ``enrolment`` (empty: it is)."""
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    failures: list[str] = []
    try:
        certificate = x509.load_pem_x509_certificate(authority_pem)
        authority_key = certificate.public_key()
        assert isinstance(authority_key, ec.EllipticCurvePublicKey)
        authority_key.verify(
            base64.b64decode(enrolment["signature"]),
            _canonical(enrolment, without="signature"),
            ec.ECDSA(hashes.SHA256()),
        )
    except (InvalidSignature, AssertionError, KeyError, ValueError, TypeError):
        return ["the enrolment is not signed by the authority's certificate"]
    try:
        payload = json.loads(event["payload"]) if isinstance(event["payload"], str) else event["payload"]
        signed = payload["officer_signature"]
        said, assertion = signed["statement"], signed["assertion"]
        response = assertion["response"]
        authenticator_data = _unb64url(response["authenticatorData"])
        client_data_raw = _unb64url(response["clientDataJSON"])
        client_data = json.loads(client_data_raw)
        signature = _unb64url(response["signature"])
    except (KeyError, ValueError, TypeError):
        return ["the event carries no signature of the officer: a forged act"]
    action, officer = event.get("action"), event.get("actor_name")
    target = (
        "" if action == "depot.opening_demanded" else f"{event.get('object_type')}:{event.get('object_id')}"
    )
    if said.get("act") != action or said.get("target", "") != target:
        failures.append(
            f"the officer signed {said.get('act')} on {said.get('target')!r}, not this act on {target!r}"
        )
    if said.get("officer") != officer or enrolment.get("officer", {}).get("username") != officer:
        failures.append(
            f"signed by {said.get('officer')!r} under the enrolment of another, not by {officer!r}"
        )
    if said.get("enrolment") != enrolment.get("serial"):
        failures.append(
            f"signed under the enrolment n° {said.get('enrolment')}, not n° {enrolment.get('serial')}"
        )
    wanted = SIGNED_ACTS.get(str(action))
    fields = said.get("fields")
    if wanted is None or not isinstance(fields, dict) or set(fields) != set(wanted):
        failures.append("the signed fields are not the act's")
    else:
        failures.extend(
            f"{key}: the act records {payload.get(key)!r}, the officer signed {fields[key]!r}"
            for key in wanted
            if payload.get(key) != fields[key]
        )
    try:
        issued = _moment(said.get("issued_at"))
        if not (_moment(enrolment["valid_from"]) <= issued < _moment(enrolment["valid_to"])):
            failures.append(f"the enrolment was not in force at {issued.isoformat()}")
    except (KeyError, ValueError):
        failures.append("the statement's or the enrolment's times are unreadable")
    challenge = hashlib.sha256(_canonical(said)).digest()
    if (
        client_data.get("type") != "webauthn.get"
        or _unb64url(str(client_data.get("challenge", ""))) != challenge
    ):
        failures.append("the passkey did not sign this statement (its challenge differs)")
    rp_id = str(enrolment.get("rp_id", ""))
    if authenticator_data[:32] != hashlib.sha256(rp_id.encode()).digest():
        failures.append(f"the passkey signed for another site than {rp_id}")
    if len(authenticator_data) < 37 or authenticator_data[32] & 0x05 != 0x05:
        failures.append("the officer was not present and verified by his authenticator")
    try:
        key = serialization.load_der_public_key(base64.b64decode(enrolment["public_key_spki"]))
        assert isinstance(key, ec.EllipticCurvePublicKey)
        key.verify(
            signature,
            authenticator_data + hashlib.sha256(client_data_raw).digest(),
            ec.ECDSA(hashes.SHA256()),
        )
    except (InvalidSignature, AssertionError, KeyError, ValueError, TypeError):
        failures.append("the signature does not verify with the enrolled passkey: a forged act")
    return failures


def cmd_visa(args: argparse.Namespace) -> list[str]:
    record = _load_json(args.file)
    event = record["event"] if isinstance(record.get("event"), dict) else record
    enrolment = _load_json(args.enrolment)
    try:
        authority_pem = Path(args.authority).read_bytes()
    except OSError as error:
        raise Unusable(f"{args.authority}: {error}") from error
    failures = check_visa(event, enrolment, authority_pem)
    if not failures:
        name = enrolment.get("officer", {}).get("name") or event.get("actor_name")
        act = f"{event.get('action')} {event.get('object_type')}:{event.get('object_id')}"
        print(
            f"OK: visa de l'officier {name} vérifié ({act}, {event.get('recorded_at')}, "
            f"empreinte {_visa_fingerprint(event)})"
        )
    return failures


def _visa_fingerprint(event: dict[str, Any]) -> str:
    """The fingerprint the registers print beside a visa: the first 16 hex digits of the SHA-256
    of the passkey's signature, in groups of four."""
    payload = json.loads(event["payload"]) if isinstance(event["payload"], str) else event["payload"]
    signature = _unb64url(payload["officer_signature"]["assertion"]["response"]["signature"])
    digest = hashlib.sha256(signature).hexdigest()[:16]
    return " ".join(digest[i : i + 4] for i in range(0, 16, 4))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("inclusion", help="check an inclusion proof")
    p.add_argument("file")
    p.add_argument("--ca", help="the CA certificate (PEM) that issued the casino's signing certificate")
    p.add_argument("--trusted", help="a checkpoint file you kept")
    p.add_argument(
        "--consistency",
        help="with --trusted, when the proof's checkpoint is another: the consistency proof between them",
    )
    p.set_defaults(run=cmd_inclusion)
    p = commands.add_parser("consistency", help="check a consistency proof between two checkpoints")
    p.add_argument("file")
    p.add_argument("--ca")
    p.add_argument("--trusted", help="the earlier checkpoint file, as you kept it")
    p.set_defaults(run=cmd_consistency)
    p = commands.add_parser("checkpoint", help="check a checkpoint's signature against the CA")
    p.add_argument("file")
    p.add_argument("--ca", required=True)
    p.set_defaults(run=cmd_checkpoint)
    p = commands.add_parser("pdf", help="check a register PDF against its recorded SHA-256")
    p.add_argument("file")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--sha256")
    group.add_argument(
        "--record",
        help="a report record (JSON with sha256), an inclusion proof, or a .tlog-proof of its event",
    )
    p.add_argument("--ca")
    p.add_argument(
        "--policy",
        help="the authority's tlog-policy file: alone, checks the proof of its issuing event the PDF "
        "embeds; with --record, a .tlog-proof",
    )
    p.set_defaults(run=cmd_pdf)
    p = commands.add_parser("tlog-proof", help="check a C2SP tlog proof of an event under a tlog-policy")
    p.add_argument("file")
    p.add_argument("--policy", required=True, help="the authority's tlog-policy file")
    p.set_defaults(run=cmd_tlog_proof)
    p = commands.add_parser("visa", help="check an officer's act against his enrolment and the authority")
    p.add_argument("file", help="an inclusion proof, or the event alone (JSON)")
    p.add_argument("--enrolment", required=True, help="the officer's enrolment, as the authority signed it")
    p.add_argument("--authority", required=True, help="the authority's certificate (PEM)")
    p.set_defaults(run=cmd_visa)
    args = parser.parse_args(argv)
    try:
        failures = args.run(args)
    except Unusable as error:
        print(f"UNUSABLE: {error}", file=sys.stderr)
        return 2
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
