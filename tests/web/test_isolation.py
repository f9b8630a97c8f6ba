"""Each user's work is their own: another user's runs, logs and files are as absent as
ones that never were; downloads and uploads reach nothing outside their directory,
whatever the name and whatever links a job made."""

import os

from web_site import quoted


def test_another_users_runs_logs_and_files_answer_404(site):
    alice, bob = site.client(), site.client()
    alice.login("alice")
    bob.login("bob")
    run = alice.start("hello", {"greeting": "private", "count": 1})
    alice.wait_run(run["id"])
    rid = run["id"]
    assert rid not in [r["id"] for r in bob.call("GET", "/api/v1/runs")[1]["runs"]]
    assert rid not in [r["id"] for r in bob.call("GET", "/api/v1/runs?owner=alice")[1]["runs"]]
    for method, path in [("GET", f"/api/v1/runs/{rid}"), ("GET", f"/api/v1/runs/{rid}/logs"),
                         ("GET", f"/api/v1/runs/{rid}/files"), ("GET", f"/api/v1/runs/{rid}/files/result.txt"),
                         ("POST", f"/api/v1/runs/{rid}/cancel"), ("POST", f"/api/v1/runs/{rid}/rerun")]:
        status, body = bob.call(method, path)
        assert status == 404 and body == {"error": f"no run {rid}", "field": ""}, (method, path, body)
    admin = site.client()
    admin.login("root-admin")
    assert admin.call("GET", f"/api/v1/runs/{rid}")[0] == 200
    assert rid in [r["id"] for r in admin.call("GET", "/api/v1/runs?owner=alice")[1]["runs"]]


def test_hostile_paths_and_links_reach_nothing_outside_the_run(site):
    c = site.client()
    c.login("alice")
    run = c.start("hello", {"count": 1})
    c.wait_run(run["id"])
    rid = run["id"]
    run_dir = os.path.join(site.site_dir, "runs", str(rid))
    # What a job could leave behind: links out of its directory.
    os.symlink("/etc/passwd", os.path.join(run_dir, "passwd-link"))
    os.symlink("/etc", os.path.join(run_dir, "etc-link"))
    for path in ["../../web.db", "..%2F..%2Fweb.db", "%2e%2e/%2e%2e/web.db", "./result.txt", "passwd-link",
                 "etc-link/passwd", "/etc/passwd", "result.txt/", "a//b", quoted("../1/result.txt")]:
        status, res, data = c.request("GET", f"/api/v1/runs/{rid}/files/{path}")
        assert status in (400, 404), (path, status, data[:200])
        assert b"root:" not in data and b"SQLite" not in data
    listed = [f["path"] for f in c.call("GET", f"/api/v1/runs/{rid}/files")[1]["files"]]
    assert "passwd-link" not in listed and not any(p.startswith("etc-link") for p in listed)


def test_uploads_keep_to_their_names_and_feed_a_file_field(site, tmp_path):
    c = site.client()
    c.login("bob")
    for name in ["..", ".hidden", "a/b", "..%2Fweb.db", "x" * 300, "semi;colon"]:
        status, res, data = c.request("PUT", "/api/v1/uploads/" + quoted(name), b"data")
        assert status in (400, 404), (name, status, data)
    assert not os.path.exists(os.path.join(site.site_dir, "web.db.upload"))
    status, body = c.call("PUT", "/api/v1/uploads/input.txt", b"line one\nline two\n")
    assert status == 201 and body["upload"] == {"name": "input.txt", "size": 18}
    assert [u["name"] for u in c.call("GET", "/api/v1/uploads")[1]["uploads"]] == ["input.txt"]
    other = site.client()
    other.login("alice")
    assert other.call("GET", "/api/v1/uploads")[1]["uploads"] == []
    run = c.start("count-lines", {"input": "input.txt"})
    c.wait_run(run["id"])
    status, res, data = c.request("GET", f"/api/v1/runs/{run['id']}/files/line-count.txt")
    assert status == 200 and data.strip() == b"2"
    status, body = other.call("POST", "/api/v1/runs", {"template": "count-lines", "values": {"input": "input.txt"}})
    assert status == 400 and body["field"] == "input"
