"""``manage.py add_staff``: each role by the act of the book of roles (FR art. 68, LU art. 10), given
by the director named, recorded with who gave it and why; the first director named once on an empty
book; never an officer (the authority's enrolment)."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from audit.models import AuditEvent
from house_books.models import RoleEntry

pytestmark = pytest.mark.django_db


def _add(*args: str) -> str:
    out = StringIO()
    call_command("add_staff", *args, stdout=out)
    return out.getvalue()


def test_the_first_director_then_his_staff_by_the_book_of_roles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PW", "Une-phrase-de-passe-longue-42")
    _add("jmarchal", "--role", "Directeur responsable", "--password-env", "PW")
    director = get_user_model().objects.get(username="jmarchal")
    first = RoleEntry.objects.get(person=director)
    assert first.role == "directeur" and first.reason == "Entrée en fonction"
    # another role needs the director who gives it
    with pytest.raises(CommandError, match="--by"):
        _add("lbernard", "--role", "Chef de table / croupier", "--password-env", "PW")
    assert not get_user_model().objects.filter(username="lbernard", groups__isnull=False).exists()
    _add("lbernard", "--role", "Chef de table / croupier", "--password-env", "PW", "--by", "jmarchal")
    chief = get_user_model().objects.get(username="lbernard")
    entry = RoleEntry.objects.get(person=chief)
    assert entry.role == "chef_de_table" and chief.is_staff
    assert AuditEvent.objects.filter(action="house.role_granted").count() == 2
    # a second "first director" is refused: the book is kept
    with pytest.raises(CommandError, match="FIRST_DIRECTOR_ALREADY_NAMED"):
        _add("autre", "--role", "directeur", "--password-env", "PW")


def test_no_command_of_the_casino_makes_an_officer(director: Any, casino: Any) -> None:
    with pytest.raises(CommandError, match="OFFICER_BY_AUTHORITY_ONLY"):
        _add("cdubois", "--role", "Officier de police ou de contrôle", "--by", director.username)
    assert not get_user_model().objects.filter(username="cdubois").exists()
