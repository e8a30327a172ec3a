"""The officers' read-only API (mounted under ``/api/``), with its OpenAPI schema."""
