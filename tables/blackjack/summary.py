"""Readable French summary of a replay report (hand-log.md §5, without ``--json``).

Per shoe: the rounds, the discrepancies grouped by code with the article
each cites, and the money the table paid wrongly in each direction — in the
players' favour (paid too much or collected too little) and in the house's
favour (paid too little or collected too much), from the settlement
discrepancies (FR art. 55-4 1° / LU art. 32 1.).
"""

from __future__ import annotations

from typing import Any

from .parse import cents

#: French label of each discrepancy code.
LABELS: dict[str, str] = {
    "BET_BELOW_MIN": "mise inférieure au minimum de la table",
    "BET_ABOVE_MAX": "mises d'une case au-delà du maximum",
    "BET_UNIT": "mise qui n'est pas un multiple de 0,10",
    "TOO_MANY_BOXES": "joueur tenant trop de cases",
    "SINGLE_PLAYER_ONE_BOX": "joueur seul sur une seule case",
    "CARD_COUNT_EXCEEDED": "carte sortie plus de fois que le sabot n'en contient",
    "INVALID_CARD": "code de carte invalide (manche non rejouée)",
    "CUT_CARD_OVERRUN": "manche commencée après la carte d'arrêt",
    "CUT_CARD_TOO_DEEP": "carte d'arrêt laissant moins d'un jeu",
    "DECK_COUNT": "nombre de jeux différent de six",
    "BURN_COUNT": "nombre de cartes brûlées différent de cinq",
    "ROUND_NUMBERING": "numérotation des manches",
    "ILLEGAL_INSURANCE": "assurance irrégulière",
    "ILLEGAL_DOUBLE": "doublement irrégulier",
    "ILLEGAL_SPLIT": "séparation irrégulière",
    "TOO_MANY_SPLITS": "trop de séparations",
    "ILLEGAL_SURRENDER": "abandon irrégulier",
    "ILLEGAL_HIT": "carte tirée irrégulièrement",
    "MISSING_DECISION": "décision manquante (manche interrompue)",
    "EXTRA_DECISION": "décisions en trop",
    "CARDS_UNUSED": "cartes sorties non utilisées",
    "CARDS_SHORT": "cartes manquantes (manche interrompue)",
    "SETTLEMENT_MISMATCH": "paiement différent du montant dû",
    "SETTLEMENT_MISSING": "paiement non enregistré",
    "SETTLEMENT_UNKNOWN": "paiement sans main, joueur ou pari correspondant",
}


def money(c: int) -> str:
    """Cents as a French amount: ``123456`` -> ``"1 234,56"``."""
    sign = "-" if c < 0 else ""
    whole, frac = divmod(abs(c), 100)
    return f"{sign}{whole:,}".replace(",", "\u202f") + f",{frac:02d}"


def wrong_payments(report: dict[str, Any]) -> tuple[int, int]:
    """(cents paid wrongly in the players' favour, in the house's favour).

    For each settlement discrepancy, recorded minus expected (a missing row
    recorded nothing; an unknown row was owed nothing): positive favours the
    player, negative the house.
    """
    players = house = 0
    for d in report["discrepancies"]:
        code = d["code"]
        if not code.startswith("SETTLEMENT_"):
            continue
        rec = cents(d.get("recorded", "0")) or 0
        exp = cents(d.get("expected", "0")) or 0
        delta = rec - exp
        if delta > 0:
            players += delta
        else:
            house -= delta
    return players, house


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def summarise(report: dict[str, Any]) -> str:
    """The French summary of one shoe's report, ending with a newline."""
    rounds = report["rounds"]
    replayed = sum(1 for r in rounds if r["replayed"])
    disc = report["discrepancies"]
    lines = [
        f"Sabot {report['shoe_id']} : {_plural(len(rounds), 'manche', 'manches')}"
        f" ({replayed} rejouée{'s' if replayed != 1 else ''} en entier)"
        f" — {'conforme' if report['ok'] else _plural(len(disc), 'écart', 'écarts')}"
    ]
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for d in disc:
        groups.setdefault((d["code"], d["article"]), []).append(d)
    for (code, art), items in groups.items():
        where = ", ".join(sorted({str(d["round"]) for d in items if d["round"] is not None}, key=int))
        at = f" ; manche{'s' if ',' in where else ''} {where}" if where else ""
        lines.append(f"  {code} ({art}) : {len(items)} — {LABELS.get(code, code)}{at}")
    players, house = wrong_payments(report)
    lines.append(
        f"  Payé à tort en faveur des joueurs : {money(players)} ; en faveur de la maison : {money(house)}"
    )
    return "\n".join(lines) + "\n"
