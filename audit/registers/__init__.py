"""The registers the law asks the casino to keep, printed as signed PDF (FR art. 68).

Each register is a small module of this package: it reads its rows through
the apps' selectors and names its template (``audit/templates/registers/``).
:mod:`audit.registers.render` turns any of them into a signed PDF;
:mod:`audit.registers.reports` makes them as report rows, through Celery or
the ``register`` command. This package reads the apps; the audit record
(:mod:`audit.chain`) never imports it.
"""

from .base import REGISTERS, Register, get_register, register_names

__all__ = ["REGISTERS", "Register", "get_register", "register_names"]
