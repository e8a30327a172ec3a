"""Checking the chain against the signed checkpoints, stored and witnessed."""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from .. import signing
from ..chain import GENESIS, format_time
from ..merkle import TreeBuilder
from ..models import Checkpoint, MerkleNode
from .witness import HeadMark, get_witness, last_event_id, latest_head_mark


def _casino_certificate() -> bytes | None:
    """The configured signing certificate (DER), or None when none is usable here."""
    if not signing.is_configured():
        return None
    try:
        return signing.signer_certificate_der()
    except signing.SigningNotConfigured:
        return None


@dataclass
class CheckedCheckpoint:
    label: str
    seq: int
    problems: list[str] = field(default_factory=list)


def describe(checkpoint: Checkpoint) -> str:
    return _("point de contrôle n° %(id)s (séquence %(seq)s, signé le %(at)s)") % {
        "id": checkpoint.number,
        "seq": checkpoint.seq,
        "at": format_time(checkpoint.made_at),
    }


def check_statement(
    *, label: str, text: str, signature: bytes, chain_hashes: dict[int, str], verified_to: int, broken: bool
) -> CheckedCheckpoint:
    """One signed statement against the chain: its signature, then the chain's hash at its seq."""
    problems: list[str] = []
    check = signing.verify_data(signature, text.encode("utf-8"))
    try:
        data = json.loads(text)
        seq, signed_hash = int(data["seq"]), str(data["hash"])
    except (ValueError, KeyError, TypeError):
        return CheckedCheckpoint(label, -1, [_("sa déclaration est illisible")])
    if not check.ok:
        problems.append(_("sa signature n'est pas valide (déclaration ou signature modifiée)"))
    elif (casino := _casino_certificate()) is not None and check.certificate != casino:
        problems.append(_("elle n'est pas signée par le certificat du casino (%(s)s)") % {"s": check.signer})
    if seq in chain_hashes:
        if chain_hashes[seq] != signed_hash:
            problems.append(
                _(
                    "la chaîne a, à la séquence %(seq)s, l'empreinte %(now)s au lieu de l'empreinte signée %(signed)s"
                )
                % {"seq": seq, "now": chain_hashes[seq], "signed": signed_hash}
            )
    elif not broken and seq > verified_to:
        problems.append(
            _(
                "elle couvre la séquence %(seq)s mais la chaîne s'arrête à %(end)s (des événements ont disparu)"
            )
            % {"seq": seq, "end": verified_to}
        )
    return CheckedCheckpoint(label, seq, problems)


@dataclass
class WitnessedCheckpoint:
    name: str
    number: int
    seq: int
    statement: str
    signature: bytes
    time: str


class CheckContext:
    """What verification checks the chain against: the stored checkpoints and the witness."""

    def __init__(self) -> None:
        self.witness = get_witness()
        self.witnessed: list[WitnessedCheckpoint] = []
        self.unreadable: list[str] = []
        if self.witness is not None:
            for name in self.witness.names():
                try:
                    data = json.loads(self.witness.read(name))
                    text = str(data["statement"])
                    signed = json.loads(text)
                    self.witnessed.append(
                        WitnessedCheckpoint(
                            name=name,
                            number=int(data["number"]),
                            seq=int(signed["seq"]),
                            statement=text,
                            signature=base64.b64decode(data["signature"]),
                            time=str(signed.get("time", "")),
                        )
                    )
                except (OSError, ValueError, KeyError, TypeError):
                    self.unreadable.append(name)
        self.head_mark: HeadMark | None = None
        try:
            self.head_mark = latest_head_mark()
        except (OSError, ValueError) as error:
            self.unreadable.append(f"{error}")

    @property
    def seqs(self) -> set[int]:
        marks = {self.head_mark.seq} if self.head_mark is not None else set()
        return wanted_seqs() | {w.seq for w in self.witnessed} | marks

    def last_witnessed(self) -> tuple[int, str] | None:
        """The highest sequence the witness vouches for (a checkpoint or a head mark) and when."""
        points = [(w.seq, w.time) for w in self.witnessed]
        if self.head_mark is not None and self.head_mark.authentic:
            points.append((self.head_mark.seq, self.head_mark.time))
        return max(points, default=None)

    def check_head_mark(self, chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> list[str]:
        """The newest head the sealer witnessed: authentic, and still in the chain with its hash
        (events removed whole at the tip end before it)."""
        mark = self.head_mark
        if mark is None:
            return []
        label = _("tête témoin #%(seq)s (%(at)s, %(name)s)") % {
            "seq": mark.seq,
            "at": mark.time,
            "name": mark.name,
        }
        if not mark.authentic:
            return [
                _("%(mark)s : elle n'est pas authentifiée par la clé des événements (MAC faux)")
                % {"mark": label}
            ]
        if mark.seq in chain_hashes:
            if chain_hashes[mark.seq] != mark.hash:
                return [
                    _("%(mark)s : la chaîne a, à la séquence %(seq)s, l'empreinte %(now)s au lieu de %(h)s")
                    % {"mark": label, "seq": mark.seq, "now": chain_hashes[mark.seq], "h": mark.hash}
                ]
        elif not broken and mark.seq > verified_to:
            return [
                _("%(mark)s : la chaîne s'arrête à %(end)s (des événements ont disparu)")
                % {"mark": label, "end": verified_to}
            ]
        if mark.last_id is not None:
            now = last_event_id()
            if now < mark.last_id:
                return [
                    _(
                        "%(mark)s : la séquence des identifiants d'événements est revenue à %(now)s, alors "
                        "que le témoin a vu l'identifiant %(id)s déjà donné (les derniers actes retirés, "
                        "la séquence remise en arrière)"
                    )
                    % {"mark": label, "now": now, "id": mark.last_id}
                ]
        return []

    def check(self, chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> tuple[int, list[str]]:
        count, problems = check_all(chain_hashes, verified_to=verified_to, broken=broken)
        problems.extend(self.check_witness(chain_hashes, verified_to=verified_to, broken=broken))
        return count, problems

    def check_tree(self, tree: TreeBuilder) -> list[str]:
        """Every signed tree head (stored and witnessed) and the stored subtrees against the events."""
        problems = []
        heads = [(describe(c), c.seq, c.root_hash) for c in Checkpoint.objects.exclude(root_hash="")]
        for w in self.witnessed:
            root = _statement_data(w.statement).get("root")
            if root:
                heads.append(
                    (
                        _("point de contrôle témoin n° %(n)s (séquence %(seq)s, signé le %(at)s, %(name)s)")
                        % {"n": w.number, "seq": w.seq, "at": w.time, "name": w.name},
                        w.seq,
                        root,
                    )
                )
        for label, seq, root in heads:
            found = tree.roots.get(seq)
            if found is not None and found.hex() != root:
                problems.append(
                    _("%(cp)s : l'arbre de Merkle des événements a la racine %(now)s au lieu de %(signed)s")
                    % {"cp": label, "now": found.hex(), "signed": root}
                )
        computed = {(level, index): digest.hex() for level, index, digest in tree.nodes}
        for level, index, digest in MerkleNode.objects.values_list("level", "index", "hash").iterator():
            if computed.get((level, index)) != digest:
                problems.append(
                    _("le nœud %(level)s/%(index)s de l'arbre de Merkle ne correspond pas aux événements")
                    % {"level": level, "index": index}
                )
        return problems

    def check_witness(self, chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> list[str]:
        """The database and the chain against every witnessed checkpoint."""
        if self.witness is None:
            return []
        problems = [
            _("le témoin %(w)s : le fichier %(name)s est illisible") % {"w": self.witness, "name": name}
            for name in self.unreadable
        ]
        stored = {c.number: c for c in Checkpoint.objects.all()}
        for w in self.witnessed:
            label = _("point de contrôle témoin n° %(n)s (séquence %(seq)s, signé le %(at)s, %(name)s)") % {
                "n": w.number,
                "seq": w.seq,
                "at": w.time,
                "name": w.name,
            }
            checked = check_statement(
                label=label,
                text=w.statement,
                signature=w.signature,
                chain_hashes=chain_hashes,
                verified_to=verified_to,
                broken=broken,
            )
            mine = stored.get(w.number)
            if mine is None:
                checked.problems.append(
                    _("la base de données ne le contient plus (points de contrôle supprimés)")
                )
            elif mine.statement != w.statement or bytes(mine.signature) != w.signature:
                checked.problems.append(
                    _("le point de contrôle n° %(n)s de la base de données n'est plus celui-ci")
                    % {"n": w.number}
                )
            problems.extend(f"{checked.label} : {p}" for p in checked.problems)
        problems.extend(self.check_head_mark(chain_hashes, verified_to=verified_to, broken=broken))
        held = {w.number for w in self.witnessed}
        top = max(held, default=0)
        for number in sorted(stored):
            if number < top and number not in held:
                problems.append(_("%(cp)s : le témoin ne le contient pas") % {"cp": describe(stored[number])})
        return problems


def check_all(chain_hashes: dict[int, str], *, verified_to: int, broken: bool) -> tuple[int, list[str]]:
    """Every stored checkpoint against the chain: (how many, the problems, each naming its checkpoint)."""
    problems: list[str] = []
    count = 0
    expected_number, prev = 1, GENESIS
    for checkpoint in Checkpoint.objects.order_by("number").iterator():
        count += 1
        checked = check_statement(
            label=describe(checkpoint),
            text=checkpoint.statement,
            signature=bytes(checkpoint.signature),
            chain_hashes=chain_hashes,
            verified_to=verified_to,
            broken=broken,
        )
        signed = _statement_data(checkpoint.statement)
        if checkpoint.seq != checked.seq or checkpoint.head_hash != signed.get("hash"):
            checked.problems.append(_("ses colonnes ne sont plus celles de sa déclaration signée"))
        if (
            checkpoint.number != expected_number
            or checkpoint.prev_hash != prev
            or ("number" in signed and (signed["number"] != checkpoint.number or signed.get("prev") != prev))
        ):
            checked.problems.append(
                _("il ne suit pas le point de contrôle n° %(n)s (numérotation ou chaînage rompus)")
                % {"n": expected_number - 1}
            )
        expected_number = checkpoint.number + 1
        prev = hashlib.sha256(checkpoint.statement.encode("utf-8")).hexdigest()
        problems.extend(f"{checked.label} : {p}" for p in checked.problems)
    return count, problems


def _statement_data(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def wanted_seqs() -> set[int]:
    """The sequences whose chain hash verification must keep (those of stored checkpoints)."""
    seqs = set()
    for text in Checkpoint.objects.values_list("statement", flat=True):
        try:
            seqs.add(int(json.loads(text)["seq"]))
        except (ValueError, KeyError, TypeError):
            continue
    seqs.update(Checkpoint.objects.values_list("seq", flat=True))
    return seqs
