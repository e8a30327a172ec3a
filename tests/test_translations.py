"""The English translation (locale/en): the interface speaks French first, English too.

The msgids are French. Under "en" the models, the admin and the rules' messages
read in English, under "fr" in French; every entry of the .po is translated and
none is fuzzy; the committed .mo says what the .po says (a machine without GNU
gettext still shows English).
"""

from __future__ import annotations

import gettext as gnu_gettext
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib import admin
from django.utils.translation import gettext, override

from tests.support.catalogue import LOCALE_DIR, PO, read_po

MO = LOCALE_DIR / "en" / "LC_MESSAGES" / "django.mo"

PLACEHOLDER = re.compile(r"%\([^)]+\)[sdif]|\{[A-Za-z_][A-Za-z0-9_]*\}")


@pytest.fixture(scope="module")
def po_entries() -> list[dict]:
    assert PO.exists(), "locale/en/LC_MESSAGES/django.po is missing: run makemessages -l en"
    entries = read_po(PO)
    header = [e for e in entries if e["msgid"] == ""]
    assert header, "the .po has no header"
    return [e for e in entries if e["msgid"] != ""]


def translations(entry: dict) -> list[str]:
    return [v for k, v in sorted(entry.items()) if k.startswith("msgstr")]


# -- the catalogue itself -------------------------------------------------------------------


def test_po_has_many_entries(po_entries: list[dict]) -> None:
    assert len(po_entries) > 500


def test_every_entry_is_translated_and_not_fuzzy(po_entries: list[dict]) -> None:
    untranslated = [e["msgid"] for e in po_entries if not all(translations(e)) or not translations(e)]
    fuzzy = [e["msgid"] for e in po_entries if "fuzzy" in e["flags"]]
    assert not untranslated, f"{len(untranslated)} untranslated: {untranslated[:10]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy: {fuzzy[:10]}"


def test_header_is_not_fuzzy_and_says_english() -> None:
    head = PO.read_text(encoding="utf-8").split("\n\n", 1)[0]
    assert "#, fuzzy" not in head
    assert '"Language: en\\n"' in head
    assert "charset=UTF-8" in head


def test_placeholders_are_kept(po_entries: list[dict]) -> None:
    wrong = []
    for e in po_entries:
        for text in translations(e):
            sources = [e["msgid"], e.get("msgid_plural", e["msgid"])]
            if not any(sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(s)) for s in sources):
                wrong.append((e["msgid"], text))
    assert not wrong, wrong[:10]


def test_committed_mo_matches_the_po(po_entries: list[dict]) -> None:
    """The .mo is committed so that a machine without gettext shows English: it must
    not lag behind the .po (run compilemessages -l en after every change)."""
    assert MO.exists(), "locale/en/LC_MESSAGES/django.mo is missing: run compilemessages -l en"
    with MO.open("rb") as fh:
        catalog = gnu_gettext.GNUTranslations(fh)
    stale = []
    for e in po_entries:
        if "msgid_plural" in e:
            for n, form in ((1, "msgstr[0]"), (2, "msgstr[1]")):
                got = (
                    catalog.npgettext(e["msgctxt"], e["msgid"], e["msgid_plural"], n)
                    if "msgctxt" in e
                    else catalog.ngettext(e["msgid"], e["msgid_plural"], n)
                )
                if got != e[form]:
                    stale.append(e["msgid"])
        else:
            got = (
                catalog.pgettext(e["msgctxt"], e["msgid"]) if "msgctxt" in e else catalog.gettext(e["msgid"])
            )
            if got != e["msgstr"]:
                stale.append(e["msgid"])
    assert not stale, f"{len(stale)} entries of the .mo differ from the .po: {stale[:10]}"


#: What ``makemessages`` reads: the apps, the templates (the command of docs/development.md, run from the root).
SOURCES = (
    "audit",
    "cards_registry",
    "casino_ops",
    "house_books",
    "inspection",
    "tables",
    "templates",
    "tlog",
)
MAKEMESSAGES = ["makemessages", "-l", "en", "--ignore=.venv/*", "--ignore=tests/*", "--ignore=bench/*"]


def test_the_catalogue_holds_every_text_of_the_code_and_no_other(
    tmp_path: Path, po_entries: list[dict]
) -> None:
    """Every text marked for translation in the code and templates has its entry in the
    committed .po, and the .po keeps none the code no longer has: ``makemessages`` run on a
    copy of the project finds exactly the committed entries (a text left out would show in
    French under English, the other tests would not see it)."""
    root = Path(settings.BASE_DIR)
    copy = tmp_path / "project"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
    for name in SOURCES:
        shutil.copytree(root / name, copy / name, ignore=skip)
    shutil.copytree(root / "locale", copy / "locale", ignore=skip)
    (copy / "tests").mkdir()
    for name in ("__init__.py", "settings.py", "manage.py"):
        source = root / "tests" / name if name != "manage.py" else root / name
        shutil.copy(source, copy / ("tests" if name != "manage.py" else "") / name)
    # the app the tests install (tests/settings.py): read by Django, left out by makemessages
    shutil.copytree(root / "tests" / "recipe_example", copy / "tests" / "recipe_example", ignore=skip)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "PYTHONPATH": str(copy)}
    done = subprocess.run(
        [sys.executable, "manage.py", *MAKEMESSAGES], cwd=copy, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    made = {(e.get("msgctxt"), e["msgid"]) for e in read_po(copy / PO.relative_to(root)) if e["msgid"]}
    kept = {(e.get("msgctxt"), e["msgid"]) for e in po_entries}
    assert sorted(made - kept, key=str) == [], (
        "texts of the code missing from the .po (run the command of docs/development.md)"
    )
    assert sorted(kept - made, key=str) == [], "entries of the .po the code no longer has"


# -- what a user sees ------------------------------------------------------------------------


def test_model_verbose_names() -> None:
    from cards_registry.models import Order, Reception
    from casino_ops.models import CasinoSettings
    from tables.models import AdvanceEntry, ControlDay

    with override("en"):
        assert str(CasinoSettings._meta.verbose_name) == "casino settings"
        assert str(Order._meta.verbose_name) == "purchase order"
        assert str(Reception._meta.verbose_name_plural) == "receipt book"
        assert str(ControlDay._meta.verbose_name_plural) == "control register"
        assert str(AdvanceEntry._meta.verbose_name_plural) == "cash advance book"
    with override("fr"):
        assert str(CasinoSettings._meta.verbose_name) == "paramètres du casino"
        assert str(Order._meta.verbose_name) == "bon de commande"
        assert str(Reception._meta.verbose_name_plural) == "carnet de prise en charge"


def test_admin_site_header() -> None:
    import casino_ops.urls  # noqa: F401  (sets the admin site's titles)

    with override("en"):
        assert str(admin.site.site_header) == "Casino regulated registers"
        assert str(admin.site.index_title) == "Register administration"
    with override("fr"):
        assert str(admin.site.site_header) == "Registres réglementés du casino"


def test_regulation_error_messages() -> None:
    from casino_ops.regulations import RegulationError
    from casino_ops.rules import check_casino_settings

    bad = {"profile": "FR", "authorised_min_stake": "0.15"}
    with override("en"), pytest.raises(RegulationError) as en:
        check_casino_settings(bad)
    assert en.value.message == "The authorised minimum stake must be positive and a multiple of €0.10."
    assert en.value.article.startswith("FR art.")
    with override("fr"), pytest.raises(RegulationError) as fr:
        check_casino_settings(bad)
    assert fr.value.message == "La mise minimale autorisée doit être positive et un multiple de 0,10 €."
    assert fr.value.article == en.value.article

    with override("en"), pytest.raises(RegulationError) as unknown:
        check_casino_settings({"profile": "XX"})
    assert unknown.value.message == "Unknown regulations: XX (FR or LU)."


def test_vocabulary() -> None:
    with override("en"):
        assert gettext("Carnet d'avances") == "Cash advance book"
        assert gettext("Registre de contrôle") == "Control register"
        assert gettext("Visa de l'officier") == "Officer's stamp"
        assert gettext("Officier de police ou de contrôle") == "Police or control officer"
        assert gettext("Registre validé par signature électronique (%(article)s)") % {
            "article": "FR art. 68"
        } == ("Register validated by electronic signature (FR art. 68)")
    with override("fr"):
        assert gettext("Carnet d'avances") == "Carnet d'avances"


@pytest.mark.django_db
def test_admin_login_page_follows_accept_language(client) -> None:
    en = client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE="en")
    assert en.status_code == 200
    assert "Casino regulated registers" in en.content.decode()
    fr = client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Registres réglementés du casino" in fr.content.decode()
