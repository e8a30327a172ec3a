"""The officers' API tests share the portal's fixtures (roles, TOTP devices, samples)."""

from tests.portal.conftest import (  # noqa: F401
    clients,
    devices,
    officer_client,
    two_factor_required,
)
from tests.support.samples import dev_cert, samples, shared_samples, signing  # noqa: F401
