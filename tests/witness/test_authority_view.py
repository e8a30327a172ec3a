"""The authority's view of its witness (a real process): each casino's log with the size last
cosigned, when, the lag, the refusals with their evidence, and the split views: a checkpoint of
the cosigned size presented with another root, and two witnesses shown two views of one log."""

from __future__ import annotations

import hashlib
import http.cookiejar
import re
import urllib.parse
import urllib.request

from tests.support.witness_process import CasinoLog, WitnessServer


def _staff_page(witness: WitnessServer, path: str) -> str:
    witness.manage(
        "createsuperuser",
        "--noinput",
        "--username",
        "autorite",
        "--email",
        "a@authority.example",
        check=False,
        DJANGO_SUPERUSER_PASSWORD="mot-de-passe-de-test",
    )
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login = opener.open(witness.url + "/admin/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login).group(1)  # type: ignore[union-attr]
    data = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": "autorite",
            "password": "mot-de-passe-de-test",
            "next": path,
        }
    ).encode()
    request = urllib.request.Request(
        witness.url + "/admin/login/", data=data, headers={"Referer": witness.url + "/admin/login/"}
    )
    return opener.open(request).read().decode()


def test_the_logs_page_shows_sizes_refusals_and_a_split_view(witness_server: WitnessServer) -> None:
    casino = CasinoLog(witness_server, leaves=6)
    assert witness_server.post(casino.request(0))[0] == 200
    witness_server.post(casino.request(0, 3))  # 409: an older view
    witness_server.post(casino.request(6, root=hashlib.sha256(b"another view").digest()))  # 422: split view
    page = _staff_page(witness_server, "/logs/")
    row = page[page.index(casino.origin) :]
    row = row[: row.index("</tr>")]
    assert "<td>6</td>" in row and "409 (présenté 0 → 3)" in row and "422 (présenté 6 → 6)" in row
    assert "taille 6 : racine cosignée" in row and hashlib.sha256(b"another view").hexdigest() in row
    anonymous = urllib.request.urlopen(witness_server.url + "/logs/")
    assert "/admin/login/" in anonymous.url  # staff only


def test_two_witnesses_shown_two_views_of_one_log(
    witness_server: WitnessServer, second_witness_server: WitnessServer
) -> None:
    casino = CasinoLog(witness_server, leaves=5)
    second_witness_server.add_log(casino.key.verifier.vkey, name="CasinoLog")
    assert witness_server.post(casino.request(0))[0] == 200
    # the casino shows the second witness another tree of the same size, signed with its key
    other = hashlib.sha256(b"the other view").digest()
    assert second_witness_server.post(casino.request(0, root=other))[0] == 200
    done = witness_server.manage(
        "witness_compare_peers", check=False, WITNESS_PEERS=second_witness_server.url
    )
    assert done.returncode == 1 and f"{second_witness_server.url} {casino.origin}: split" in done.stdout
    [(size, here, there)] = witness_server.sql(
        "SELECT s.size, s.root_here, s.root_there FROM witness_splitview s JOIN witness_log l ON l.id = s.log_id "
        "WHERE l.origin = %s",
        casino.origin,
    )
    assert (size, there) == (5, other.hex()) and here != there
    page = _staff_page(witness_server, "/logs/")
    assert f"racine {here} ici, {there} chez {second_witness_server.url}" in page
    # the same view at both: nothing found
    agreeing = CasinoLog(witness_server, leaves=4)
    second_witness_server.add_log(agreeing.key.verifier.vkey)
    assert second_witness_server.post(agreeing.request(0))[0] == 200
    assert witness_server.post(agreeing.request(0))[0] == 200
    done = witness_server.manage(
        "witness_compare_peers", check=False, WITNESS_PEERS=second_witness_server.url
    )
    assert f"{agreeing.origin}: same" in done.stdout
