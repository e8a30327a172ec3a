"""Every check of ``inspect_books`` is proven by a planted-breach test on each profile it applies to,
and said in the docs' check list.

The registry of checks (``casino_ops.checks.checks()``) is held to two written-out lists:

- the docs' table of checks (docs/operations.md, "The self-inspection's checks"): each check a row,
  with the profiles it applies to and what it names;
- :data:`PLANTED`: for each check and profile, the test that plants its breach and finds it named
  with the profile's article. Each test named here exists and names the check; an LU one runs
  under LU.

A check and profile with no such test yet is written out in :data:`NOT_YET_PLANTED` (it must be
missing from :data:`PLANTED`: the list only shrinks).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from casino_ops.checks import checks

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "operations.md"

# check -> profile -> "tests/path.py::test_name"
PLANTED: dict[str, dict[str, str]] = {
    "audit.books_bound": {
        "FR": "tests/house_books/test_procedure_holds.py::test_a_book_row_loaded_by_loaddata_is_named_by_inspect_books",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_a_book_row_loaded_by_loaddata_is_named",
    },
    "books.numbering": {
        "FR": "tests/cards_registry/test_inspection.py::test_an_order_book_counter_moved_forward_is_a_numbering_breach",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_an_order_book_counter_moved_forward_is_a_numbering_breach",
    },
    "depot.deck_states": {
        "FR": "tests/cards_registry/test_inspection.py::test_the_nightly_task_records_its_result",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_a_decks_state_written_behind_the_services",
    },
    "depot.decks_out": {
        "FR": "tests/cards_registry/test_inspection.py::test_decks_out_after_their_day",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_decks_out_after_their_day",
    },
    "depot.demands_unanswered": {
        "FR": "tests/cards_registry/test_inspection_open_breaches.py::test_a_demand_to_open_the_cabinet_left_unanswered",
        "LU": "tests/cards_registry/test_inspection_open_breaches.py::test_under_lu_the_breaches_cite_lu",
    },
    "depot.incidents_open": {
        "FR": "tests/cards_registry/test_inspection_open_breaches.py::test_an_incident_never_closed",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_an_incident_never_closed",
    },
    "depot.incidents_reported": {
        "FR": "tests/cards_registry/test_inspection.py::test_incident_not_reported_or_reported_late",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_an_incident_reported_late",
    },
    "depot.incomplete_returns": {
        "FR": "tests/cards_registry/test_inspection.py::test_incomplete_return_without_incident",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_an_incomplete_return_without_incident",
    },
    "depot.maker_approval": {
        "FR": "tests/cards_registry/test_authority_facts.py::test_a_maker_approval_awaits_the_officers_visa",
        "LU": "tests/cards_registry/test_authority_facts.py::test_lu_a_maker_approval_awaits_the_officers_visa",
    },
    "depot.over_delivery": {
        "FR": "tests/cards_registry/test_inspection_open_breaches.py::test_decks_taken_in_beyond_their_order",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_decks_taken_in_beyond_their_order",
    },
    "depot.sixain_cap": {
        "FR": "tests/cards_registry/test_inspection.py::test_sixain_cap_exceeded",
        "LU": "tests/cards_registry/test_authority_facts.py::test_lu_the_sixain_cap_awaits_the_officers_visa",
    },
    "depot.unstamped": {
        "FR": "tests/cards_registry/test_inspection.py::test_unstamped_entries_older_than_the_delay",
        "LU": "tests/cards_registry/test_inspection_lu.py::test_lu_an_order_left_unstamped",
    },
    "house.act_by_unapproved": {
        "FR": "tests/house_books/test_hours_bank.py::test_fr_inspection_names_advance_lines_by_unapproved_people",
        "LU": "tests/house_books/test_hours_bank.py::test_inspection_names_advance_lines_by_unapproved_people",
    },
    "house.approvals_book_not_kept": {
        "LU": "tests/house_books/test_hours_bank.py::test_lu_seances_held_while_no_approval_is_in_the_book_are_named",
    },
    "house.closing_not_disposed": {
        "FR": "tests/house_books/test_closing_notices.py::test_fr_a_closing_not_stamped_and_a_device_left_after_it_are_named",
        "LU": "tests/house_books/test_closing_notices.py::test_inspection_flags_a_device_left_after_closing_and_an_unstamped_closing",
    },
    "house.closing_without_visa": {
        "FR": "tests/house_books/test_closing_notices.py::test_fr_a_closing_not_stamped_and_a_device_left_after_it_are_named",
        "LU": "tests/house_books/test_closing_notices.py::test_closing_recorded_devices_disposed_and_the_officer_stamps",
    },
    "house.committee_incomplete": {
        "LU": "tests/house_books/test_hours_bank.py::test_lu_a_management_committee_of_fewer_than_four_is_named",
    },
    "house.device_before_inventory": {
        "FR": "tests/house_books/test_lu_books_written_at_once.py::test_fr_a_shoe_used_before_its_inventory_is_named",
        "LU": "tests/house_books/test_lu_books_written_at_once.py::test_a_shoe_used_before_its_inventory_is_named",
    },
    "house.devices_missing": {
        "FR": "tests/house_books/test_devices.py::test_fr_a_shoe_never_put_back_and_a_shoe_at_the_same_table_all_week_are_named",
        "LU": "tests/house_books/test_devices.py::test_register_assign_and_return",
    },
    "house.devices_systematic": {
        "FR": "tests/house_books/test_devices.py::test_fr_a_shoe_never_put_back_and_a_shoe_at_the_same_table_all_week_are_named",
        "LU": "tests/house_books/test_devices.py::test_the_same_device_at_the_same_table_all_week_is_systematic",
    },
    "house.exclusion_notice_recorded_late": {
        "FR": "tests/house_books/test_notice_times.py::test_fr_a_ministers_decision_said_told_long_before_it_is_recorded_is_named",
        "LU": "tests/house_books/test_notice_times.py::test_a_ministers_decision_said_told_long_before_it_is_recorded_is_named",
    },
    "house.exclusion_not_notified": {
        "FR": "tests/house_books/test_exclusions.py::test_fr_inspection_flags_an_own_refusal_not_notified_at_once",
        "LU": "tests/house_books/test_exclusions.py::test_inspection_flags_an_own_exclusion_not_notified_at_once",
    },
    "house.orphan_entered_late": {
        "FR": "tests/house_books/test_lu_books_written_at_once.py::test_fr_an_orphan_entered_after_its_gaming_day_is_named",
        "LU": "tests/house_books/test_lu_books_written_at_once.py::test_an_orphan_entered_after_its_gaming_day_is_named",
    },
    "house.orphans_not_transferred": {
        "FR": "tests/house_books/test_orphans.py::test_fr_inspection_finds_an_exercise_not_transferred",
        "LU": "tests/house_books/test_orphans.py::test_inspection_finds_an_exercise_not_transferred",
    },
    "house.session_outside_hours": {
        "FR": "tests/house_books/test_hours_bank.py::test_fr_inspection_names_a_seance_opened_before_its_hour",
        "LU": "tests/house_books/test_hours_bank.py::test_inspection_names_a_seance_opened_before_its_hour",
    },
    "house.session_without_authorisation": {
        "FR": "tests/house_books/test_hours_bank.py::test_fr_inspection_names_a_seance_opened_after_a_failure",
        "LU": "tests/house_books/test_hours_bank.py::test_inspection_names_a_seance_opened_after_a_failure",
    },
    "house.table_notice": {
        "FR": "tests/house_books/test_closing_notices.py::test_under_fr_the_notice_is_internal_and_checked_once_kept",
        "LU": "tests/house_books/test_closing_notices.py::test_a_changed_maximum_makes_the_notice_stale",
    },
    "house.tips_not_counted": {
        "FR": "tests/house_books/test_tips.py::test_inspection_finds_a_day_of_play_without_a_count",
        "LU": "tests/house_books/test_tips.py::test_lu_inspection_finds_a_day_of_play_without_a_count",
    },
    "people.incompatible_roles": {
        "FR": "tests/house_books/test_book_of_roles.py::test_a_role_or_a_name_changed_in_sql_is_named",
        "LU": "tests/house_books/test_people_checks_lu.py::test_lu_a_role_given_in_sql_is_named_with_its_name_changed_and_the_clash",
    },
    "people.name_changed": {
        "FR": "tests/house_books/test_book_of_roles.py::test_a_role_or_a_name_changed_in_sql_is_named",
        "LU": "tests/house_books/test_people_checks_lu.py::test_lu_a_role_given_in_sql_is_named_with_its_name_changed_and_the_clash",
    },
    "people.role_without_act": {
        "FR": "tests/house_books/test_book_of_roles.py::test_a_role_taken_away_in_sql_is_named",
        "LU": "tests/house_books/test_people_checks_lu.py::test_lu_a_role_taken_away_in_sql_is_named",
    },
    "people.superuser_unrecorded": {
        "FR": "tests/house_books/test_procedure_holds.py::test_a_superuser_made_in_sql_on_a_database_in_service_is_named",
        "LU": "tests/house_books/test_people_checks_lu.py::test_lu_a_superuser_made_in_sql_on_a_database_in_service_is_named",
    },
    "tables.authorised_minimum_not_stamped": {
        # parametrized on both profiles
        "FR": "tests/tables/test_decks_and_breaches.py::test_an_authorised_minimum_in_force_and_not_stamped_is_named",
        "LU": "tests/tables/test_decks_and_breaches.py::test_an_authorised_minimum_in_force_and_not_stamped_is_named",
    },
    "tables.counter_is_signer": {
        "FR": "tests/house_books/test_procedure_holds.py::test_a_line_counted_and_signed_by_one_person_is_named",
        "LU": "tests/house_books/test_people_checks_lu.py::test_lu_a_line_counted_and_signed_by_one_person_is_named",
    },
    "tables.day_not_closed": {
        "FR": "tests/tables/test_control_day.py::test_days_never_closed_and_closed_days_not_stamped_are_named",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_a_day_never_closed_then_never_stamped",
    },
    "tables.day_not_stamped": {
        "FR": "tests/tables/test_control_day.py::test_a_day_closed_a_week_ago_and_never_stamped",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_a_day_never_closed_then_never_stamped",
    },
    "tables.day_total_differs": {
        "FR": "tests/tables/test_corrections.py::test_a_total_that_differs_from_the_lines_is_named",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_a_day_total_that_differs_from_the_lines",
    },
    "tables.day_visa_voided": {
        "FR": "tests/tables/test_corrections.py::test_a_correction_after_the_visa_voids_it",
        "LU": "tests/tables/test_corrections.py::test_lu_a_correction_after_the_visa_is_named",
    },
    "tables.decks_in_two_live_shoes": {
        "FR": "tests/tables/test_inspection.py::test_decks_in_two_live_shoes_and_logs_of_unknown_shoes",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_a_deck_in_two_live_shoes",
    },
    "tables.discrepancy_not_acknowledged": {
        "FR": "tests/tables/test_inspection.py::test_discrepancies_acknowledged_by_the_director",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_discrepancies_not_acknowledged",
    },
    "tables.entries_unsigned": {
        "FR": "tests/tables/test_inspection.py::test_advances_or_counts_unsigned",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_an_advance_line_unsigned",
    },
    "tables.exercise_reset": {
        "FR": "tests/tables/test_decks_and_breaches.py::test_the_exercise_start_moved_after_seances_is_named",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_the_exercise_start_moved_after_seances",
    },
    "tables.hand_log_unknown_shoe": {
        "FR": "tests/tables/test_decks_and_breaches.py::test_a_log_of_an_unknown_shoe_is_named_until_the_officer_closes_its_incident",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_a_log_of_an_unknown_shoe",
    },
    "tables.interruption_open": {
        "FR": "tests/tables/test_inspection.py::test_an_interruption_left_open",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_an_interruption_left_open",
    },
    "tables.lu_notice_missing": {"LU": "tests/tables/test_inspection.py::test_lu_notice_missing"},
    "tables.ministry_notice_backdated": {
        "LU": "tests/tables/test_inspection.py::test_lu_a_notice_declared_sent_before_its_recording_is_named"
    },
    "tables.replay_not_done": {
        "FR": "tests/tables/test_inspection.py::test_a_replay_not_done",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_a_replay_not_done",
    },
    "tables.session_past_gaming_day": {
        "FR": "tests/tables/test_inspection.py::test_a_session_open_past_its_gaming_day",
        "LU": "tests/tables/test_inspection_lu.py::test_lu_a_seance_open_past_its_gaming_day",
    },
    "tables.session_without_decks": {
        # parametrized on both profiles
        "FR": "tests/tables/test_decks_and_breaches.py::test_seances_played_without_decks_are_named",
        "LU": "tests/tables/test_decks_and_breaches.py::test_seances_played_without_decks_are_named",
    },
}

# (check, profile) that applies but has no planted-breach test yet: the work left, written out.
NOT_YET_PLANTED: set[tuple[str, str]] = set()


def _docs_table() -> dict[str, set[str]]:
    """check -> the profiles the docs' table says it applies to."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## The self-inspection's checks", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, set[str]] = {}
    for match in re.finditer(r"^\| `([a-z_.]+)` \| ([^|]+) \| ([^|]+) \|$", section, re.MULTILINE):
        name, profiles, covers = match.group(1), match.group(2).strip(), match.group(3).strip()
        assert covers, f"{name}: the docs' row says nothing of what it covers"
        rows[name] = {"FR", "LU"} if profiles.startswith("both") else {p.strip() for p in profiles.split(",")}
    return rows


def _test_source(node_id: str) -> str:
    path, name = node_id.split("::")
    source = (ROOT / path).read_text(encoding="utf-8")
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])  # its parameters too
            return "\n".join(source.splitlines()[first - 1 : node.end_lineno])
    raise AssertionError(f"{node_id}: no such test")


def test_every_check_is_in_the_docs_list_with_its_profiles() -> None:
    table = _docs_table()
    assert sorted(table) == sorted(c.name for c in checks())


@pytest.mark.parametrize("profile", ["FR", "LU"])
def test_every_check_has_a_planted_breach_test_on_each_profile_it_applies_to(profile: str) -> None:
    table = _docs_table()
    applies = sorted(name for name, profiles in table.items() if profile in profiles)
    missing = [name for name in applies if profile not in PLANTED.get(name, {})]
    assert sorted(missing) == sorted(n for n, p in NOT_YET_PLANTED if p == profile)
    for name in applies:
        node_id = PLANTED.get(name, {}).get(profile)
        if node_id is None:
            continue
        source = _test_source(node_id)
        assert f'"{name}"' in source, f"{node_id} does not name {name}"
        if profile == "LU":
            assert re.search(r"(?<![a-z])lu(?![a-z])|\"LU\"", source), f"{node_id} does not run under LU"


def test_the_list_of_what_is_not_planted_names_only_real_checks() -> None:
    names = {c.name for c in checks()}
    assert {name for name, _profile in NOT_YET_PLANTED} <= names
    assert set(PLANTED) <= names


#: The helpers that word a breach under the code they are given (the check passes its own).
BREACH_MAKERS = {"Breach", "_each"}


def test_each_check_words_its_breaches_under_its_own_name() -> None:
    """A check's breaches carry the check's own name (``Breach(name, …)``, first argument), so
    that the breaches one check names are those of that check alone (a test about one check runs
    it alone: ``tests/support/self_inspection.py``). Read on the syntax tree of every module that
    words a breach: each literal name stands inside the check it names; a name not written out is
    passed by the check to a helper that words it."""
    wrong: list[str] = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        if {".venv", "tests", "bench", "migrations"} & set(path.relative_to(ROOT).parts):
            continue
        source = path.read_text()
        if "Breach(" not in source:
            continue

        def walk(node: ast.AST, check: str | None, where: Path = path) -> None:
            for child in ast.iter_child_nodes(node):
                inside = check
                if isinstance(child, ast.FunctionDef):
                    named = [
                        d.args[0].value
                        for d in child.decorator_list
                        if isinstance(d, ast.Call)
                        and getattr(d.func, "id", None) == "check"
                        and d.args
                        and isinstance(d.args[0], ast.Constant)
                    ]
                    inside = named[0] if named else check
                if isinstance(child, ast.Call) and getattr(child.func, "id", None) in BREACH_MAKERS:
                    first = child.args[0] if child.args else None
                    if isinstance(first, ast.Constant):
                        if first.value != inside:
                            wrong.append(
                                f"{where.relative_to(ROOT)}:{child.lineno}: {first.value} in {inside}"
                            )
                    elif inside is not None:
                        wrong.append(
                            f"{where.relative_to(ROOT)}:{child.lineno}: a name not written out in {inside}"
                        )
                walk(child, inside)

        walk(ast.parse(source), None)
    assert not wrong, wrong
