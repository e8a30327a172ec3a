"""Login of the portal (password and TOTP code), the code step, logout."""

from __future__ import annotations

import base64
import io
import json
from urllib.parse import urlencode

from django.contrib.auth import login, logout
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino_ops import officers, roles
from casino_ops.middleware import not_compressed

from ..auth import has_device, is_locked_out, lockout_response, needs_second_factor, new_totp_device
from ..forms import CodeForm, EnrolForm, OfficerLoginForm
from ..passkey import check_login, demo_path, login_options, second_factor_given


def _next(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@sensitive_post_parameters("password", "code")
@csrf_protect
@never_cache
def login_view(request: HttpRequest) -> HttpResponse:
    form = OfficerLoginForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        login(request, form.user)
        if form.device is not None:
            otp_login(request, form.device)
        target = _next(request, reverse("portal:dashboard"))
        if needs_second_factor(form.user) and form.device is None:
            # an officer: his passkey, at the next step
            return HttpResponseRedirect(f"{reverse('portal:verify')}?{urlencode({'next': target})}")
        return HttpResponseRedirect(target)
    return render(
        request,
        "portal/login.html",
        {"form": form, "next": _next(request, "")},
        status=200 if request.method == "GET" or form.is_valid() else 400,
    )


@sensitive_post_parameters("code")
@csrf_protect
@never_cache
def verify_view(request: HttpRequest) -> HttpResponse:
    """The second step for a director or an officer signed in with a password only
    (the admin's login): a code from the app, or enrol an app first."""
    if not request.user.is_authenticated:
        return HttpResponseRedirect(reverse("portal:login"))
    default = reverse("portal:dashboard") if not request.user.is_staff else reverse("admin:index")
    if not needs_second_factor(request.user) or second_factor_given(request.user):
        return HttpResponseRedirect(_next(request, default))
    if is_locked_out(request, request.user):
        return lockout_response(request, credentials={"username": request.user.get_username()})
    if roles.has_role(request.user, roles.OFFICER):
        return _passkey_step(request)
    if has_device(request.user):
        form: CodeForm | EnrolForm = CodeForm(request, data=request.POST or None)
        if request.method == "POST" and form.is_valid():
            otp_login(request, form.device)
            return HttpResponseRedirect(_next(request, default))
        return render(request, "portal/verify.html", {"form": form, "next": _next(request, "")})
    # No app yet: enrol one (shown once, confirmed by its first code).
    device = TOTPDevice.objects.filter(user=request.user, confirmed=False).first()
    if device is None or request.method == "GET":
        device = new_totp_device(request.user)
    form = EnrolForm(device, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        otp_login(request, device)
        return HttpResponseRedirect(_next(request, default))
    import qrcode  # imported when a code is shown, not by every process loading the URLs
    import qrcode.image.svg

    image = qrcode.make(device.config_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    buffer = io.BytesIO()
    image.save(buffer)
    context = {
        "form": form,
        "next": _next(request, ""),
        "secret": base64.b32encode(device.bin_key).decode(),
        "qr_svg": base64.b64encode(buffer.getvalue()).decode(),
    }
    return not_compressed(render(request, "portal/enrol.html", context))  # it shows the key


def _passkey_step(request: HttpRequest) -> HttpResponse:
    """An officer's second factor: his passkey, under his enrolment in force."""
    enrolment = officers.enrolment_in_force(request.user)
    error = ""
    if request.method == "POST":
        demo = request.POST.get("demo") == "1"
        if check_login(request, enrolment, request.POST.get("assertion", ""), demo=demo):
            otp_login(request, enrolment)
            return HttpResponseRedirect(_next(request, reverse("portal:dashboard")))
        if is_locked_out(request, request.user):
            return lockout_response(request, credentials={"username": request.user.get_username()})
        error = _("Votre clé d'accès n'a pas été reconnue : réessayez.")
    context = {
        "options_json": json.dumps(login_options(request, enrolment)),
        "next": _next(request, ""),
        "error": error,
        "demo": demo_path(enrolment),
    }
    return render(request, "portal/passkey.html", context, status=400 if error else 200)


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    return HttpResponseRedirect(reverse("portal:login"))
