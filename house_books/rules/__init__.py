"""The checks of the casino's other books and the articles they cite (LU art. 8, 11, 32, 40,
51-57, 63, 67-75; under FR, the casino's internal rules).

Pure checks over plain values or model instances already loaded: no query, no write. Each
raises :class:`~casino_ops.regulations.RegulationError` with the article of the casino's
profile and the field at fault. :mod:`.common`: amounts, texts, dates and moments every book
checks; :mod:`.exclusions`: the fichier des exclus and the entries refused at the door;
:mod:`.tips`: the count of the tips box; :mod:`.devices`: the shoe devices; :mod:`.orphans`:
a sum found, its repayment and the exercise's transfer; :mod:`.approvals`: the ministers'
approvals; :mod:`.bank`: the bank's failure and the new authorisation; :mod:`.closing`: the
closing down; :mod:`.hours`: the séance hours and an early stop; :mod:`.notices`: the table
notice; :mod:`.casino`: the casino's settings; :mod:`.seances`: what the books add to a
séance's opening, advance and closing. Where a check needs the database, the service (or
the act hook) runs the query and passes its plain result in.
"""

from .common import money, past_date, past_moment, required_text
from .exclusions import (
    check_director_notified,
    check_exclusion_given,
    check_exclusion_in_force,
    check_lift_day,
    check_minister_ground,
    check_not_lifted,
    check_notice_day,
    check_notifiable,
    check_own_kind,
    check_same_person,
    person,
)

__all__ = [
    "check_director_notified",
    "check_exclusion_given",
    "check_exclusion_in_force",
    "check_lift_day",
    "check_minister_ground",
    "check_not_lifted",
    "check_notice_day",
    "check_notifiable",
    "check_own_kind",
    "check_same_person",
    "money",
    "past_date",
    "past_moment",
    "person",
    "required_text",
]
