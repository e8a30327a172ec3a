"""The registers the law asks the casino to keep, printed as signed PDF (FR art. 68).

Each register is a small module of this package: it reads its rows through
the apps' selectors and names its template (``audit/templates/registers/``).
:mod:`inspection.registers.render` turns any of them into a signed PDF;
:mod:`inspection.registers.reports` makes them as report rows, through Celery or
the ``register`` command. This package reads the apps; the audit record
(:mod:`audit.chain`) never imports it.
"""

from . import (
    advance_book,
    approvals,
    authorised_minimums,
    bank_failures,
    closing,
    control_register,
    depot_log,
    destructions,
    exclusions,
    hours,
    incidents,
    numbering,
    order_book,
    orphans,
    receipt_book,
    session_report,
    shoe_devices,
    table_notice,
    tips,
)
from .base import MODULES, REGISTERS, Register, get_register, register_names

# every register's module registers it on import: a missing one is an error, not a gap
_modules = (
    advance_book, approvals, authorised_minimums, bank_failures, closing, control_register, depot_log,
    destructions, exclusions, hours, incidents, numbering, order_book, orphans, receipt_book,
    session_report, shoe_devices, table_notice, tips,
)  # fmt: skip
if set(REGISTERS.names()) != set(MODULES) or {m.__name__.rpartition(".")[2] for m in _modules} != set(
    MODULES.values()
):
    raise ImportError(
        f"inspection.registers: the registers {sorted(REGISTERS.names())} are not those named {sorted(MODULES)}"
    )

__all__ = ["REGISTERS", "Register", "get_register", "register_names"]
