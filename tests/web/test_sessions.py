"""Logging in: cookies a script cannot read, CSRF on every change, limited guessing,
short-lived API tokens, and every action in the append-only audit log."""

import sqlite3

from web_site import USERS


def test_a_login_sets_an_httponly_samesite_cookie_and_a_csrf_token(site):
    c = site.client()
    res = c.login("alice")
    cookie = res.getheader("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    status, body = c.call("GET", "/api/v1/session")
    assert status == 200 and body["user"] == {"name": "alice", "admin": False, "account": "alice"}
    assert body["csrf"] == c.csrf


def test_a_change_without_the_csrf_token_is_refused_and_nothing_is_started(site):
    c = site.client()
    c.login("alice")
    before = c.call("GET", "/api/v1/runs")[1]["runs"]
    status, body = c.call("POST", "/api/v1/runs", {"template": "hello"}, csrf=False)
    assert status == 403 and "X-CSRF-Token" in body["error"]
    status, body = c.call("POST", "/api/v1/runs", {"template": "hello"}, headers={"X-CSRF-Token": "0" * 64}, csrf=False)
    assert status == 403
    assert c.call("GET", "/api/v1/runs")[1]["runs"] == before


def test_wrong_passwords_are_refused_then_limited(site):
    c = site.client()
    for _ in range(5):
        status, body = c.call("POST", "/api/v1/session", {"name": "bob", "password": "guess"})
        assert status == 401 and body["error"] == "wrong name or password"
    # Even the right password waits now: guessing costs a minute per five tries.
    status, res, data = c.request("POST", "/api/v1/session", {"name": "bob", "password": USERS["bob"]})
    assert status == 429 and int(res.getheader("Retry-After")) > 0


def test_no_session_no_access_and_logout_ends_it(site):
    c = site.client()
    assert c.call("GET", "/api/v1/runs")[0] == 401
    c.login("alice")
    assert c.call("GET", "/api/v1/runs")[0] == 200
    assert c.call("DELETE", "/api/v1/session")[0] == 204
    assert c.call("GET", "/api/v1/runs")[0] == 401


def test_api_tokens_work_without_cookies_and_refresh_ends_the_old_one(site):
    c = site.client()
    status, body = c.call("POST", "/api/v1/tokens", {"name": "alice", "password": USERS["alice"]})
    assert status == 201 and body["expires_in"] == 900
    c.token = body["token"]
    assert c.call("GET", "/api/v1/runs")[0] == 200
    # A program needs no CSRF token: it has no cookie a page could be tricked into sending.
    assert c.call("POST", "/api/v1/runs", {"template": "hello"})[0] == 201
    old = c.token
    status, body = c.call("POST", "/api/v1/tokens/refresh")
    assert status == 201 and body["token"] != old
    c.token = old
    assert c.call("GET", "/api/v1/runs")[0] == 401
    c.token = body["token"]
    assert c.call("GET", "/api/v1/runs")[0] == 200


def test_tokens_and_passwords_are_stored_hashed_and_the_audit_log_is_append_only(site):
    c = site.client()
    c.login("alice")
    db = sqlite3.connect(site.site_dir + "/web.db")
    hashes = [row[0] for row in db.execute("SELECT password_hash FROM users")]
    assert all(h.startswith("$argon2id$") for h in hashes)
    assert c.cookie.split("=", 1)[1] not in [row[0] for row in db.execute("SELECT digest FROM tokens")]
    actions = [row[0] for row in db.execute("SELECT action FROM audit")]
    assert "login" in actions and "login.failed" in actions and "run.start" in actions
    for sql in ("UPDATE audit SET user = 'x'", "DELETE FROM audit"):
        try:
            db.execute(sql)
            raise AssertionError(sql + " was allowed")
        except sqlite3.DatabaseError as e:
            assert "append-only" in str(e)
    db.close()
    admin = site.client()
    admin.login("root-admin")
    status, body = admin.call("GET", "/api/v1/audit")
    assert status == 200 and any(e["action"] == "login" and e["user"] == "alice" for e in body["entries"])
    assert c.call("GET", "/api/v1/audit")[0] == 403
