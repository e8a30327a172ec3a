"""What several tests walk: the project's admin modules, and the views of the apps' API (read
from the URL resolver, so that a view added later is found)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

ROOT = Path(__file__).resolve().parents[2]
PROJECT_APPS = ("casino_ops", "audit", "inspection", "cards_registry", "tables", "house_books")
#: the namespaces of the apps' API and the officers', and of the endpoints derived from the acts'
#: declarations (casino_ops.api.declared_urls)
NAMESPACES = ("tables", "depot", "house_books", "officers_api", "acts")


def admin_modules() -> list[Path]:
    found: list[Path] = []
    for app in PROJECT_APPS:
        found += (ROOT / app).glob("admin.py")
        found += (ROOT / app).glob("admin/*.py")
        found += (ROOT / app).glob("*/admin.py")
    return sorted(found)


def api_views(patterns: Any = None, namespace: str = "") -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(url name, view class, its as_view() arguments) of every view of the apps' API."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from api_views(entry.url_patterns, entry.namespace or namespace)
        elif isinstance(entry, URLPattern) and namespace in NAMESPACES:
            callback = entry.callback
            view = getattr(callback, "view_class", None) or callback.cls  # a view set's: cls
            initkwargs = getattr(callback, "view_initkwargs", None) or getattr(callback, "initkwargs", {})
            if view.__module__.startswith("drf_spectacular."):
                continue  # the schema and its pages: any signed-in user reads them
            yield f"{namespace}:{entry.name}", view, initkwargs


def api_view_list() -> list[tuple[str, Any, dict[str, Any]]]:
    """Every view of the apps' API, by url name."""
    return sorted(api_views(), key=lambda v: v[0])


def product_books() -> list[Any]:
    """The books of the product's apps (``audit.books.books()`` less those of an app the tests
    alone install, ``tests/recipe_example``: a database the product migrates has no table of it)."""
    from audit.books import books

    return [book for book in books() if not book.model.__module__.startswith("tests.")]
