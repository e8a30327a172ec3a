"""A hand log, its rounds and the visual replay of each round."""

from __future__ import annotations

import functools
import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .. import access, selectors
from ..replay import round_steps, round_summaries
from ..replay_text import translate_steps


def _log_and_report(request: HttpRequest, log_id: int) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    log = access.get_visible_or_404(request.user, selectors.hand_logs(), pk=log_id)
    report = selectors.hand_log_report(log)
    discrepancies = list(selectors.discrepancies(hand_log=log.pk).order_by("id").values())
    return log, report, discrepancies


@access.officer_required()
def hand_log(request: HttpRequest, log_id: int) -> HttpResponse:
    log, report, discrepancies = _log_and_report(request, log_id)
    rounds = round_summaries(report, discrepancies)
    first_position: dict[int, int] = {}
    for r in rounds:
        first_position.setdefault(r["number"], r["position"])
    for d in discrepancies:
        d["position"] = first_position.get(d["round"])
    return render(
        request,
        "portal/hand_log.html",
        {"log": log, "report": report, "rounds": rounds, "discrepancies": discrepancies},
    )


@access.officer_required()
def replay_round(request: HttpRequest, log_id: int, position: int) -> HttpResponse:
    log = access.get_visible_or_404(request.user, selectors.hand_logs(), pk=log_id)
    doc = json.loads(log.raw)
    if not 1 <= position <= len(doc.get("rounds", [])):
        raise Http404
    log_round = doc["rounds"][position - 1]
    number = log_round.get("number")

    @functools.cache
    def steps() -> list[dict[str, Any]]:
        # Called by the template only when its cached fragment is missing: a stored
        # log, its replay and its discrepancies never change (FR art. 68).
        report = selectors.hand_log_report(log)
        report_round = report["rounds"][position - 1] if position <= len(report["rounds"]) else None
        mine = list(selectors.discrepancies(hand_log=log.pk, round_number=number).order_by("id").values())
        return translate_steps(round_steps(log_round, report_round, mine, box_count=log.session.table.boxes))

    return render(
        request,
        "portal/replay.html",
        {
            "log": log,
            "position": position,
            "number": number,
            "steps": steps,
            # The fragment changes once: when the replay has stored the discrepancies.
            "variant": selectors.rendering_variant(request.user),
            "replay_state": "done" if getattr(log, "replay", None) is not None else "pending",
            "round_count": len(doc["rounds"]),
            "previous": position - 1 if position > 1 else None,
            "next": position + 1 if position < len(doc["rounds"]) else None,
        },
    )
