"""Trust policies (C2SP ``tlog-policy``): which logs, which witnesses, and the quorum.

::

    log <vkey> [<url>]
    witness <name> <vkey> [<url>]
    group <name> all|any|<k> <name>...
    quorum <name>          # or: quorum none

A checkpoint is valid under a policy when a listed log signed it and the quorum of
witnesses cosigned it (:meth:`Policy.check`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import note as notes


class PolicyError(ValueError):
    """A policy file that is not one (the line is named)."""


@dataclass(frozen=True)
class Witness:
    name: str
    verifier: notes.Verifier
    url: str = ""


@dataclass(frozen=True)
class Group:
    name: str
    threshold: int
    members: tuple[str, ...]


@dataclass
class Policy:
    logs: list[tuple[notes.Verifier, str]] = field(default_factory=list)
    witnesses: dict[str, Witness] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    quorum: str = ""

    def satisfied(self, cosigned: set[str], name: str | None = None) -> bool:
        """Whether the witnesses named in ``cosigned`` meet the quorum (or group ``name``)."""
        name = self.quorum if name is None else name
        if name == "none":
            return True
        if name in self.witnesses:
            return name in cosigned
        group = self.groups[name]
        return sum(self.satisfied(cosigned, m) for m in group.members) >= group.threshold

    def check(self, message: str | bytes) -> tuple[notes.Note, set[str], bool]:
        """Open a cosigned checkpoint: (the note, the witnesses whose cosignature verified,
        whether the quorum is met). NoteError when no listed log signed it."""
        note = notes.open_note(
            message, [v for v, _url in self.logs] + [w.verifier for w in self.witnesses.values()]
        )
        if not any(note.signed_by(v) for v, _url in self.logs):
            raise notes.UnverifiedNote(note)
        cosigned = {w.name for w in self.witnesses.values() if note.signed_by(w.verifier)}
        return note, cosigned, self.satisfied(cosigned)

    def describe(self) -> str:
        if self.quorum == "none":
            return "no cosignature required"
        return f"quorum {self.quorum} of witnesses {', '.join(sorted(self.witnesses))}"


class _Parser:
    def __init__(self) -> None:
        self.policy = Policy()
        self.keys: set[bytes] = set()
        self.where = ""

    def fail(self, why: str) -> PolicyError:
        return PolicyError(f"{self.where}: {why}")

    def key(self, vkey: str, kind: int) -> notes.Verifier:
        try:
            verifier = notes.parse_vkey(vkey)
        except notes.NoteError as error:
            raise self.fail(f"bad vkey: {error}") from error
        if verifier.kind != kind:
            raise self.fail("wrong key type for a log (0x01) or a witness (0x04)")
        if verifier.public in self.keys:
            raise self.fail("duplicate key")
        self.keys.add(verifier.public)
        return verifier

    def defined(self, name: str) -> bool:
        return name in self.policy.witnesses or name in self.policy.groups

    def new_name(self, name: str) -> str:
        if self.defined(name) or name == "none":
            raise self.fail(f"the name {name} is already defined")
        return name

    def log(self, args: list[str]) -> None:
        self.policy.logs.append((self.key(args[0], notes.ED25519), args[1] if len(args) == 2 else ""))

    def witness(self, args: list[str]) -> None:
        name = self.new_name(args[0])
        url = args[2] if len(args) == 3 else ""
        self.policy.witnesses[name] = Witness(name, self.key(args[1], notes.COSIGNATURE_V1), url)

    def group(self, args: list[str]) -> None:
        name, threshold_text, members = self.new_name(args[0]), args[1], tuple(args[2:])
        if len(set(members)) != len(members) or not all(self.defined(m) for m in members):
            raise self.fail("members must be defined above, each once")
        if threshold_text == "all":
            threshold = len(members)
        elif threshold_text == "any":
            threshold = 1
        elif threshold_text.isdigit() and 1 <= int(threshold_text) <= len(members):
            threshold = int(threshold_text)
        else:
            raise self.fail("the threshold is all, any or k with 1 <= k <= n")
        self.policy.groups[name] = Group(name, threshold, members)

    def quorum(self, args: list[str]) -> None:
        if self.policy.quorum:
            raise self.fail("a second quorum line")
        if args[0] != "none" and not self.defined(args[0]):
            raise self.fail(f"{args[0]} is not defined above")
        self.policy.quorum = args[0]

    def line(self, number: int, raw: bytes) -> None:
        line = raw.decode("utf-8", "surrogateescape")
        self.where = f"line {number} ({line.strip()})"
        if any((b < 0x20 and b != 0x09) or b == 0x7F for b in raw):
            raise self.fail("a control character")
        words = line.replace("\t", " ").split()
        if not words or words[0].startswith("#"):
            return
        kind, args = words[0], words[1:]
        arity = {"log": (1, 2), "witness": (2, 3), "quorum": (1, 1), "group": (3, 10_000)}
        if kind not in arity or not arity[kind][0] <= len(args) <= arity[kind][1]:
            raise self.fail("not a log, witness, group or quorum line")
        getattr(self, kind)(args)


def parse(text: str | bytes) -> Policy:
    """A policy file; PolicyError naming the line at fault."""
    parser = _Parser()
    for number, raw in enumerate((text.encode("utf-8") if isinstance(text, str) else text).split(b"\n"), 1):
        parser.line(number, raw)
    if not parser.policy.quorum:
        raise PolicyError("no quorum line")
    return parser.policy
