#!/usr/bin/env python3
"""The reference for perfrunner's configs: Python's configparser set up as perfrunner's
settings.py does (Config.__init__/parse, lines 52-64 @ bc5e9067: ConfigParser(), i.e.
strict=True and BasicInterpolation; optionxform = str; read()), and perfrunner's own
readings of the keys perfdelta uses (ClusterSpec.infrastructure_clusters/clusters/
servers_and_roles/workers; TestConfig: [cluster] initial_nodes default '1', [stats]
interval default 5, post_to_sf default 0).

usage: configparser_ref.py CORPUS_DIR DUMP_BINARY
Runs the C dump (tests/conformance/dump.c) on every .spec and .test outside templates/
and compares it with this reading: every file configparser accepts (and perfrunner can
read the keys of) must be accepted by perfdelta with the same values. Prints the tally;
exits 1 on any difference."""
import configparser
import os
import subprocess
import sys


def parser():
    p = configparser.ConfigParser()
    p.optionxform = str
    return p


def services(roles):
    return ",".join(sorted(r for r in roles.split(",") if r and r != "empty"))


def spec_lines(p):
    out = []
    clusters = p.items("clusters") if p.has_section("clusters") else []
    out.append(("cluster", clusters[0][0] if clusters else ""))
    servers = clusters[0][1].split() if clusters else []
    for i, s in enumerate(servers):
        parts = s.split(":")
        roles = parts[1] if len(parts) > 1 else "kv"  # old specs: kv when not given
        first = roles.split(",")[0]
        first = "-" if first in ("", "empty") else first
        out.append((f"node{i}", f"{parts[0]} {services(roles)} {first}"))
    for h in p.get("clients", "hosts", fallback="").split():
        out.append(("client", h))
    return out


def get(p, section, key, default=None):
    return p.get(section, key, fallback=default)


def test_lines(p):
    # int() fails in perfrunner itself on a malformed number: raise, counted apart
    initial = [int(n) for n in get(p, "cluster", "initial_nodes", "1").split()]
    time = int(get(p, "access", "time", "0"))
    return [("test", get(p, "test_case", "test", "") or ""),
            ("title", (get(p, "showfast", "title", "") or "").strip()),
            ("shutdown_type", get(p, "access", "n1ql_shutdown_type", "") or ""),
            ("initial_nodes", str(initial[0] if initial else 0)),
            ("access_time", str(time)),
            ("interval", str(int(get(p, "stats", "interval", "5")))),
            ("post_to_sf", str(int(get(p, "stats", "post_to_sf", "0"))))]


def escape(v):
    return v.replace("\n", "\\n").replace("\t", "\\t")


def main():
    corpus, dump = sys.argv[1], sys.argv[2]
    files = []
    for root, dirs, names in os.walk(corpus):
        dirs.sort()
        if os.path.relpath(root, corpus).split(os.sep)[0] == "templates":
            continue  # Jinja templates, exempt
        files += [os.path.join(root, n) for n in sorted(names)
                  if n.endswith((".spec", ".test"))]
    ours = {}
    res = subprocess.run([dump], input="\n".join(files) + "\n", capture_output=True,
                         text=True, check=True)
    for line in res.stdout.splitlines():
        path, key, value = line.split("\t", 2)
        ours.setdefault(path, []).append((key, value))
    tally = {"files": len(files), "configparser accepts": 0, "configparser rejects": 0, "perfdelta rejects too": 0,
             "perfrunner cannot read": 0, "same": 0, "differ": 0, "perfdelta rejects": 0}
    bad = []
    for f in files:
        p = parser()
        try:
            p.read(f, encoding="utf-8")
        except (configparser.Error, UnicodeDecodeError):
            tally["configparser rejects"] += 1
            got = ours.get(f, [])
            tally["perfdelta rejects too"] += bool(got) and got[0][0] == "REJECT"
            continue
        tally["configparser accepts"] += 1
        try:
            want = spec_lines(p) if f.endswith(".spec") else test_lines(p)
        except (ValueError, configparser.Error):
            tally["perfrunner cannot read"] += 1
            continue
        want = [(k, escape(v)) for k, v in want]
        got = ours.get(f, [])
        if got and got[0][0] == "REJECT":
            tally["perfdelta rejects"] += 1
            bad.append(f"{f}: perfdelta rejects it: {got[0][1]}")
        elif got != want:
            tally["differ"] += 1
            diff = [(w, g) for w, g in zip(want, got) if w != g] or [(want, got)]
            bad.append(f"{f}: want {diff[0][0]} got {diff[0][1]}")
        else:
            tally["same"] += 1
    print("tally: " + ", ".join(f"{k} {v}" for k, v in tally.items()))
    for b in bad[:20]:
        print(b)
    return 1 if bad else 0


sys.exit(main())
