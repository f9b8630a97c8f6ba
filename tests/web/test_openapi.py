"""The OpenAPI document at /api/v1/openapi.json says what the service really answers:
each reply below, of every path and status the document lists for it, is checked against
the schema the document gives (JSON Schema 2020-12, as OpenAPI 3.1 uses it)."""

import re

import jsonschema

from web_site import USERS


def checker(doc):
    resolver = jsonschema.RefResolver.from_schema(doc)

    def check(method, template, status, body):
        op = doc["paths"][template][method.lower()]
        assert str(status) in op["responses"], f"{method} {template}: {status} is not in the document"
        content = op["responses"][str(status)].get("content", {})
        if "application/json" not in content:
            return
        schema = content["application/json"]["schema"]
        jsonschema.Draft202012Validator(schema, resolver=resolver).validate(body)
    return check


def test_the_document_describes_every_route_and_its_replies(site):
    c = site.client()
    status, doc = c.call("GET", "/api/v1/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.1")
    jsonschema.Draft202012Validator.check_schema(doc["components"]["schemas"]["Run"])
    check = checker(doc)
    replies = []

    def call(method, path, template, body=None, **kw):
        status, reply = c.call(method, path, body, **kw)
        replies.append((method, template, status, reply))
        return status, reply

    call("GET", "/api/v1/runs", "/api/v1/runs")  # 401
    call("POST", "/api/v1/session", "/api/v1/session", {"name": "alice", "password": "nope"})
    c.login("alice")
    call("GET", "/api/v1/session", "/api/v1/session")
    call("GET", "/api/v1/templates", "/api/v1/templates")
    _, started = call("POST", "/api/v1/runs", "/api/v1/runs", {"template": "hello", "values": {"count": 2}})
    rid = started["run"]["id"]
    call("POST", "/api/v1/runs", "/api/v1/runs", {"template": "hello", "values": {"count": 0}})
    _, job = call("POST", "/api/v1/jobs", "/api/v1/jobs", {"command": ["true"], "options": {"time": "1:00"}})
    call("POST", "/api/v1/jobs", "/api/v1/jobs", {"command": ["true"], "options": {"time": "soon"}})
    c.wait_run(job["run"]["id"])
    c.wait_run(rid)
    _, wf = call("POST", "/api/v1/runs", "/api/v1/runs", {"template": "three-steps"})
    c.wait_run(wf["run"]["id"])
    call("GET", f"/api/v1/runs/{wf['run']['id']}", "/api/v1/runs/{id}")
    _, wfile = call("POST", "/api/v1/workflows", "/api/v1/workflows", {"workflow": "steps:\n  - name: a\n    command: 'true'\n"})
    call("POST", "/api/v1/workflows", "/api/v1/workflows", {"workflow": "steps: 3\n"})
    c.wait_run(wfile["run"]["id"])
    call("POST", f"/api/v1/runs/{wfile['run']['id']}/resume", "/api/v1/runs/{id}/resume")
    call("POST", f"/api/v1/runs/{rid}/resume", "/api/v1/runs/{id}/resume")
    call("GET", "/api/v1/runs?limit=1", "/api/v1/runs")
    call("GET", "/api/v1/runs?limit=x", "/api/v1/runs")
    call("GET", f"/api/v1/runs/{rid}", "/api/v1/runs/{id}")
    call("GET", "/api/v1/runs/999999", "/api/v1/runs/{id}")
    call("GET", f"/api/v1/runs/{rid}/logs?offset=2", "/api/v1/runs/{id}/logs")
    call("GET", f"/api/v1/runs/{rid}/logs?stream=both", "/api/v1/runs/{id}/logs")
    call("GET", f"/api/v1/runs/{rid}/files", "/api/v1/runs/{id}/files")
    call("GET", f"/api/v1/runs/{rid}/files/nothing", "/api/v1/runs/{id}/files/{path}")
    call("POST", f"/api/v1/runs/{rid}/cancel", "/api/v1/runs/{id}/cancel")
    _, again = call("POST", f"/api/v1/runs/{rid}/rerun", "/api/v1/runs/{id}/rerun")
    call("PUT", "/api/v1/uploads/in.txt", "/api/v1/uploads/{name}", b"x")
    call("PUT", "/api/v1/uploads/.in", "/api/v1/uploads/{name}", b"x")
    call("GET", "/api/v1/uploads", "/api/v1/uploads")
    call("GET", "/api/v1/usage", "/api/v1/usage")
    call("GET", "/api/v1/routes", "/api/v1/routes")
    call("GET", "/api/v1/audit", "/api/v1/audit")
    call("POST", "/api/v1/tokens/refresh", "/api/v1/tokens/refresh")
    call("POST", "/api/v1/tokens", "/api/v1/tokens", {"name": "alice", "password": USERS["alice"]})
    call("DELETE", "/api/v1/session", "/api/v1/session")
    for method, template, status, reply in replies:
        check(method, template, status, reply)
    statuses = {(m, t, s) for m, t, s, _ in replies}
    assert ("GET", "/api/v1/runs", 401) in statuses and ("POST", "/api/v1/runs", 400) in statuses
    assert {("POST", "/api/v1/workflows", 201), ("POST", "/api/v1/workflows", 400),
            ("POST", "/api/v1/runs/{id}/resume", 200), ("POST", "/api/v1/runs/{id}/resume", 409)} <= statuses
    c.login("alice")
    c.wait_run(again["run"]["id"])


def test_every_path_of_the_document_is_served(site):
    c = site.client()
    c.login("root-admin")
    doc = c.call("GET", "/api/v1/openapi.json")[1]
    for template, ops in doc["paths"].items():
        path = re.sub(r"\{[a-z]+\}", "1", template)
        for method in ops:
            if method == "get" and "events" not in path:
                status, reply = c.call("GET", path)
                assert status != 404 or (isinstance(reply, dict) and reply.get("error", "").startswith("no ")), \
                    (template, status, reply)
