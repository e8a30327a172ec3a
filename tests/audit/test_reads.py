"""audit.reads.audit_numbers: the audit number of objects' acts, one query."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.db import transaction

import audit
from audit.actions import Action
from audit.chain import seal_pending
from audit.reads import audit_numbers


@pytest.mark.django_db
def test_audit_numbers_of_objects_or_of_a_type_and_ids(django_assert_num_queries):
    groups = [Group.objects.create(name=f"g{i}") for i in range(3)]
    with transaction.atomic():
        for group in groups:
            audit.record(actor=None, action=Action.TABLE_CREATED, obj=group)
        audit.record(actor=None, action=Action.TABLE_IN_SERVICE, obj=groups[0])
        audit.record(actor=None, action=Action.TABLE_CREATED, obj=groups[1])  # a second: the first counts
    seal_pending()
    with django_assert_num_queries(1):
        created = audit_numbers(groups[:2], Action.TABLE_CREATED)
    seqs = {str(g.pk): audit_numbers([g], Action.TABLE_CREATED)[str(g.pk)] for g in groups}
    assert created == {str(groups[0].pk): seqs[str(groups[0].pk)], str(groups[1].pk): seqs[str(groups[1].pk)]}
    assert sorted(seqs.values()) == sorted(set(seqs.values())) and None not in seqs.values()
    assert audit_numbers(("auth.group", [groups[2].pk, 999]), Action.TABLE_CREATED) == {
        str(groups[2].pk): seqs[str(groups[2].pk)]
    }
    in_service = audit_numbers(groups, Action.TABLE_IN_SERVICE)
    assert list(in_service) == [str(groups[0].pk)] and in_service[str(groups[0].pk)] > max(seqs.values())
    either = audit_numbers(groups, {Action.TABLE_IN_SERVICE, Action.TABLE_CREATED})
    assert either == seqs
    assert audit_numbers([], Action.TABLE_CREATED) == {}


@pytest.mark.django_db
def test_audit_numbers_refuses_mixed_models_and_bare_strings():
    group = Group.objects.create(name="g")
    user = User.objects.create(username="u")
    with pytest.raises(ValueError, match="one model"):
        audit_numbers([group, user], Action.TABLE_CREATED)
    with pytest.raises(TypeError, match="Action"):
        audit_numbers([group], "table.created")
