"""The officers' portal under ``/inspection/``: read-only pages, visual replay,
visas and incident closures, the signature checker, and the two-factor login.

Who may see what is decided in one place, :mod:`casino_ops.access`; :mod:`inspection.portal.access`
adds the login's second factor and the portal's 404s.
"""
