"""Fixtures for the signed registers and checkpoints: a demo certificate, and the
two outside tools an officer would use to check a PDF (pyHanko's command line
and poppler's pdfsig with an NSS database that trusts the demo CA)."""

from __future__ import annotations

import atexit
import datetime as dt
import http.server
import json
import select
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

from audit import devcert
from tests.support.samples import dev_cert  # noqa: F401  # the demo certificate, made once a run
from tests.support.witness_process import WitnessServer, witness_server  # noqa: F401  # the fixture
from tlog import note as notes


@pytest.fixture
def signing_configured(
    settings: Any,
    dev_cert: devcert.DevCertificate,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
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
def nss_db(
    tmp_path_factory: pytest.TempPathFactory,
    dev_cert: devcert.DevCertificate,  # noqa: F811 - the fixture imported above
) -> str:
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


def _tsa(tmp_path: Path) -> Any:
    """A time-stamping authority certificate and key (timeStamping EKU) for the mock server."""
    from asn1crypto import keys
    from asn1crypto import x509 as asn1_x509
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Mock TSA")])
    now = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + dt.timedelta(days=2))
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.TIME_STAMPING]), critical=True)
        .sign(key, hashes.SHA256())
    )
    return (
        asn1_x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER)),
        keys.PrivateKeyInfo.load(
            key.private_bytes(
                serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            )
        ),
    )


@pytest.fixture
def mock_tsa(tmp_path: Path) -> Any:
    """An RFC 3161 server on localhost (the real one is outside the project)."""
    import asyncio

    from asn1crypto import tsp
    from pyhanko.sign.timestamps import DummyTimeStamper

    cert, key = _tsa(tmp_path)
    stamper = DummyTimeStamper(tsa_cert=cert, tsa_key=key)
    requests_seen: list[bytes] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            requests_seen.append(body)
            response = asyncio.run(stamper.async_request_tsa_response(tsp.TimeStampReq.load(body)))
            data = response.dump()
            self.send_response(200)
            self.send_header("Content-Type", "application/timestamp-reply")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/tsa", requests_seen
    server.shutdown()


@pytest.fixture
def casino_log(
    witness_server: WitnessServer,  # noqa: F811  # the fixture imported above
    settings: Any,
    signing_configured: Any,
    tmp_path: Path,
) -> WitnessServer:
    """The casino's log added to the witness (a fresh origin each test: the witness outlives
    the test's database), and the casino's policy naming the witness."""
    key = notes.Signer.generate(f"casino-{tmp_path.name[-20:].replace('_', '-')}.example/audit")
    settings.AUDIT_NOTE_KEY = key.skey
    settings.AUDIT_WITNESS_DIR = str(tmp_path / "dir-witness")
    witness_server.add_log(key.verifier.vkey, name="Casino de test")
    policy = tmp_path / "policy.txt"
    policy.write_text(
        f"log {key.verifier.vkey}\nwitness A {witness_server.vkey} {witness_server.url}\nquorum A\n",
        encoding="utf-8",
    )
    settings.AUDIT_WITNESS_POLICY = str(policy)
    return witness_server
