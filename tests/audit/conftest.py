"""Fixtures for the signed registers and checkpoints: a demo certificate, and the
two outside tools an officer would use to check a PDF (pyHanko's command line
and poppler's pdfsig with an NSS database that trusts the demo CA)."""

from __future__ import annotations

import atexit
import json
import select
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from audit import devcert


@pytest.fixture(scope="session")
def dev_cert(tmp_path_factory: pytest.TempPathFactory) -> devcert.DevCertificate:
    return devcert.make_dev_certificate(tmp_path_factory.mktemp("signing"), casino="Casino de test")


@pytest.fixture
def signing_configured(
    settings: Any, dev_cert: devcert.DevCertificate, tmp_path: Path
) -> devcert.DevCertificate:
    settings.SIGNING_PKCS12 = str(dev_cert.pkcs12)
    settings.SIGNING_PKCS12_PASSWORD = dev_cert.password
    settings.TIMESTAMP_URL = ""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return dev_cert


@pytest.fixture
def witness(settings: Any, signing_configured: devcert.DevCertificate, tmp_path: Path) -> Path:
    """Signing configured, and checkpoints witnessed in a directory outside the database."""
    settings.AUDIT_WITNESS_DIR = str(tmp_path / "witness")
    settings.AUDIT_WITNESS_STORAGE = ""
    return tmp_path / "witness"


@pytest.fixture(scope="session")
def nss_db(tmp_path_factory: pytest.TempPathFactory, dev_cert: devcert.DevCertificate) -> str:
    if shutil.which("certutil") is None or shutil.which("pdfsig") is None:
        pytest.fail("poppler-utils and libnss3-tools are needed (scripts/system-deps.sh test)")
    directory = tmp_path_factory.mktemp("nss")
    subprocess.run(["certutil", "-N", "-d", f"sql:{directory}", "--empty-password"], check=True)
    subprocess.run(
        [
            "certutil",
            "-A",
            "-d",
            f"sql:{directory}",
            "-n",
            "casino-ca",
            "-t",
            "CT,C,C",
            "-i",
            str(dev_cert.ca_pem),
        ],
        check=True,
    )
    return f"sql:{directory}"


#: A Python that has imported pyHanko's command line once, then runs each
#: ``pyhanko ...`` asked on its standard input in a fork of itself: the same
#: command in a process of its own, without paying the import of pyHanko
#: (about a second of CPU) for every check. Each line in: the arguments
#: and two files for the output (JSON); each line out: the exit code.
_PYHANKO_SERVER = r"""
import json, os, sys, traceback
from pyhanko.__main__ import launch
for line in sys.stdin:
    argv, out, err = json.loads(line)
    pid = os.fork()
    if pid == 0:
        for fd, name in ((1, out), (2, err)):
            os.dup2(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
        sys.argv = ["pyhanko", *argv]
        code = 0
        try:
            launch()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""
_pyhanko_server: list[subprocess.Popen[str]] = []


def _stop_pyhanko_server(server: subprocess.Popen[str]) -> None:
    """Its input closed, the runner ends; waited for, so that no process outlives the tests."""
    if server.stdin:
        server.stdin.close()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _pyhanko(args: list[str], timeout: float = 120) -> tuple[int, str]:
    """``pyhanko *args``: exit code, and its standard output then its standard error."""
    if not _pyhanko_server or _pyhanko_server[0].poll() is not None:
        server = subprocess.Popen(
            [sys.executable, "-c", _PYHANKO_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        _pyhanko_server[:] = [server]
        atexit.register(_stop_pyhanko_server, server)
    server = _pyhanko_server[0]
    assert server.stdin and server.stdout
    with tempfile.TemporaryDirectory() as directory:
        out, err = Path(directory, "out"), Path(directory, "err")
        server.stdin.write(json.dumps([args, str(out), str(err)]) + "\n")
        server.stdin.flush()
        ready, _w, _x = select.select([server.stdout], [], [], timeout)
        if not ready:
            server.kill()
            raise subprocess.TimeoutExpired(["pyhanko", *args], timeout)
        line = server.stdout.readline()
        if not line:
            raise RuntimeError(f"pyhanko ended without an answer (exit code {server.wait()})")
        code = int(line)
        return code, out.read_text() + err.read_text()


def pyhanko_validate(pdf: Path, ca: Path) -> tuple[int, str]:
    """``pyhanko sign validate --trust ca.pem``: exit code and output."""
    return _pyhanko(
        ["sign", "validate", "--executive-summary", "--trust", str(ca), "--trust-replace", str(pdf)]
    )


def pdfsig(pdf: Path, nssdir: str) -> str:
    """poppler's pdfsig output (it exits 0 even when a signature is broken: read the text)."""
    done = subprocess.run(
        ["pdfsig", "-nssdir", nssdir, str(pdf)], capture_output=True, text=True, timeout=120
    )
    return done.stdout + done.stderr


def pdfsig_valid(output: str) -> bool:
    return "Signature is Valid." in output and "Certificate is Trusted." in output


def flip_one_byte(pdf: Path, out: Path) -> Path:
    """Change one byte inside the first content stream (covered by the signature)."""
    data = bytearray(pdf.read_bytes())
    at = data.index(b"stream\n") + len(b"stream\n") + 20
    data[at] ^= 0x01
    out.write_bytes(bytes(data))
    return out


def assert_signed_and_tamper_evident(pdf: Path, tmp_path: Path, ca: Path, nssdir: str) -> None:
    code, text = pyhanko_validate(pdf, ca)
    assert code == 0 and ":VALID" in text, text
    out = pdfsig(pdf, nssdir)
    assert pdfsig_valid(out), out
    broken = flip_one_byte(pdf, tmp_path / f"broken-{pdf.name}")
    code, text = pyhanko_validate(broken, ca)
    assert code != 0 and "INVALID" in text, text
    out = pdfsig(broken, nssdir)
    assert not pdfsig_valid(out), out
    assert "Digest Mismatch" in out or "Signature is Invalid" in out, out


def non_white_pixels(png: Path) -> int:
    from PIL import Image

    with Image.open(png) as image:
        gray = image.convert("L")
        return sum(count for value, count in enumerate(gray.histogram()) if value < 200)


def red_pixels(png: Path) -> int:
    from PIL import Image

    with Image.open(png) as image:
        data = image.convert("RGB").tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i] > 150 and data[i + 1] < 90 and data[i + 2] < 90)


def render_page(pdf: Path, page: int, out_prefix: Path, dpi: int = 60) -> Path:
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-png",
            "-singlefile",
            str(pdf),
            str(out_prefix),
        ],
        check=True,
        timeout=120,
    )
    return out_prefix.with_suffix(".png")


def pdf_text(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
