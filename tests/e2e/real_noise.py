"""Tallies the real-noise comparisons of tests/e2e/real_noise.sh.

real_noise.py --ar1 DIR: writes the synthetic set beside the real ones instead: six
series of 1200 points in fixtures/noise's format, Gaussian AR(1) of lag-1 correlation 0,
0.5 (two), 0.7, 0.9 (two), seeds 1000-1005 (Python's random: the same files every run).

real_noise.py DIR K: DIR holds o-aa-k, o-step-k and o-fail-k (k < K), each a report's
summary.json. Prints one line of counts, key=value:
  aa        A/A pairs (base-k against aa-k: one workload, other noise)
  aa_false  of them, pairs with a finding (a data gap, a fact of the samples the
            generator drops, is not counted: gaps)
  top, excl top-level intervals of the A/A pairs (ci_pct), and those that exclude 0
  step_cov  step pairs (aa-k's noise, memcached CPU +10 % throughout) whose interval of
            atop/memcached_cpu on role:kv over the whole run holds +10 %
  step_found  of them, a regression
  step_false  step pairs with a finding about another metric
  fail_false  failover pairs (a hard failover and nothing else) with a finding other than
            the failover's own: its errors, the live node, the KPI, the recovery
  unsaid    findings of the A/A pairs whose interval does not say it holds one
            baseline's run-to-run margin (with one baseline, the limit of what it can tell)
  offset_under  failover deltas whose margin is the runs' pre-event offset
            (pre-event-offset) and under the margin of their view's pre delta (of
            their role's, for a node judged as its role: judged_as_role): a
            measured offset only ever widens the default it was found beyond
"""
import json
import math
import random
import sys

OWN = {"event-errors", "hard-failover-live-node", "kpi-scope", "kpi-change", "recovery"}
STEP = {"atop/memcached_cpu", "metrics_rest_api_processes/memcached_sysproc_cpu_utilization",
        "ns_server_system/cpu_utilization", "ns_server/cpu_utilization_rate"}


def load(d, kind, k):
    with open(f"{d}/o-{kind}-{k}/summary.json") as f:
        return json.load(f)


def ar1(d):
    for i, phi in enumerate([0.5, 0.5, 0.9, 0.9, 0.0, 0.7]):
        r, x = random.Random(1000 + i), 0.0
        lines = [f"# kind: synthetic AR(1), phi {phi}", "time,value"]
        for t in range(1200):
            x = phi * x + r.gauss(0, 1) * math.sqrt(1 - phi * phi)
            lines.append(f"{t},{x:.6f}")
        with open(f"{d}/ar1-{i}-phi{phi}.csv", "w") as f:
            f.write("\n".join(lines) + "\n")


def main():
    if sys.argv[1] == "--ar1":
        return ar1(sys.argv[2])
    d, K = sys.argv[1], int(sys.argv[2])
    n = dict.fromkeys(["aa", "aa_false", "gaps", "top", "excl", "step", "step_cov",
                       "step_found", "step_false", "fail", "fail_false", "unsaid",
                       "offset_under"], 0)
    said = []
    for k in range(K):
        s = load(d, "aa", k)
        real = [f for f in s["findings"] if f["kind"] != "data-gap"]
        n["aa"] += 1
        n["aa_false"] += bool(real)
        n["gaps"] += len(s["findings"]) - len(real)
        said += [f"aa-{k}: {f['text']}" for f in real]
        n["unsaid"] += sum("run-to-run margin of one baseline" not in f["text"] for f in real)
        for x in s["deltas"]:
            ci = x.get("ci_pct")
            if x["family"] != "top-level" or not ci or None in ci:
                continue
            n["top"] += 1
            n["excl"] += ci[0] > 0 or ci[1] < 0
        s = load(d, "step", k)
        other = [f for f in s["findings"]
                 if f["kind"] != "data-gap" and f.get("metric") not in STEP]
        n["step_false"] += bool(other)
        said += [f"step-{k}: {f['text']}" for f in other]
        for x in s["deltas"]:
            if (x["metric"], x["scope"], x["phase"]) == ("atop/memcached_cpu", "role:kv",
                                                         "whole"):
                n["step"] += 1
                n["step_cov"] += x["ci_pct"][0] <= 10 <= x["ci_pct"][1]
                n["step_found"] += x["verdict"] == "regression"
        s = load(d, "fail", k)
        pre = {(x["metric"], x["scope"]): x for x in s["deltas"] if x["phase"] == "pre"}
        for x in s["deltas"]:
            # a node judged as its role (its role's only member after the event) has the
            # role's margin, measured against the role's pre delta
            scope = x["scope"]
            if x.get("judged_as_role"):
                scope = "role:" + x["case_scope"].split("#")[0]
            p = pre.get((x["metric"], scope))
            n["offset_under"] += (x.get("margin_source") == "pre-event-offset" and p is not None
                                  and x["margin_pct"] < p["margin_pct"] - 1e-9)
        other = [f for f in s["findings"] if f["kind"] not in OWN | {"data-gap"}]
        n["fail"] += 1
        n["fail_false"] += bool(other)
        said += [f"fail-{k}: {f['text']}" for f in other]
    print(" ".join(f"{k}={v}" for k, v in n.items()))
    for line in said[:12]:
        print("  " + line[:200])


main()
