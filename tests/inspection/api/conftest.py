"""The officers' API tests share the portal's fixtures (roles, TOTP devices, samples)."""

from tests.inspection.portal.conftest import (  # noqa: F401
    clients,
    devices,
    officer_client,
    two_factor_required,
)
from tests.inspection.portal.samples import dev_cert, samples, shared_samples, signing  # noqa: F401
