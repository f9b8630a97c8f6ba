#!/usr/bin/env python3
"""The web service's REST reference in Markdown, from its OpenAPI document (src/web/openapi.json),
the same document the service serves at /api/v1/openapi.json and its tests check replies against.

Usage: openapi_markdown.py OPENAPI_JSON > rest-api.md
"""

import json
import sys


def md(text):
    out = []
    for c in str(text):
        out.append("\\" + c if c in "\\*_`[]<>|#" else c)
    return "".join(out).replace("\n", " ")


def schema_name(s):
    if not isinstance(s, dict):
        return ""
    if "$ref" in s:
        name = s["$ref"].rsplit("/", 1)[-1]
        return "[%s](#schema-%s)" % (name, name.lower())
    if s.get("type") == "array":
        return "array of " + (schema_name(s.get("items", {})) or "values")
    t = s.get("type", "")
    return " or ".join(t) if isinstance(t, list) else t


def body_schema(content):
    for media, v in (content or {}).items():
        return media, schema_name(v.get("schema", {}))
    return None, None


def main():
    doc = json.load(open(sys.argv[1]))
    info = doc["info"]
    print("# REST API\n")
    print("%s, version %s. Generated from the OpenAPI %s document that `yard web serve` serves at "
          "`/api/v1/openapi.json`; the web suites check every reply against it.\n"
          % (md(info["title"]), md(info["version"]), doc["openapi"]))
    if info.get("description"):
        print(md(info["description"]) + "\n")
    schemes = doc.get("components", {}).get("securitySchemes", {})
    if schemes:
        print("## Authentication\n")
        for name, s in schemes.items():
            where = s.get("in", s.get("scheme", ""))
            print("- `%s`: %s %s%s" % (name, s.get("type", ""), where,
                                      (": " + md(s["description"])) if s.get("description") else ""))
        print()
    tags = {}
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            tags.setdefault((op.get("tags") or ["other"])[0], []).append((path, method, op))
    for tag, ops in tags.items():
        print("## %s\n" % tag.capitalize())
        for path, method, op in ops:
            print("### `%s %s`\n" % (method.upper(), path))
            print(md(op.get("summary", "")) + "\n")
            if op.get("security") == []:
                print("No authentication.\n")
            params = op.get("parameters", [])
            if params:
                print("| parameter | in | type | meaning |\n|---|---|---|---|")
                for p in params:
                    print("| `%s` | %s | %s | %s |" % (p["name"], p["in"], schema_name(p.get("schema", {})),
                                                     md(p.get("description", ""))))
                print()
            if "requestBody" in op:
                media, name = body_schema(op["requestBody"].get("content"))
                print("Request body: %s (%s).\n" % (name or "any", media))
            print("| status | meaning | body |\n|---|---|---|")
            for status, r in op.get("responses", {}).items():
                media, name = body_schema(r.get("content"))
                print("| %s | %s | %s |" % (status, md(r.get("description", "")), name or ""))
            print()
    print("## Schemas\n")
    for name, s in doc.get("components", {}).get("schemas", {}).items():
        print("### %s {#schema-%s}\n" % (name, name.lower()))
        if s.get("description"):
            print(md(s["description"]) + "\n")
        props = s.get("properties", {})
        if props:
            required = set(s.get("required", []))
            print("| field | type | required | meaning |\n|---|---|---|---|")
            for f, p in props.items():
                print("| `%s` | %s | %s | %s |" % (f, schema_name(p) or md(json.dumps(p.get("enum", ""))),
                                                  "yes" if f in required else "",
                                                  md(p.get("description", ""))))
            print()
        elif s.get("type"):
            print("Type: %s.\n" % schema_name(s))


if __name__ == "__main__":
    main()
