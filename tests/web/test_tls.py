"""`yard web serve --tls-cert --tls-key`: HTTPS served directly with OpenSSL (a certificate
made here for 127.0.0.1), the session cookie then Secure; plain HTTP on that port gets no
page; a certificate or key it cannot use is refused at start, naming the file (exit 2)."""

import http.client
import json
import os
import ssl
import subprocess

import pytest

from web_site import BIN, USERS, Site


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    d = tmp_path_factory.mktemp("tls")
    cert, key = str(d / "cert.pem"), str(d / "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    return cert, key


@pytest.fixture(scope="module")
def site(certificate):
    cert, key = certificate
    s = Site(serve_args=["--tls-cert", cert, "--tls-key", key])
    yield s
    s.close()


def test_https_with_the_certificate_and_a_secure_session_cookie(site, certificate):
    assert site.url.startswith("https://127.0.0.1:")
    context = ssl.create_default_context(cafile=certificate[0])
    c = http.client.HTTPSConnection("127.0.0.1", site.port, context=context, timeout=30)
    c.request("GET", "/api/v1/openapi.json")
    r = c.getresponse()
    assert r.status == 200 and json.loads(r.read())["openapi"].startswith("3.")
    c.request("POST", "/api/v1/session", body=json.dumps({"name": "alice", "password": USERS["alice"]}),
              headers={"Content-Type": "application/json"})
    r = c.getresponse()
    r.read()
    assert r.status == 200
    cookie = r.getheader("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "; Secure" in cookie, cookie


def test_plain_http_on_the_tls_port_gets_no_page(site):
    c = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
    try:
        c.request("GET", "/api/v1/openapi.json")
        status = c.getresponse().status
    except (http.client.HTTPException, ConnectionError):
        status = None
    assert status != 200


def sandbox(tmp_path):
    # Refused before anything starts; were a daemon started all the same, it would be this one's.
    env = dict(os.environ)
    for key in ("HOME", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        env[key] = str(tmp_path / key.lower())
        os.makedirs(env[key], mode=0o700, exist_ok=True)
    return env


def test_a_certificate_it_cannot_use_is_refused_naming_the_file(tmp_path, certificate):
    missing = str(tmp_path / "nowhere.pem")
    p = subprocess.run([f"{BIN}/yard-web", "serve", "--listen", "127.0.0.1:0", "--site", str(tmp_path / "site"),
                        "--tls-cert", missing, "--tls-key", certificate[1]], capture_output=True, text=True, timeout=60,
                       env=sandbox(tmp_path))
    assert p.returncode == 2 and f"--tls-cert {missing}: cannot read it" in p.stderr, p.stderr
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("not a certificate\n")
    p = subprocess.run([f"{BIN}/yard-web", "serve", "--listen", "127.0.0.1:0", "--site", str(tmp_path / "site"),
                        "--tls-cert", str(garbage), "--tls-key", certificate[1]], capture_output=True, text=True,
                       timeout=60, env=sandbox(tmp_path))
    assert p.returncode == 2 and "not a PEM certificate and its private key" in p.stderr, p.stderr
    p = subprocess.run([f"{BIN}/yard-web", "serve", "--tls-cert", certificate[0]], capture_output=True, text=True,
                       timeout=60, env=sandbox(tmp_path))
    assert p.returncode != 0 and "--tls-key" in p.stderr, p.stderr
