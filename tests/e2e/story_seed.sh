# The event's story on the seed: event-errors, hard-failover-live-node and
# kpi-change, their numbers checked against python3's own reading of the bundles' files.
# How python3 computes them, independently of perfdelta:
# - the event: the console's "Failing over node:" line (local time) turned to epoch with
#   the console's offset from the Jenkins build timestamp (the first perfrunner line against
#   the build start, rounded to 15 minutes);
# - every series as perfdb gives it, sorted, a repeated timestamp keeping its last value;
# - failed requests: n1ql_stats/query_errors is a rate, counted as the comparison counts a
#   rate (one figure): each sample on its nearest 5 s point of the grid from the
#   phase's start (the lower median of every series' first sample), the sum of the points
#   from 10 s before the event to 300 s after it times 5 s (the errors have died out long
#   before; before the event they are 0), the same for query_requests_5000ms; the peak of
#   query_avg_req_time over that window; the baseline's total: sum v[i] x (t[i] - t[i-1]);
# - the live node: its last ns_server_system sample at or before the event, the medians of
#   atop/cbq-engine_cpu and net/ESTABLISHED over the 15 s before it, its last atop sample;
# - the KPI: the "value" of each console's benchmark post; served: the mean of
#   n1ql_stats/query_requests over the measured phase (from the median of every series'
#   first sample to the median of their last); Little's law: 120 x 3 x 1 workers over the mean
#   query_avg_req_time.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover G=$SEED/failover-graceful

cat >"$TMP/story.py" <<'EOF'
import glob, json, re, statistics as st, sys
from datetime import datetime, timezone

def series(run, db_prefix, metric, host=""):
    f = [p for p in glob.glob(f"{run}/perfdb/*/{metric}.json")
         if p.split("/")[-2].startswith(db_prefix) and p.split("/")[-2].endswith(host.replace(".", ""))]
    assert len(f) == 1, (run, db_prefix, metric, host, f)
    return sorted(dict((t, v) for t, v in json.load(open(f[0]))).items())

def local_epoch(line):
    return datetime.strptime(line[:19], "%Y-%m-%dT%H:%M:%S").replace(tzinfo=timezone.utc).timestamp()

def event_ms(run):
    con = open(f"{run}/jenkins/consoleText", errors="replace").read().splitlines()
    perf = [l for l in con if re.match(r"\d{4}-\d\d-\d\dT", l)]
    build = int(re.search(r"<timestamp>(\d+)", open(f"{run}/jenkins/build.xml").read()).group(1))
    offset = round((local_epoch(perf[0]) - build / 1000) / 900) * 900
    line = [l for l in perf if "ailing over node:" in l][0]
    return (local_epoch(line) - offset) * 1000

def integrate(s, lo, hi):
    total = 0.0
    for i, (t, v) in enumerate(s):
        if lo <= t <= hi:
            dt = t - s[i - 1][0] if i else 5000
            total += v * min(dt, 5000 if dt > 7500 else dt) / 1000
    return total

def grid_count(run, s, lo, hi):
    firsts = sorted(min(s)[0] for s in (json.load(open(p)) for p in glob.glob(f"{run}/perfdb/*/*.json")) if s)
    t0 = firsts[(len(firsts) - 1) // 2]
    g = {}
    for t, v in s:
        g[(t - t0 + 2500) // 5000] = v
    return sum(v for k, v in g.items() if lo <= t0 + k * 5000 < hi) * 5

def median_in(s, lo, hi):
    return st.median([v for t, v in s if lo <= t < hi])

run, what = sys.argv[1], sys.argv[2]
if what == "errors":
    e = event_ms(run)
    err = series(run, "n1ql_stats", "query_errors")
    slow = series(run, "n1ql_stats", "query_requests_5000ms")
    lat = series(run, "n1ql_stats", "query_avg_req_time")
    print("%.0f %.0f %.1f" % (grid_count(run, err, e - 10000, e + 300000),
                             grid_count(run, slow, e - 10000, e + 300000),
                             max(v for t, v in lat if e <= t <= e + 300000)))
elif what == "total-errors":
    print("%.0f" % integrate(series(run, "n1ql_stats", "query_errors"), 0, 1e15))
elif what == "live":
    e, h = event_ms(run), "172.23.100.40"
    rest = max(t for s in glob.glob(f"{run}/perfdb/ns_server_system*{h.replace('.', '')}/*.json")
               for t, v in json.load(open(s)) if t <= e)
    cpu = median_in(series(run, "atop", "cbq-engine_cpu", h), e - 15000, e)
    conn = median_in(series(run, "net", "ESTABLISHED", h), e - 15000, e)
    last = series(run, "atop", "cbq-engine_cpu", h)[-1][0]
    print("%.0f %.1f %.0f %.0f" % ((e - rest) / 1000, cpu, conn, (last - e) / 1000))
elif what == "kpi":
    base = sys.argv[3]
    kpi = lambda r: float(re.findall(r'"value": ([0-9.]+)', open(f"{r}/jenkins/consoleText", errors="replace").read())[0])
    def phase(r):  # the measured phase: the medians of every series' first and last sample
        ss = [json.load(open(p)) for p in glob.glob(f"{r}/perfdb/*/*.json")]
        return st.median(min(s)[0] for s in ss if s), st.median(max(s)[0] for s in ss if s)
    def mean(r, m):
        lo, hi = phase(r)
        return st.mean(v for t, v in series(r, "n1ql_stats", m) if lo <= t <= hi)
    served = lambda r: mean(r, "query_requests")
    lat = lambda r: mean(r, "query_avg_req_time")
    kb, kt = kpi(base), kpi(run)
    print("%.1f %.1f %+.1f %.0f %.0f %.0f" % (kb, kt, 100 * (kt - kb) / kb, served(base),
                                             served(run), 360 / (lat(base) / 1000)))
EOF
py() { python3 "$TMP/story.py" "$@"; }
# finding KIND FIELD SUMMARY: a field of the first finding of that kind ("" when none)
finding() {
  python3 -c 'import json, sys
f = [f for f in json.load(open(sys.argv[3]))["findings"] if f["kind"] == sys.argv[1]]
print("" if not f else f[0][sys.argv[2]])' "$1" "$2" "$3"
}
near() { # near WHAT GOT WANT TOL
  if python3 -c "import sys; sys.exit(0 if abs(float('$2') - float('$3')) <= $4 else 1)" 2>/dev/null
  then ok; else fail "$1: $2, want $3 (+-$4)"; fi
}

expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/bf" --quiet
S=$TMP/bf/summary.json
# the findings of before are all there, and the two new ones on .40
for k in post-event-mismatch lingering-connections kpi-scope recovery event-errors hard-failover-live-node kpi-change; do
  if [ -n "$(finding $k kind "$S")" ]; then ok; else fail "no $k finding"; fi
done
for m in net/ESTABLISHED ns_server/cpu_utilization_rate atop/cbq-engine_rss; do
  has "$S" "\"kind\":\"post-event-mismatch\",\"metric\":\"$m\""
done
# a) is there before the event too: a shift over the whole run
has "$S" '"kind":"metric-shift","metric":"atop/memcached_cpu","scope":"role:kv","phase":"whole"'
has "$S" '"kind":"hard-failover-live-node","metric":"atop/cbq-engine_cpu","scope":"node:172\.23\.100\.40"'
has "$S" '"kind":"event-errors","metric":"n1ql_stats/query_errors","scope":"cluster","phase":"transient","direction":"up"'

read -r errors slow peak <<<"$(py "$F" errors)"
[ "$(py "$B" total-errors)" = 0 ] && ok || fail "the baseline has errors"
near "failed requests" "$(finding event-errors value "$S")" "$errors" 1
text=$(finding event-errors text "$S")
hasf <(echo "$text") "the baseline failed 0 over the same window"
hasf <(echo "$text") "; $slow took over 5000 ms (query_requests_5000ms, baseline 0)"
hasf <(echo "$text") "peaked at $peak ms"
if [ "$errors" -ge 600 ] && [ "$errors" -le 800 ]; then ok; else fail "python3 counts $errors errors"; fi

read -r before cpu conn after <<<"$(py "$F" live)"
near "live node's CPU" "$(finding hard-failover-live-node value "$S")" "$cpu" 0.05
text=$(finding hard-failover-live-node text "$S")
hasf <(echo "$text") "(ns_server_system) $before s before the event"
hasf <(echo "$text") "with $conn established connections"
hasf <(echo "$text") "go on $after s after it"
hasf <(echo "$text") "n1ql_shutdown_type = graceful_failover"
hasf <(echo "$text") "the event-errors finding: $errors failed"
# a procedure issue, not a regression: it is told in the requests-lost question's testcase,
# which fails for the failed queries (event-errors), not for the procedure
hasf "$TMP/bf/junit.xml" 'classname="perfdelta.questions" name="questions.requests-lost"><failure'
hasf "$TMP/bf/junit.xml" 'The target&apos;s event was a hard failover'

read -r kb kt kpct sb st lb <<<"$(py "$F" kpi "$B")"
text=$(finding kpi-change text "$S")
[ "$kb $kt $kpct" = "3916.0 3525.0 -10.0" ] && ok || fail "python3 reads the KPIs as $kb $kt $kpct"
hasf <(echo "$text") "from $kb (baseline"
hasf <(echo "$text") "to $kt (target"
hasf <(echo "$text") "), $kpct%"
hasf <(echo "$text") "the cluster served $sb -> $st req/s"
hasf <(echo "$text") "360 workers (n1ql_workers 120 x workload_instances 3 x 1 bucket)"
hasf <(echo "$text") " $lb req/s in the baseline"
hasf <(echo "$text") "the workload is closed-loop"
hasf <(echo "$text") "active n1ql nodes only"
near "KPI change" "$(finding kpi-change delta_pct "$S")" "$kpct" 0.05
# the printed summary answers the event's questions (from the run; the ticket's
# points are one instance of them)
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/bf2"
for p in 1 2 3 4 5 6 7 8; do has "$TMP/out" "^  $p +[a-z]"; done
# ... in an engineer's words, the figures python3 computed above: $errors failed
# queries, the live node's cbq-engine CPU and connections; memcached on the four kv nodes
# over the whole run: python3's mean of each node's atop/memcached_cpu samples in the phase,
# averaged, is 1120.09 % in the baseline and 1292.82 % in the target, +15.4 %: "15 %"
# (integers from 10 % up); the KPI (3525 - 3916) / 3916 = -9.98 %: "fell 10 %", the served
# rate (3876 - 3922) / 3922 = -1.17 %: "1.2 % less"
cpu0=$(printf '%.0f' "$cpu")
hasf "$TMP/out" "  1   were requests lost at the hard failover of 172.23.100.40? $errors queries failed at the failover of 172.23.100.40, none in the baseline (finding "
hasf "$TMP/out" "; 172.23.100.40 was hard-failed-over while it still served (cbq-engine at $cpu0 % CPU with $conn connections just before) (finding "
has "$TMP/out" '^  3   what changed on the kv nodes, before and after the hard failover\? memcached on the kv nodes used 15 % more CPU for the whole run \(finding [0-9]+\)$'
has "$TMP/out" "^  7 .*the reported throughput KPI fell 10 % \\(${kb%.0} to ${kt%.0}\\) while the cluster served 1\\.2 % less \\($sb to $st req/s\\)"
# what to do, where a finding implies it (once, by the first question it answers)
has "$TMP/out" '^      to do: change the test, not the build: remove a serving query node by rebalance'
has "$TMP/out" '^      to do: file a product bug: 172\.23\.100\.40 kept [0-9]+ established connections'
has "$TMP/out" '^      to do: fix the KPI rule: count the requests of every query node'
[ "$(grep -c '^      to do: ' "$TMP/out")" = 3 ] && ok || fail "$(grep -c '^      to do: ' "$TMP/out") recommendations, want 3"
has "$TMP/bf/index.html" '<br><b>To do:</b> fix the KPI rule'
python3 -c 'import json, sys
q = {}
for x in json.load(open(sys.argv[1]))["questions"]:
    q.setdefault(x["kind"], x)  # the first of each kind: kv first of the roles
sys.exit(0 if q["kpi-counts"]["recommendation"].startswith("fix the KPI rule") and
         q["recovery"]["recommendation"] is None and
         q["role-change"]["words"].startswith("memcached on the kv nodes used 15 % more CPU") else 1)' "$S" &&
  ok || fail "summary.json's questions lack the words or the recommendations"
has "$TMP/bf/index.html" 'id="points"'
has "$TMP/bf/summary.md" '^\*\*The questions of this event\*\*'
has "$TMP/bf/summary.md" '^[0-9]+\. `event-errors`'
has "$TMP/bf/summary.md" '^[0-9]+\. `hard-failover-live-node`'
has "$TMP/bf/summary.jira" '^[0-9]+\. \{\{kpi-change\}\}'

# tree facts the HTML reads: the event story's metrics that a finding is about
# open (the seed's findings name atop/cbq-engine_cpu and _rss, not beam.smp), and the Runs
# table marks the node each run's own event removed, the baseline's too when it holds the
# failover (compared the other way round)
has "$TMP/bf/index.html" '<details class="story" open><summary>atop/cbq-engine_rss<'
has "$TMP/bf/index.html" '<details class="story"><summary>atop/beam.smp_cpu<'
"$PERFDELTA" compare "$F" "$B" -o "$TMP/fb" --quiet 2>/dev/null
n=$(grep -c '<code>172\.23\.100\.40</code> <b>removed</b>' "$TMP/fb/index.html")
[ "$n" -ge 1 ] && ok || fail "the mirrored Runs table does not mark 172.23.100.40 removed"

# a clean pair: neither new finding
expect_code 0 "$PERFDELTA" compare "$B" "$SEED/baseline-aa" -o "$TMP/aa" --quiet
hasnt "$TMP/aa/summary.json" '"kind":"(event-errors|hard-failover-live-node)"'

# graceful against the baseline: a graceful failover is no hard failover of a live node
# and breaks no query
[ "$(py "$G" total-errors)" = 0 ] && ok || fail "the graceful run has errors"
"$PERFDELTA" compare "$B" "$G" -o "$TMP/bg" --quiet
hasnt "$TMP/bg/summary.json" '"kind":"(event-errors|hard-failover-live-node)"'

# the hard failover against the graceful one: the errors are gone, the dip is smaller
expect_code 0 "$PERFDELTA" compare "$F" "$G" -o "$TMP/fg" --quiet
S2=$TMP/fg/summary.json
has "$S2" '"kind":"event-errors","metric":"n1ql_stats/query_errors","scope":"cluster","phase":"transient","direction":"down","delta_pct":null,"value":0'
hasf <(finding event-errors text "$S2") "The failed queries are gone: 0 in the target against $errors in the baseline"
hard=$(finding recovery delta_pct "$S") soft=$(finding recovery delta_pct "$S2")
if python3 -c "import sys; sys.exit(0 if -float('${soft:-0}') < -float('$hard') / 2 else 1)"; then ok
else fail "the graceful dip ($soft %) is not under half the hard one ($hard %)"; fi
finish
