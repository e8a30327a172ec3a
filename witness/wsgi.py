"""The witness's WSGI application (``gunicorn witness.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

# always the witness's own settings, never a casino's left in the environment
os.environ["DJANGO_SETTINGS_MODULE"] = "witness.settings"
application = get_wsgi_application()
