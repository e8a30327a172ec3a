"""The two regulation profiles, the article behind every rule, and RegulationError.

FR: arrêté du 14 mai 2007 (réglementation des jeux dans les casinos).
LU: règlement grand-ducal du 12 février 1979.

Every refusal, discrepancy and printed register cites its rule through
:func:`cite`, so that the article string is written in one place only.

Where one profile has no article for a rule, its entry is ``""`` and :func:`cite`
gives an empty citation (never under LU, whose refusals all cite their article). Under
LU the day's results and the books' corrections cite art. 10: the sums are written at
once in the advance book and certified "exactes", so a line once written stays and a
correction is a new one. The text has no article on erasures and no control register: art. 9
sends the keeping of the advance book to art. 91, and the "comptabilité spéciale des jeux"
(art. 90 to 98) is not in the text the casino follows, which ends at art. 75. Under LU, ``session.no_money_between`` cites
art. 10 (the cash counted and written at the end of every séance): art. 15 says
it in words, but for the boule and the vingt-trois only.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.blackjack.rules import GAME_ARTICLES


class Profile(models.TextChoices):
    FR = "FR", _("France — arrêté du 14 mai 2007")
    LU = "LU", _("Luxembourg — règlement grand-ducal du 12 février 1979")


# rule key -> {profile: article}. The keys name what the rule is about.
ARTICLES: dict[str, dict[str, str]] = {
    # Card depot
    "depot.approved_manufacturer": {"FR": "FR art. 39", "LU": "LU art. 6"},
    "depot.order_book": {"FR": "FR art. 39", "LU": "LU art. 6"},
    "depot.receipt_book": {"FR": "FR art. 39", "LU": "LU art. 6"},
    "depot.cabinet_key": {"FR": "FR art. 39", "LU": "LU art. 6"},
    "depot.max_sixains": {"FR": "FR art. 39", "LU": "LU art. 6"},
    "depot.destruction": {"FR": "FR art. 39", "LU": "LU art. 6"},
    "depot.issue_and_unseal": {"FR": "FR art. 40", "LU": "LU art. 7"},
    "depot.incident": {"FR": "FR art. 40", "LU": "LU art. 7"},
    "depot.sixain": {"FR": "FR art. 55-4", "LU": "LU art. 32"},
    # Tables, limits and cash advances
    "limits.minimum_maximum": {"FR": "FR art. 55-5", "LU": "LU art. 33"},
    "limits.maximum_change": {"FR": "FR art. 55-5", "LU": "LU art. 33"},
    "limits.minimum_change": {"FR": "FR art. 53", "LU": "LU art. 26"},
    # the maximum is fixed by the director (FR art. 55-5 §4, LU art. 33 §4); under LU a
    # committee member approved as his delegate for the direction of play (LU art. 51 V)
    "limits.maximum_by_director": {"FR": "FR art. 55-5", "LU": "LU art. 33"},
    "limits.authorised_minimum": {"FR": "FR art. 55-5", "LU": "LU art. 33"},
    "limits.ministry_notice": {"FR": "", "LU": "LU art. 26"},
    "advance.book": {"FR": "FR art. 42", "LU": "LU art. 9"},
    "advance.amount": {"FR": "FR art. 49", "LU": "LU art. 21"},
    "advance.guarantee_fund": {"FR": "FR art. 49", "LU": "LU art. 22"},
    "advance.fixed_for_year": {"FR": "FR art. 49", "LU": "LU art. 9"},
    "advance.count_and_sign": {"FR": "FR art. 69", "LU": "LU art. 10"},
    "advance.gaming_day": {"FR": "FR art. 69", "LU": "LU art. 10"},
    "session.interruption": {"FR": "FR art. 69", "LU": "LU art. 23"},
    "session.no_money_between": {"FR": "FR art. 69", "LU": "LU art. 10"},
    "control_register": {"FR": "FR art. 72", "LU": "LU art. 10"},
    "books.no_erasure": {"FR": "FR art. 68", "LU": "LU art. 10"},
    # An officer's act signed with his own key (FR art. 68: the electronic signature of the
    # books; LU art. 10: the books visés by the officers), he being enrolled by the authority.
    "officers.signature": {"FR": "FR art. 68", "LU": "LU art. 10"},
    # the depot's books (orders, receptions, issues, returns…) corrected by a new entry: under
    # LU the books the depot keeps are those of art. 6, not the advance book of art. 10
    "depot.correction": {"FR": "FR art. 68", "LU": "LU art. 6"},
    # A table and its boxes on the layout.
    "table.layout": {"FR": "FR art. 55-4", "LU": "LU art. 32"},
    # A table put in play: its advance counted at its opening (LU art. 10: "mise en service
    # effective de chaque table"); a table out of service opens no séance.
    "table.in_service": {"FR": "FR art. 69", "LU": "LU art. 10"},
    # A hand log records the rounds dealt at its séance's table (the game at that table).
    "hand_log.table": {"FR": "FR art. 55-4", "LU": "LU art. 32"},
    # Other books of the casino (LU); under FR the casino keeps them as internal books.
    "house.orphans": {"FR": "règlement intérieur du casino", "LU": "LU art. 8"},
    "house.approvals": {"FR": "règlement intérieur du casino", "LU": "LU art. 51, 54, 63"},
    "house.approvals.direction": {"FR": "règlement intérieur du casino", "LU": "LU art. 51"},
    "house.approvals.staff": {"FR": "règlement intérieur du casino", "LU": "LU art. 54, 63"},
    "house.tips": {"FR": "règlement intérieur du casino", "LU": "LU art. 57"},
    "house.hours": {"FR": "règlement intérieur du casino", "LU": "LU art. 71"},
    "house.bank": {"FR": "règlement intérieur du casino", "LU": "LU art. 11"},
    "house.devices": {"FR": "règlement intérieur du casino", "LU": "LU art. 32, 40, 52"},
    "house.exclusions": {"FR": "règlement intérieur du casino", "LU": "LU art. 68, 69, 75"},
    "house.exclusions.minister": {"FR": "règlement intérieur du casino", "LU": "LU art. 68"},
    "house.exclusions.own": {"FR": "règlement intérieur du casino", "LU": "LU art. 69"},
    # the physionomiste's control at the door (art. 67) keeps the excluded out (art. 75)
    "house.exclusions.entrance": {"FR": "règlement intérieur du casino", "LU": "LU art. 67, 75"},
    "house.closing": {"FR": "règlement intérieur du casino", "LU": "LU art. 52"},
    "house.table_notice": {"FR": "règlement intérieur du casino", "LU": "LU art. 74"},
    # The regulation the books are kept under: fixed from the first act inscribed in them
    "casino.profile": {"FR": "FR art. 68", "LU": "LU art. 10"},
    # Who may act: the roles are given and taken back by the director's recorded act, the
    # books naming who counted, signed or kept them (FR art. 68, 69; LU art. 10, 51, 54)
    "people.roles": {"FR": "FR art. 68, 69", "LU": "LU art. 10, 51, 54"},
    # the officer who stamps the books is the authority's, never the casino's (FR art. 39;
    # LU art. 6): his role comes from the authority's enrolment alone
    "people.officer": {"FR": "FR art. 39", "LU": "LU art. 6"},
    # who counts never signs: the croupier counts, the director or a committee member signs
    # (FR art. 69; LU art. 10), and the committee members are not gaming employees (LU art. 51)
    "people.incompatible": {"FR": "FR art. 69", "LU": "LU art. 10, 51"},
}

# The game: its articles are written once, in the rules engine (the subjects of
# its discrepancy codes); ``game.<rule>`` names them here.
_GAME_RULES = {
    "game.play": "play",
    "game.insurance": "insurance",
    "game.pairs": "pairs",
    "game.doubles": "doubles",
    "game.house_rules": "house",
    "game.shoe": "shoe",
    "game.limits": "limits",
    "game.foreign_card": "cards",
}
ARTICLES.update(
    {rule: {p: texts[subject] for p, texts in GAME_ARTICLES.items()} for rule, subject in _GAME_RULES.items()}
)


def cite(rule: str, profile: str) -> str:
    """The article string for ``rule`` under ``profile`` (``"FR"`` or ``"LU"``)."""
    try:
        return ARTICLES[rule][profile]
    except KeyError as exc:  # a programming error, not a user's
        raise KeyError(f"no article for rule {rule!r} under profile {profile!r}") from exc


class RegulationError(Exception):
    """A regulated act refused because it breaks a rule.

    ``code`` is stable and machine-readable (``"ORDER_NOT_STAMPED"``),
    ``message`` says what is wrong and where (the field), in the user's
    language, and ``article`` cites the rule (``"FR art. 39"``). The admin,
    the API (HTTP 400) and commands show it as it is, never as a traceback.
    """

    #: what the refusal set off that the rollback does not undo (an incident opened, its decks
    #: quarantined: FR art. 40, LU art. 7), said with the refusal wherever it is shown
    consequence: str = ""

    def __init__(self, code: str, message: str, article: str = "", *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = str(message)
        self.article = article
        self.field = field

    def __str__(self) -> str:
        text = f"{self.message} ({self.article})" if self.article else self.message
        return f"{text} {self.consequence}" if self.consequence else text

    def as_dict(self) -> dict[str, str | None]:
        refusal: dict[str, str | None] = {
            "code": self.code,
            "message": self.message,
            "article": self.article,
            "field": self.field,
        }
        if self.consequence:
            refusal["consequence"] = self.consequence
        return refusal
