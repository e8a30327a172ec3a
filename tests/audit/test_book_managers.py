"""The books capture the rows ``bulk_create`` and ``update`` write through their own default
manager (audit.books.BookManager), not by changing Django's QuerySet for every model."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ImproperlyConfigured
from django.db import connections, transaction
from django.db.models.query import QuerySet

from audit.books import BookQuerySet, books, drain, register_book
from audit.models import AuditEvent
from cards_registry.models import Deck
from house_books.models import ApprovalEndEntry


def test_django_querysets_are_left_as_django_made_them() -> None:
    for method in (QuerySet.update, QuerySet.bulk_create):
        assert method.__module__ == "django.db.models.query", method
        assert method.__qualname__ == f"QuerySet.{method.__name__}", method
    assert type(Group.objects.all()) is QuerySet
    assert type(AuditEvent.objects.all()) is not BookQuerySet


def test_every_book_writes_through_a_book_queryset() -> None:
    declared = [book.model for book in books() if not book.model._meta.auto_created]
    assert len(declared) >= 40
    for model in declared:
        assert isinstance(model._default_manager.get_queryset(), BookQuerySet), model
    # a proxy of a book (an end of approval) writes through it too
    assert isinstance(ApprovalEndEntry.objects.all(), BookQuerySet)


def test_a_book_declared_without_its_manager_is_refused() -> None:
    with pytest.raises(ImproperlyConfigured, match="auth.Group is a book: its default manager"):
        register_book(Group, ["name"])
    assert all(book.model is not Group for book in books())


@pytest.mark.django_db
def test_update_and_bulk_create_of_a_book_are_captured_in_an_act(casino, director, officer) -> None:
    from tests.support import builders

    depot = builders.depot_with_decks(director, officer)
    accessor = Deck._meta.get_field("reception").remote_field.get_accessor_name()
    assert isinstance(getattr(depot.reception, accessor).all(), BookQuerySet)  # a related manager
    with transaction.atomic():
        drain(connections["default"])
        Deck.objects.filter(pk=depot.decks[0].pk).update(status="destroyed")
        rows = drain(connections["default"])
        transaction.set_rollback(True)
    assert [(table, pk, values["status"]) for table, pk, values in rows] == [
        ("cards_registry_deck", depot.decks[0].pk, "destroyed")
    ]
    with transaction.atomic():
        drain(connections["default"])
        Group.objects.filter(name="nobody").update(name="still nobody")
        assert drain(connections["default"]) == []
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_an_update_of_a_book_returns_its_keys_in_one_statement(
    casino, director, officer, django_assert_num_queries
) -> None:
    """PostgreSQL: the UPDATE returns the keys of the rows it wrote (no SELECT of them
    first), across a join too; a filter no row can match sends nothing, as Django's."""
    from tests.support import builders

    depot = builders.depot_with_decks(director, officer)
    first, second = depot.decks[0], depot.decks[1]
    with transaction.atomic():
        drain(connections["default"])
        with django_assert_num_queries(1):
            done = Deck.objects.filter(pk__in=[first.pk, second.pk], status=first.status).update(
                status="destroyed"
            )
        assert done == 2
        with django_assert_num_queries(1):
            # a filter across a join: Django's own pk__in subquery
            assert (
                Deck.objects.filter(pk=first.pk, reception=depot.reception).update(status="out_of_use") == 1
            )
        with django_assert_num_queries(0):
            assert Deck.objects.filter(pk__in=[]).update(status="destroyed") == 0
        rows = drain(connections["default"])
        transaction.set_rollback(True)
    assert [(table, pk, values["status"]) for table, pk, values in rows] == [
        ("cards_registry_deck", first.pk, "out_of_use"),
        ("cards_registry_deck", second.pk, "destroyed"),
    ]
