"""The witness's WSGI application (``gunicorn witness.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "witness.settings")
application = get_wsgi_application()
