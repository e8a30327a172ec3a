"""The static files' storage: WhiteNoise's (each file under a name carrying its content's hash,
with its compressed copies), its names in every page even with ``DEBUG`` on (Django's manifest
gives the plain names in debug, which no cache may keep for a year): the quick start serves its
static files as production does."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # whitenoise is untyped
    def url(self, name: str | None, force: bool = False) -> str:
        return str(super().url(name, force=True))
