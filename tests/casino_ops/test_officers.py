"""Officers are enrolled by the authority (casino_ops.officers): the casino's administrators
can neither make, extend nor re-key one; a revoked or expired enrolment stops him at once."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from audit.models import AuditEvent
from casino_ops import access, authority, officers, roles
from casino_ops.access import Act
from casino_ops.demo import demo_enrolment
from casino_ops.passkeys import SoftwarePasskey
from house_books.services.officers import record_enrolment
from tests.support.builders import (
    assert_refused,
    casino_settings,
    enrol_officer,
    other_passkey_pem,
)

pytestmark = pytest.mark.django_db


def _fresh(user: Any) -> Any:
    return get_user_model().objects.get(pk=user.pk)


def test_the_officers_group_alone_makes_no_officer(casino: Any) -> None:
    user = get_user_model().objects.create_user(username="faux-officier", password="x")
    user.groups.add(Group.objects.get(name=roles.OFFICER))
    assert not access.may(_fresh(user), Act.VISA)
    assert not roles.is_officer(_fresh(user))
    enrol_officer(user)
    assert access.may(_fresh(user), Act.VISA)


def test_a_superuser_is_no_officer(users: dict[str, Any]) -> None:
    # made before the books hold any act (a database in service creates no superuser)
    boss = get_user_model().objects.create_superuser(username="root", password="x")
    casino_settings(users[roles.DIRECTOR])
    boss.groups.add(Group.objects.get(name=roles.OFFICER))
    assert not access.may(_fresh(boss), Act.VISA)
    with assert_refused("OFFICER_IS_STAFF", field="document"):
        record_enrolment(document=demo_enrolment("root", "Root"))


def test_the_authority_enrols_through_its_command_and_the_casino_records_it(
    casino: Any, tmp_path: Path
) -> None:
    document = tmp_path / "enrolment.json"
    call_command(
        "enrol_officer",
        "--key",
        settings.OFFICER_AUTHORITY_DEMO_KEY,
        "--casino",
        officers.casino_id(),
        "--username",
        "inspecteur",
        "--name",
        "Anne Martin",
        "--demo-passkey",
        "--out",
        str(document),
    )
    call_command("record_enrolment", str(document))
    user = get_user_model().objects.get(username="inspecteur")
    assert access.may(user, Act.VISA) and not user.is_staff and not user.has_usable_password()
    assert (user.first_name, user.last_name) == ("Anne", "Martin")
    event = AuditEvent.objects.filter(action="officer.enrolled").get()
    assert json.loads(event.payload)["officer"] == "inspecteur"
    call_command("record_enrolment", str(document))  # again: nothing more
    assert AuditEvent.objects.filter(action="officer.enrolled").count() == 1


def test_a_changed_enrolment_is_refused(casino: Any) -> None:
    document = demo_enrolment("inspecteur", "Anne Martin")
    extended = {**document, "valid_to": (timezone.now() + dt.timedelta(days=9999)).isoformat()}
    with assert_refused("ENROLMENT_NOT_SIGNED", article="FR art. 68", field="document"):
        record_enrolment(document=extended)
    rekeyed = {**document, "public_key": SoftwarePasskey.from_pem(other_passkey_pem()).public_key}
    with assert_refused("ENROLMENT_NOT_SIGNED", field="document"):
        record_enrolment(document=rekeyed)
    assert not get_user_model().objects.filter(username="inspecteur").exists()


def test_an_enrolment_signed_by_another_key_or_for_another_casino_is_refused(
    casino: Any, tmp_path: Path
) -> None:
    other = authority.make_dev_authority(tmp_path / "other")
    document = authority.sign(
        {key: value for key, value in demo_enrolment("inspecteur", "A").items() if key != "signature"},
        authority.load_key(other.key),
    )
    with assert_refused("ENROLMENT_NOT_SIGNED", field="document"):
        record_enrolment(document=document)
    elsewhere = authority.sign(
        {**demo_enrolment("inspecteur", "A"), "casino": "casino-voisin"},
        authority.load_key(Path(settings.OFFICER_AUTHORITY_DEMO_KEY)),
    )
    with assert_refused("ENROLMENT_OTHER_CASINO", field="document"):
        record_enrolment(document=elsewhere)


def test_an_expired_enrolment_stops_the_officer(casino: Any) -> None:
    user = get_user_model().objects.create_user(username="ancien")
    now = timezone.now()
    enrol_officer(user, valid_from=now - dt.timedelta(days=30), valid_to=now - dt.timedelta(days=1))
    assert not access.may(_fresh(user), Act.VISA)
    enrol_officer(user, valid_from=now + dt.timedelta(days=1), valid_to=now + dt.timedelta(days=30))
    assert not access.may(_fresh(user), Act.VISA)


def test_a_revocation_stops_the_officer_at_once(casino: Any, officer: Any, tmp_path: Path) -> None:
    assert access.may(_fresh(officer), Act.VISA)
    row = officers.enrolment_in_force(officer)
    revocation = tmp_path / "revocation.json"
    call_command(
        "enrol_officer",
        "--key",
        settings.OFFICER_AUTHORITY_DEMO_KEY,
        "--casino",
        officers.casino_id(),
        "--revoke",
        row.serial,
        "--reason",
        "carte perdue",
        "--out",
        str(revocation),
    )
    call_command("record_enrolment", str(revocation))
    assert not access.may(_fresh(officer), Act.VISA)
    assert AuditEvent.objects.filter(action="officer.revoked").count() == 1
    # a revocation changed by hand is not the authority's
    spoiled = json.loads(revocation.read_text()) | {"serial": "autre"}
    with assert_refused("ENROLMENT_NOT_SIGNED"):
        record_enrolment(document=spoiled)


def test_a_document_without_a_signature_is_a_clear_command_error(casino: Any, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(CommandError, match="ENROLMENT_NOT_SIGNED"):
        call_command("record_enrolment", str(bad))
    bad.write_text("not json")
    with pytest.raises(CommandError, match="bad.json"):
        call_command("record_enrolment", str(bad))


def test_check_deploy_wants_the_authority_and_no_demo_key(settings: Any) -> None:
    settings.DEBUG = False
    settings.OFFICER_AUTHORITY_CERTIFICATE = ""
    settings.OFFICER_AUTHORITY_DEMO_KEY = ""
    settings.OFFICER_DEMO_PASSKEY = False
    ids = {error.id for error in officers.check_officers_configured()}
    assert "casino_ops.E101" in ids
    settings.OFFICER_AUTHORITY_DEMO_KEY = "/somewhere/authority-key.pem"
    assert "casino_ops.E104" in {error.id for error in officers.check_officers_configured()}
