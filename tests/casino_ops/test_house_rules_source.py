"""The house rules and the game's articles are written once, in the rules engine.

The casino's settings (model fields, defaults, checks, services, admin) and the
regulation citations derive from ``tables/blackjack/rules.py``: adding, dropping
or changing a house rule there shows here as a missing field or a wrong default.
"""

from __future__ import annotations

from typing import Any

import pytest

from casino_ops.models import HOUSE_RULE_DEFAULTS, HOUSE_RULE_KEYS, CasinoSettings
from casino_ops.regulations import ARTICLES, RegulationError, cite
from casino_ops.rules import check_casino_settings
from casino_ops.services import EDITABLE_FIELDS
from house_books.admin import CasinoSettingsAdmin
from tables.blackjack import rules as engine


def test_the_casino_uses_the_engines_keys_profiles_and_defaults() -> None:
    assert tuple(HOUSE_RULE_KEYS) == engine.HOUSE_RULE_KEYS
    assert HOUSE_RULE_DEFAULTS is engine.HOUSE_RULE_DEFAULTS
    for key, profiles in HOUSE_RULE_KEYS.items():
        assert profiles == {p for p in engine.PROFILES if key in engine.CHANGEABLE[p]}
        for profile in engine.PROFILES:
            assert engine.DEFAULTS[profile][key] == HOUSE_RULE_DEFAULTS[key]


def test_one_model_field_per_house_rule_with_the_engines_default_and_minimum() -> None:
    for key in engine.HOUSE_RULE_KEYS:
        field = CasinoSettings._meta.get_field(key)
        assert field.get_default() == engine.HOUSE_RULE_DEFAULTS[key], key
        minimum = engine.INTEGER_RULE_MINIMUM.get(key)
        if minimum is not None:
            assert field.null and [v.limit_value for v in field.validators if v.code == "min_value"] == [
                minimum
            ]
    # a casino at its defaults sends no house rule in its logs
    assert CasinoSettings(name="x").house_rules() == {}


def test_services_and_admin_list_every_house_rule() -> None:
    assert set(engine.HOUSE_RULE_KEYS) <= set(EDITABLE_FIELDS)
    shown = [f for _title, opts in CasinoSettingsAdmin.fieldsets for f in opts["fields"]]
    assert list(EDITABLE_FIELDS) == shown


@pytest.mark.parametrize(
    ("key", "value"),
    [(k, True if k in engine.BOOLEAN_RULES else 3) for k in engine.HOUSE_RULE_KEYS],
)
def test_the_settings_check_follows_what_each_profile_lets_a_house_change(key: str, value: Any) -> None:
    for profile in engine.PROFILES:
        values = {"profile": profile, "authorised_min_stake": "5.00", key: value}
        if key in engine.CHANGEABLE[profile]:
            check_casino_settings(values)
        else:
            with pytest.raises(RegulationError) as error:
                check_casino_settings(values)
            assert error.value.code == "HOUSE_RULE_NOT_ALLOWED"
            assert error.value.field == key
            assert error.value.article == cite("game.house_rules", profile)


@pytest.mark.parametrize("key", sorted(engine.INTEGER_RULE_MINIMUM))
def test_the_settings_check_uses_the_engines_minimum(key: str) -> None:
    minimum = engine.INTEGER_RULE_MINIMUM[key]
    check_casino_settings({"profile": "FR", "authorised_min_stake": "5.00", key: minimum})
    with pytest.raises(RegulationError) as error:
        check_casino_settings({"profile": "FR", "authorised_min_stake": "5.00", key: minimum - 1})
    assert (error.value.code, error.value.field) == ("HOUSE_RULE_INVALID", key)


def test_the_game_articles_are_the_engines() -> None:
    game = {rule: texts for rule, texts in ARTICLES.items() if rule.startswith("game.")}
    assert len(game) == len(engine.GAME_ARTICLES["FR"])
    for profile in engine.PROFILES:
        assert {texts[profile] for texts in game.values()} == set(engine.GAME_ARTICLES[profile].values())
        # every discrepancy code of the engine cites an article the project knows
        cited = set(engine.articles_for(profile).values())
        assert cited <= {texts[profile] for texts in ARTICLES.values()}
    assert cite("game.house_rules", "LU") == engine.article("LU", "house")
    assert cite("game.foreign_card", "FR") == engine.article("FR", "cards")
