from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied

from audit.models import AuditEvent
from casino_ops import roles
from casino_ops.models import CasinoSettings
from casino_ops.regulations import RegulationError
from house_books.services.casino import update_casino_settings


@pytest.mark.django_db
def test_director_sets_the_casino_and_it_is_audited(casino, director):
    assert casino.profile == "FR"
    event = AuditEvent.objects.get(action="casino.settings_changed")
    assert event.actor == director
    assert '"authorised_min_stake"' in event.payload


@pytest.mark.django_db
@pytest.mark.parametrize("role", [r for r in roles.ALL_ROLES if r != roles.DIRECTOR])
def test_nobody_but_the_director_changes_the_settings(users, casino, role):
    with pytest.raises(PermissionDenied):
        update_casino_settings(actor=users[role], name="Autre")
    assert CasinoSettings.objects.get().name == "Casino de test"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "key,value",
    [
        ("surrender", True),
        ("hit_on_21_forbidden", True),
        ("single_player_two_boxes", True),
        ("max_boxes_per_player", 2),
    ],
)
def test_lu_refuses_house_rules_only_fr_lets_a_house_change(director, casino, key, value):
    with pytest.raises(RegulationError) as error:
        update_casino_settings(actor=director, profile="LU", **{key: value})
    assert error.value.article == "LU art. 32 1."
    assert error.value.field == key
    assert CasinoSettings.objects.get().profile == "FR"


@pytest.mark.django_db
def test_lu_accepts_the_rules_both_profiles_let_a_house_change(director, casino):
    saved = update_casino_settings(actor=director, profile="LU", resplit_aces=True, max_hands_after_split=3)
    assert saved.house_rules() == {"resplit_aces": True, "max_hands_after_split": 3}


@pytest.mark.django_db
def test_authorised_minimum_must_be_positive(director, casino):
    with pytest.raises(RegulationError) as error:
        update_casino_settings(actor=director, authorised_min_stake=Decimal("0"))
    assert error.value.field == "authorised_min_stake"
    assert error.value.article == "FR art. 55-5"


@pytest.mark.django_db
def test_admin_change_form_director_only(client, users, casino):
    url = f"/admin/casino_ops/casinosettings/{casino.pk}/change/"
    client.force_login(users[roles.COMMITTEE])
    page = client.get(url)  # the committee reads the settings, every field read-only
    assert page.status_code == 200 and "readonly" in page.content.decode()
    response = client.post(url, {"name": "Piraté", "profile": "FR", "authorised_min_stake": "5.00"})
    assert response.status_code == 403
    assert CasinoSettings.objects.get().name == "Casino de test"
    client.force_login(users[roles.DIRECTOR])
    response = client.post(
        url,
        {
            "name": "Casino du Lac",
            "profile": "LU",
            "authorised_min_stake": "5.00",
            "surrender": "on",
            "double_after_split": "on",
        },
    )
    assert response.status_code == 200  # the form again, with the error on the field
    assert "LU art. 32 1." in response.content.decode()
    assert CasinoSettings.objects.get().name == "Casino de test"
    response = client.post(
        url,
        {
            "name": "Casino du Lac",
            "profile": "FR",
            "authorised_min_stake": "5.00",
            "double_after_split": "on",
        },
    )
    assert response.status_code == 302
    assert CasinoSettings.objects.get().name == "Casino du Lac"


@pytest.mark.django_db
@pytest.mark.parametrize("stake", ["٥", "５.00", "1" * 12])
def test_the_casino_settings_refuse_absurd_digits(client, director, casino, stake) -> None:
    from casino_ops.models import CasinoSettings

    client.force_login(director)
    response = client.post(
        f"/admin/casino_ops/casinosettings/{casino.pk}/change/",
        {"name": "Casino", "profile": "FR", "authorised_min_stake": stake, "authorisation_reference": ""},
    )
    assert response.status_code == 200
    assert "authorised_min_stake" in response.context["adminform"].form.errors
    assert CasinoSettings.objects.get().authorised_min_stake == casino.authorised_min_stake
