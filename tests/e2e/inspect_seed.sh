# inspect on the seed fixture: nodes and roles, every series decoded, the time base,
# the event from the console with the clock found from the series, and the KPIs.
. "$(dirname "$0")/lib.sh"

expect_code 0 "$PERFDELTA" inspect "$SEED/baseline"
cp "$TMP/out" "$TMP/base"
has "$TMP/base" '^nodes \(6\)$'
for r in 'kv#1 +172\.23\.100\.210 +kv$' 'kv#4 +172\.23\.100\.213 +kv$' 'n1ql#1 +172\.23\.100\.55 +n1ql$' 'index#1 +172\.23\.100\.45 +index$'; do
  has "$TMP/base" "^  $r"
done
hasnt "$TMP/base" '172\.23\.100\.40'
hasnt "$TMP/base" 'undecoded'
has "$TMP/base" '^  event +none$'
has "$TMP/base" '^snapshot +iris_710-1345_access_a7b6$'
has "$TMP/base" 'n1ql_thr_Q3_20M_gsi_plasma_ok_1s_1c_1i_avg_query_requests_iris_extra_n1ql = 3916\.0$'
# every db directory of the bundle is a decoded series group: count metric files
nfiles=$(find "$SEED/baseline/perfdb" -name '*.json' -o -name '*.data' | wc -l)
has "$TMP/base" "^series \($nfiles, "

expect_code 0 "$PERFDELTA" inspect "$SEED/failover"
cp "$TMP/out" "$TMP/fo"
has "$TMP/fo" '^nodes \(7\)$'
has "$TMP/fo" '^  n1ql#2 +172\.23\.100\.40 +n1ql$'
hasnt "$TMP/fo" 'undecoded'
nfiles=$(find "$SEED/failover/perfdb" -name '*.json' -o -name '*.data' | wc -l)
has "$TMP/fo" "^series \($nfiles, "
has "$TMP/fo" 'console clock UTC-08:00 \(from series'
# the failover at 300 s, within one 5 s interval, from the console
has "$TMP/fo" 'event +hard-failover of 172\.23\.100\.40 at (29[5-9]|30[0-5])\.[0-9] s \(from console\)'
has "$TMP/fo" 'sources agree'
has "$TMP/fo" 'n1ql_thr_Q3_20M_gsi_plasma_ok_hard_failover_1s_1c_1i_avg_query_requests_iris_extra_n1ql = 3525\.0$'
# ssh collectors keep sampling the removed node; REST ones stop at the failover
has "$TMP/fo" '^  atop/cbq-engine_rss +server server=172\.23\.100\.40 +n=2[34][0-9] '
has "$TMP/fo" '^  ns_server_system/cpu_utilization +server server=172\.23\.100\.40 +n=(5[0-9]|6[0-1]) '

# the same run with its console in +05:30 gives the same event time
expect_code 0 "$PERFDELTA" inspect "$SEED/failover-ist"
has "$TMP/out" 'console clock UTC\+05:30 \(from series'
t_pst=$(grep -Eo 'at [0-9.]+ s \(from console\)' "$TMP/fo")
if grep -qF -- "$t_pst" "$TMP/out"; then ok; else fail "failover-ist: event differs from '$t_pst'"; fi

# a flag overrides the clock: with the wrong zone the console event moves by 1 h
expect_code 0 "$PERFDELTA" inspect "$SEED/failover" --console-utc-offset -09:00 --json
has "$TMP/out" '"utc_offset_s":-32400'
has "$TMP/out" '"offset_source":"flag"'
# a series whose every sample is the same is said (counters such as errors are; a CPU
# that is, is a dead collector): the baseline has some, the flattened copy one more
cp -r "$SEED/baseline" "$TMP/flat"
f=$(find "$TMP/flat/perfdb" -path '*17223100211/memcached_cpu.json')
sed -E 's/\[([0-9]+), *[-0-9.e+]+\]/[\1, 0]/g' "$f" >"$TMP/flat.json" && mv "$TMP/flat.json" "$f"
constant() { "$PERFDELTA" inspect "$1" | sed -nE 's/^series \(.*; ([0-9]+) constant: every sample the same\)$/\1/p'; }
n0=$(constant "$SEED/baseline") n1=$(constant "$TMP/flat")
if [ -n "$n0" ] && [ "$n1" = $((n0 + 1)) ]; then ok; else fail "constant series: '$n0' then '$n1'"; fi
expect_code 0 "$PERFDELTA" inspect "$TMP/flat"
has "$TMP/out" '^  atop/memcached_cpu +server server=172\.23\.100\.211 .* constant=0$'
hasnt "$TMP/out" '^  atop/memcached_cpu +server server=172\.23\.100\.210 .* constant='
expect_code 0 "$PERFDELTA" inspect "$TMP/flat" --json
if [ "$(grep -o '"constant":true' "$TMP/out" | wc -l)" = "$n1" ]; then ok; else fail "constant in --json"; fi

# The seed's story, checked on its files by python3, independently of perfdelta (fixtures/
# seed-README.md): samples deduplicated (last wins), t from the phase start 1793643600000.
python3 - "$SEED" >"$TMP/story" 2>&1 <<'EOF'
import json, math, os, re, statistics as st, sys
S, T0, bad = sys.argv[1], 1793643600000, []
def dbs(b): return os.listdir(f"{S}/{b}/perfdb")
def series(b, db, metric):
    pts = {}
    for ts, v in json.load(open(f"{S}/{b}/perfdb/{db}/{metric}.json")): pts[ts] = v
    return sorted(((ts - T0) / 1000, v) for ts, v in pts.items())
def db(b, coll, host=""):
    tail = ("bucket-1" if coll in ("ns_server", "secondary_stats") else "") + host.replace(".", "")
    return [d for d in dbs(b) if re.fullmatch(coll + r"iris_710-1345_\w+_[0-9a-f]{4}" + tail, d)][0]
def has_db(b, coll, host): return any(d.startswith(coll) and d.endswith(host.replace(".", "")) for d in dbs(b))
def mean(p, lo, hi): return st.mean(v for t, v in p if lo <= t < hi)
def integral(p): return sum(v * (t2 - t) for (t, v), (t2, _) in zip(p, p[1:]))
def check(cond, what):
    if not cond: bad.append(what)
hosts = ["172.23.100.%d" % h for h in (210, 211, 212, 213, 55, 45, 40)]
# iostat and meminfo: the baseline (N1QLThroughputTest here) has them, the shutdown test not
for b, want in (("baseline", True), ("failover", False), ("failover-graceful", False)):
    has = any(d.startswith(("iostat", "meminfo")) for d in dbs(b))
    check(has == want, f"{b}: iostat/meminfo present {has}")
# fact d: the bucket's cpu_utilization_rate is the mean of the active nodes' cpu_utilization
for b, lo, hi, level in (("baseline", 0, 300, 80), ("baseline", 400, 1201, 80),
                         ("failover", 0, 300, 78), ("failover", 400, 1201, 90)):
    cl = mean(series(b, db(b, "ns_server"), "cpu_utilization_rate"), lo, hi)
    nodes = [series(b, db(b, "ns_server_system", h), "cpu_utilization") for h in hosts
             if has_db(b, "ns_server_system", h)]
    nm = st.mean(mean(p, lo, hi) for p in nodes if p[-1][0] >= hi - 10)
    check(abs(cl - nm) < 1.5 and abs(cl - level) < 2, f"{b} [{lo},{hi}): cluster {cl:.1f}, nodes {nm:.1f}")
# the hard failover breaks queries (about 680 failed requests), the graceful one does not
for b, lo, hi in (("failover", 600, 760), ("failover-graceful", 0, 0), ("baseline", 0, 0)):
    n = integral(series(b, db(b, "n1ql_stats"), "query_errors"))
    slow = integral(series(b, db(b, "n1ql_stats"), "query_requests_5000ms"))
    check(lo <= n <= hi and (slow > 10) == (hi > 0), f"{b}: {n:.1f} failed, {slow:.1f} slow")
# connections the removed node keeps: ~70 after a hard failover, none after a graceful one
for b, lo, hi in (("failover", 65, 76), ("failover-graceful", 0, 5)):
    p = series(b, db(b, "net", "172.23.100.40"), "ESTABLISHED")
    m = st.median(v for t, v in p if t >= 400)
    check(lo <= m <= hi, f"{b}: .40 keeps {m} connections")
# run-to-run variance: each (run, metric) has its own level, sd 3 %, in r2/r3; none in the
# A/A control. The rms of log(mean / baseline's mean) over every .json series with a
# positive mean holds that and the noise of a 1200 s mean (about 1 %): 3.2 % and 1 %.
def means(b):
    out = {}
    for d in dbs(b):
        for f in os.listdir(f"{S}/{b}/perfdb/{d}"):
            if f.endswith(".json"):
                v = [v for t, v in series(b, d, f[:-5])]
                out[re.sub(r"iris_710-1345_access_[0-9a-f]{4}", "", d) + "/" + f] = st.mean(v)
    return out
ref = means("baseline")
for b, lo, hi in (("baseline-aa", 0, 0.02), ("baseline-r2", 0.025, 0.045), ("baseline-r3", 0.025, 0.045)):
    got = means(b)
    logs = [math.log(got[k] / ref[k]) for k in got if ref.get(k, 0) > 0 and got[k] > 0]
    sd = math.sqrt(st.mean(x * x for x in logs))
    check(len(logs) > 140 and lo <= sd <= hi, f"{b}: level spread {sd:.4f} over {len(logs)} series")
print("\n".join(bad) if bad else "story ok")
EOF
if [ "$(cat "$TMP/story")" = "story ok" ]; then ok; else fail "seed story: $(cat "$TMP/story")"; fi

# the ticket's Jenkins builds; the graceful run's console as perfrunner logs it
has "$SEED/baseline/jenkins/build.json" '"fullDisplayName":"iris-multi-client #12081"'
has "$SEED/failover/jenkins/build.xml" '<number>12520</number>'
c=$SEED/failover-graceful/jenkins/consoleText
has "$c" '^2026-11-02T10:25:00 \[INFO\] Gracefully failing over node: 172\.23\.100\.40$'
has "$c" '^2026-11-02T10:25:01 \[INFO\] Rebalance progress: 1\.2e-05 %$'
g=$(grep -n 'Rebalance progress' "$c" | head -1 | cut -d: -f1) s=$(grep -n 'Starting rebalance' "$c" | cut -d: -f1)
if [ -n "$g" ] && [ -n "$s" ] && [ "$g" -lt "$s" ]; then ok; else fail "graceful progress at line '$g', rebalance at '$s'"; fi
hasnt "$c" 'Failing over node'
finish
