"""Every article the code cites exists in casino_ops/regulations.py and names an article of the
regulations map; the tables' corrected citations, under both profiles."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings

from casino_ops.regulations import ARTICLES, RegulationError, cite
from house_books.services.casino import update_casino_settings
from tables import services
from tests.support import builders

from .conftest import DAY, at_day

D = Decimal

# The articles of the two regulations the tables apply (docs/refusals.md), as data: FR arrêté du
# 14 mai 2007, LU règlement grand-ducal du 12 février 1979.
MAP_ARTICLES = {
    "FR": {"39", "40", "42", "49", "53", "55-4", "55-5", "68", "69", "72"},
    "LU": {"6", "7", "9", "10", "15", "21", "22", "23", "26", "32", "33", "52", "71"},
}
# The casino's other books (house_books) cite Luxembourg articles the map does not list but
# the seed contains (LU art. 8 orphans, 11 the bank's failure, 32/40/52 the shoe devices,
# 51/54/63 approvals, 57 tips, 68/69/75 exclusions, 67/75 the entries refused at the door,
# 71 the séance hours, 74 the table
# notice); under FR they are the casino's internal books, cited as its internal rules, never
# as a French article.
SEED_ARTICLES = {
    "FR": set(),
    "LU": {"8", "11", "32", "40", "51", "52", "54", "57", "63", "67", "68", "69", "71", "74", "75"},
}
INTERNAL_RULE = "règlement intérieur du casino"
ARTICLE = re.compile(r"^(FR|LU) art\. (\d+(?:-\d+)?)(?: .*)?$")
CITE_CALL = re.compile(r"""cite\(\s*["']([^"']+)["']""")
SOURCES = ("casino_ops", "cards_registry", "tables", "audit", "inspection")


def _cited_rules() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    base = Path(settings.BASE_DIR)
    for app in SOURCES:
        for path in (base / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for rule in CITE_CALL.findall(path.read_text(encoding="utf-8")):
                found.setdefault(rule, []).append(str(path.relative_to(base)))
    return found


def test_every_rule_the_code_cites_has_its_articles():
    cited = _cited_rules()
    assert "session.no_money_between" in cited and "control_register" in cited
    missing = {rule: where for rule, where in cited.items() if rule not in ARTICLES}
    assert not missing, missing
    for rule in cited:
        assert set(ARTICLES[rule]) == {"FR", "LU"}, rule


@pytest.mark.parametrize("rule", sorted(ARTICLES))
def test_every_article_names_an_article_of_the_map(rule):
    for profile, article in ARTICLES[rule].items():
        if article == "":  # the profile has no article for this rule (see the module's docstring)
            continue
        if rule.startswith("house."):
            if profile == "FR":
                assert article == INTERNAL_RULE, (rule, article)
                continue
            numbers = re.fullmatch(r"LU art\. (\d+(?:, \d+)*)", article)
            assert numbers, (rule, article)
            assert set(numbers.group(1).split(", ")) <= SEED_ARTICLES["LU"], (rule, article)
            continue
        if rule.startswith("people."):
            # who may act: the books naming who counted, signed or kept them cite each article of
            # the profile they rest on (FR art. 68, 69; LU art. 10 and the seed's art. 51, 54)
            numbers = re.fullmatch(rf"{profile} art\. (\d+(?:, \d+)*)", article)
            assert numbers, (rule, article)
            known = MAP_ARTICLES[profile] | SEED_ARTICLES[profile]
            assert set(numbers.group(1).split(", ")) <= known, (rule, article)
            continue
        match = ARTICLE.match(article)
        assert match, (rule, article)
        assert match.group(1) == profile, (rule, article)
        assert match.group(2) in MAP_ARTICLES[profile], (rule, article)


def test_the_corrected_citations():
    # LU art. 15 is the boule's and the vingt-trois'; LU art. 10 speaks of the advance book only
    assert cite("session.no_money_between", "LU") == "LU art. 10"
    assert cite("session.no_money_between", "FR") == "FR art. 69"
    # LU: the day's results and the corrections of the advance book, written at once (art. 10)
    assert cite("control_register", "FR") == "FR art. 72" and cite("control_register", "LU") == "LU art. 10"
    assert cite("books.no_erasure", "FR") == "FR art. 68" and cite("books.no_erasure", "LU") == "LU art. 10"
    assert cite("table.layout", "LU") == "LU art. 32"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "profile,still_open,not_closed", [("FR", "FR art. 69", "FR art. 72"), ("LU", "LU art. 10", "LU art. 10")]
)
def test_refusals_cite_the_profiles_article(casino, staff, profile, still_open, not_closed):
    update_casino_settings(actor=staff["director"], profile=profile)  # before any act (PROFILE_FIXED)
    table = services.create_table(actor=staff["director"], number=3, code="BJ03")
    extra = (
        {
            "guarantee_fund": D("100000.00"),
            "ministry_notice": builders.ministry_notice("10.00", DAY),
        }
        if profile == "LU"
        else {}
    )
    advance = D("20000.00") if profile == "LU" else D("30000.00")

    builders.shoe_for(table, DAY, staff["director"])  # LU art. 32 §3, 40 (nothing under FR)

    def _open():
        return services.open_session(
            actor=staff["director"],
            table=table,
            minimum=D("10.00"),
            maximum=D("1000.00"),
            advance_amount=advance,
            croupier=staff["croupier"],
            **extra,
        )

    with at_day(DAY):
        _open()
        with pytest.raises(RegulationError) as error:
            _open()
        assert (error.value.code, error.value.article) == ("SESSION_STILL_OPEN", still_open)
    with at_day(DAY + dt.timedelta(days=1), 1), pytest.raises(RegulationError) as error:
        services.close_day(actor=staff["director"], day=DAY)
    assert (error.value.code, error.value.article) == ("SESSIONS_NOT_CLOSED", not_closed)


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 55-4"), ("LU", "LU art. 32")])
def test_create_table_cites_the_profiles_article(staff, casino, profile, article):
    update_casino_settings(actor=staff["director"], profile=profile)
    with pytest.raises(RegulationError) as error:
        services.create_table(actor=staff["director"], number=9, code="BJ09", boxes=8)
    assert (error.value.code, error.value.article) == ("TOO_MANY_BOXES", article)


@pytest.mark.django_db
@pytest.mark.parametrize("profile,article", [("FR", "FR art. 68"), ("LU", "LU art. 10")])
def test_corrections_cite_the_profiles_article(staff, casino, profile, article):
    # LU: a line of the advance book is written at once and stays; a correction is a new one
    update_casino_settings(actor=staff["director"], profile=profile)
    with pytest.raises(RegulationError) as error:
        services.correct_control_line(
            actor=staff["committee"], line=None, result=D("1.00"), approval="Approuvé", reason="motif"
        )
    assert (error.value.code, error.value.article) == ("DIRECTOR_REQUIRED", article)
