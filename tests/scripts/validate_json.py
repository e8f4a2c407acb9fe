#!/usr/bin/env python3
"""validate_json.py CYCLESCOPE DOCS_DIR SCHEMA JSON [COMMAND…]

Validate one JSON output of cyclescope against its schema in docs/ (every
docs/*.schema.json is loaded, so a verb's schema can use result.schema.json's
definitions), then check that its provenance header is true, not just well formed:

- the schema rejects the document once any part of the header is taken out (so a
  verb that stops writing its header fails here, whatever else it writes);
- cyclescope_commit is the commit the tool says it was built from and, when the
  sources are a git checkout, a commit of that checkout;
- the date is today's (within ten minutes of now, UTC);
- the input's SHA-256 and size are sha256sum's (for a sweep directory: the SHA-256
  of sha256sum's listing of its point files in name order);
- the configuration's resolved keys and SHA-256 are those of `cyclescope config show`
  with the same source and overrides;
- the command is COMMAND (the words the test ran, "cyclescope" first), when given.

A sweep table's points are run results with their own headers: each is checked the
same way. Exit 0 when all holds; otherwise every failure is printed.
"""
import copy
import datetime
import glob
import hashlib
import json
import os
import re
import subprocess
import sys

import jsonschema

cs, docs_dir, schema_path, doc_path = sys.argv[1:5]
expected_command = sys.argv[5:]
bad = 0


def fail(what):
    global bad
    print(f"FAIL: {doc_path}: {what}")
    bad = 1


def strict_load(path):
    def no_constant(c):
        raise ValueError(f"{c} is not JSON")
    return json.load(open(path), parse_constant=no_constant)


schemas = {}
for f in glob.glob(os.path.join(docs_dir, "*.schema.json")):
    s = json.load(open(f))
    jsonschema.Draft202012Validator.check_schema(s)
    schemas[s["$id"]] = s
schema = json.load(open(schema_path))


def validator(root):
    try:  # jsonschema >= 4.18
        import referencing
        registry = referencing.Registry().with_resources(
            (i, referencing.Resource.from_contents(s)) for i, s in schemas.items())
        return jsonschema.Draft202012Validator(root, registry=registry)
    except ImportError:  # Debian bookworm's 4.10
        resolver = jsonschema.RefResolver(root["$id"], root, store=schemas)
        return jsonschema.Draft202012Validator(root, resolver=resolver)


val = validator(schema)
try:
    doc = strict_load(doc_path)
except Exception as e:
    print(f"FAIL: {doc_path} is not strict JSON: {e}")
    sys.exit(1)
errs = sorted(val.iter_errors(doc), key=lambda e: list(e.path))
for e in errs[:5]:
    fail(f"{'/'.join(map(str, e.path))}: {e.message[:300]}")
if errs:
    sys.exit(1)

# the schema must reject the document without each part of its header
cuts = ["schema", "schema_version", "cyclescope_version", "cyclescope_commit", "complete", "guest", "provenance",
        "provenance.command", "provenance.date", "provenance.input", "provenance.config", "provenance.input.sha256",
        "provenance.input.path"]
if doc.get("provenance", {}).get("config"):
    cuts += ["provenance.config.sha256", "provenance.config.resolved", "provenance.config.name"]
for cut in cuts:
    d = copy.deepcopy(doc)
    *path, last = cut.split(".")
    o = d
    for k in path:
        o = o[k]
    del o[last]
    if val.is_valid(d):
        fail(f"the schema accepts the document without {cut}")

version_line = subprocess.run([cs, "--version"], capture_output=True, text=True).stdout
built = re.search(r"\(commit ([^)]+)\)", version_line)
source = os.path.dirname(os.path.abspath(docs_dir))
git = subprocess.run(["git", "-C", source, "rev-parse", "HEAD"], capture_output=True, text=True)
config_cache = {}


def config_show(source_name, overrides):
    key = (source_name, tuple(overrides))
    if key not in config_cache:
        args = [cs, "config", "show"]
        for o in overrides:
            args += ["--set", o]
        r = subprocess.run(args + [source_name], capture_output=True)
        config_cache[key] = r.stdout if r.returncode == 0 else None
    return config_cache[key]


def ini_json(text):
    out, sec = {}, None
    for line in text.decode().splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            sec = out.setdefault(line.strip("[]"), {})
            continue
        k, v = line.split(" = ", 1)
        if v in ("yes", "no"):
            sec[k] = v == "yes"
            continue
        try:
            sec[k] = float(v)
        except ValueError:
            sec[k] = v
    return out


def check_header(d, where):
    if built is None:
        fail(f"cyclescope --version names no commit: {version_line!r}")
    elif d["cyclescope_commit"] != built.group(1):
        fail(f"{where}: cyclescope_commit {d['cyclescope_commit']} is not the build's {built.group(1)}")
    commit = d["cyclescope_commit"].split("-")[0]
    if git.returncode == 0 and commit != "unknown" and subprocess.run(
            ["git", "-C", source, "cat-file", "-e", commit + "^{commit}"], capture_output=True).returncode != 0:
        fail(f"{where}: cyclescope_commit {d['cyclescope_commit']} is no commit of the checkout {source}")
    p = d["provenance"]
    when = datetime.datetime.strptime(p["date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    if abs((datetime.datetime.now(datetime.timezone.utc) - when).total_seconds()) > 600:
        fail(f"{where}: date {p['date']} is not now")
    inp = p["input"]
    if inp["kind"] == "sweep":
        names = sorted(n for n in os.listdir(inp["path"]) if re.fullmatch(r"[0-9a-f]{16}\.json", n))
        listing = "".join(hashlib.sha256(open(os.path.join(inp["path"], n), "rb").read()).hexdigest() + "  " + n + "\n"
                          for n in names)
        size = sum(os.path.getsize(os.path.join(inp["path"], n)) for n in names)
        digest = hashlib.sha256(listing.encode()).hexdigest()
    else:
        data = open(inp["path"], "rb").read()
        size, digest = len(data), hashlib.sha256(data).hexdigest()
    if inp["sha256"] != digest or inp["bytes"] != size:
        fail(f"{where}: input {inp['path']}: sha256 {inp['sha256']} / {inp['bytes']} bytes, sha256sum says "
             f"{digest} / {size}")
    c = p["config"]
    if c:
        text = config_show(c["source"], c["overrides"])
        if text is None:
            fail(f"{where}: config show {c['source']} {c['overrides']} fails")
        else:
            if c["sha256"] != hashlib.sha256(text).hexdigest():
                fail(f"{where}: config sha256 is not that of `config show {c['source']}` with {c['overrides']}")
            if c["resolved"] != ini_json(text):
                fail(f"{where}: resolved configuration differs from `config show {c['source']}`")


check_header(doc, "header")
if expected_command and doc["provenance"]["command"] != expected_command:
    fail(f"command {doc['provenance']['command']} is not {expected_command}")
for i, pt in enumerate(doc.get("points", []) if doc.get("schema") == "cyclescope-sweep-table" else []):
    if pt.get("status") == "ok":
        check_header(pt["result"], f"points[{i}].result")
        over = pt["result"]["provenance"]["config"]["overrides"]
        for k, v in pt["settings"].items():
            if f"{k}={v}" not in over:
                fail(f"points[{i}]: the point's value {k}={v} is not among its result's overrides {over}")
if not bad:
    print(f"ok: {doc_path}: valid against {os.path.basename(schema_path)}; header present and true "
          f"({doc['schema']} v{doc['schema_version']}, input {doc['provenance']['input']['kind']})")
sys.exit(bad)
