"""The client's address behind the reverse proxy, for the login throttle (django-axes).

Behind a proxy every request comes from the proxy's address; keying the throttle
on it would let one user's wrong passwords lock that username for everyone. When
the request comes from one of ``TRUSTED_PROXIES`` (addresses or networks), the
client is the right-most address of ``X-Forwarded-For`` that is not itself a
trusted proxy (what the nearest trusted proxy saw; the addresses further left
are whatever the client chose to send). Otherwise ``REMOTE_ADDR`` is the client.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
    if address is None:
        return False
    return any(address in network for network in _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ()))))


def client_ip(request: HttpRequest) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the client's address as the trusted proxies saw it."""
    remote = request.META.get("REMOTE_ADDR") or None
    if not _trusted(_address(remote or "")):
        return remote
    forwarded = [part for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    for part in reversed(forwarded):
        address = _address(part)
        if address is None:
            return remote  # a garbled header: fall back to the proxy itself
        if not _trusted(address):
            return str(address)
    return remote
