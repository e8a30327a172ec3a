"""The officers' API tests share the portal's fixtures (two-factor login required, samples)."""

from tests.inspection.portal.conftest import two_factor_required  # noqa: F401
from tests.support.samples import dev_cert, samples, shared_samples, signing  # noqa: F401
