# The percentiles of cbagent's per-request latency samples: the seed's runs with
# fixtures/perfdb/latency's spring_latency and spring_query_latency samples added. summary.json's
# latency_percentiles against an independent computation of numpy's percentile on the
# fixture's samples, the charts drawn, the HTML naming each figure, "not enough samples"
# where a run has fewer than a percentile needs.
. "$(dirname "$0")/lib.sh"
FX=$SRC/fixtures/perfdb/latency
for run in baseline failover; do
  cp -r "$SEED/$run" "$TMP/$run"
  cp -r "$FX/$run/." "$TMP/$run/perfdb/"
done
expect_code 1 "$PERFDELTA" compare "$TMP/baseline" "$TMP/failover" -o "$TMP/report" --quiet
cat >"$TMP/check.py" <<'PY'
import html, json, math, os, re, sys
fx, out = sys.argv[1], sys.argv[2]
T0 = 1793643600000  # the seed's start (fixtures/seedgen.c); the fixture keeps 10 s clear
                    # of every phase bound, so a t0 a few hundred ms off splits the same
RUNS = {"baseline": "iris_710-1345_access_a7b6", "target": "iris_710-1345_failover_8a92"}
DIRS = {"baseline": "baseline", "target": "failover"}
PS = [50, 80, 90, 95, 99, 99.9]

def pct(xs, p):
    """numpy.percentile's default, 'linear' (Hyndman and Fan's type 7): the sorted
    samples at h = (n - 1) p / 100, interpolated between floor(h) and the next."""
    xs = sorted(xs)
    h = (len(xs) - 1) * p / 100
    lo = math.floor(h)
    if lo >= len(xs) - 1:
        return xs[-1]
    return xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])

# the function against numpy itself: numpy.percentile([1, 2, 3, 4, 10], PS) printed
# [3.0, 5.200000000000001, 7.6000000000000005, 8.799999999999999, 9.76, 9.976000000000003]
for p, want in zip(PS, [3.0, 5.2, 7.6, 8.8, 9.76, 9.976]):
    assert abs(pct([4, 1, 10, 3, 2], p) - want) < 1e-12, (p, want)
try:
    import numpy
    for p in PS:
        assert abs(pct(list(range(37)) + [1e3], p) - numpy.percentile(list(range(37)) + [1e3], p)) < 1e-9
except ImportError:
    pass

s = json.load(open(os.path.join(out, "summary.json")))
page = html.unescape(open(os.path.join(out, "index.html")).read())
phases = {p["name"]: (p["start_s"], p["end_s"]) for p in s["phases"]}
entries = s["latency_percentiles"]
errors, seen = [], set()
def fmt(v):
    return "%.2f ms" % v if abs(v) < 100 else "%.0f ms" % v
for e in entries:
    coll, metric = e["metric"].split("/")
    seen.add((e["metric"], e["phase"]))
    lo, hi = phases[e["phase"]]
    side = {}
    for who in ("baseline", "target"):
        db = os.path.join(fx, DIRS[who], coll + RUNS[who] + "bucket-1", metric + ".json")
        pts = json.load(open(db))
        xs = [v for ts, v in pts
              if e["phase"] == "whole" or lo <= (ts - T0) / 1000 < hi]
        side[who] = xs
        if e[who + "_n"] != len(xs):
            errors.append("%s %s %s: n %d, want %d" % (e["metric"], e["phase"], who, e[who + "_n"], len(xs)))
    for pt in e["points"]:
        need = round(100 / (100 - pt["p"]))
        if pt["min_samples"] != need:
            errors.append("min_samples %s" % pt)
        want = {}
        for who in ("baseline", "target"):
            xs = side[who]
            status = "ok" if len(xs) >= need else "not enough samples" if xs else "no samples"
            want[who] = pct(xs, pt["p"]) if status == "ok" else None
            if pt[who + "_status"] != status:
                errors.append("%s %s p%g %s: %s, want %s" % (e["metric"], e["phase"], pt["p"], who, pt[who + "_status"], status))
            got = pt[who + "_ms"]
            if (got is None) != (want[who] is None) or (got is not None and abs(got - want[who]) > 1e-9 * max(1, abs(want[who]))):
                errors.append("%s %s p%g %s: %s, want %s" % (e["metric"], e["phase"], pt["p"], who, got, want[who]))
        b, t = want["baseline"], want["target"]
        ch = (t - b) / b * 100 if b is not None and t is not None and b > 0 else None
        if (pt["change_pct"] is None) != (ch is None) or (ch is not None and abs(pt["change_pct"] - ch) > 1e-7):
            errors.append("change %s %s p%g: %s, want %s" % (e["metric"], e["phase"], pt["p"], pt["change_pct"], ch))
        # the page states the pair as summary.json does, or says why it cannot
        cell = "%s → %s" % (fmt(b) if b is not None else pt["baseline_status"],
                              fmt(t) if t is not None else pt["target_status"])
        if cell not in page:
            errors.append("the page lacks '%s' (%s %s p%g)" % (cell, e["metric"], e["phase"], pt["p"]))
want = {(m, p) for m in ("spring_latency/latency_get", "spring_query_latency/latency_query")
        for p in ("pre", "transient", "post", "whole")}
if seen != want:
    errors.append("entries %s, want %s" % (sorted(seen), sorted(want)))
# a chart per metric, of its charted phase, shown in its section and drawn
for m in ("spring_latency/latency_get", "spring_query_latency/latency_query"):
    charted = [e["phase"] for e in entries if e["metric"] == m and e["charted"]]
    sec = re.search(r'<div class="metric" id="latency-%s">(.*?)</table>' % re.escape(m), page, re.S)
    img = re.search(r'<img [^>]*alt="([^"]*)" src="(charts/[^"]*\.svg)"', sec.group(1)) if sec else None
    if charted != ["post"] or not img or not os.path.isfile(os.path.join(out, img.group(2))):
        errors.append("%s: charted %s, image %s" % (m, charted, img and img.group(2)))
    elif not img.group(1).startswith(m + ": latency (ms) at percentiles p50 to p99.9 over the post phase"):
        errors.append("%s: alt %s" % (m, img.group(1)))
    elif "%s (post)" % m not in open(os.path.join(out, img.group(2))).read():
        errors.append("%s: the chart's title" % m)
print("\n".join(errors[:10]) or "%d entries agree" % len(entries))
sys.exit(1 if errors else 0)
PY
if python3 "$TMP/check.py" "$FX" "$TMP/report" >"$TMP/check.out" 2>&1; then ok; else fail "$(cat "$TMP/check.out")"; fi
# the fixture is made so: p99.9 of latency_query lacks samples (600 in all), of latency_get
# after the event it has them (1224 in the target)
has "$TMP/report/summary.json" '"metric":"spring_query_latency/latency_query","phase":"whole"[^]]*"p":99\.9,"min_samples":1000,"baseline_ms":null,"target_ms":null,"change_pct":null,"baseline_status":"not enough samples"'
has "$TMP/report/summary.json" '"metric":"spring_latency/latency_get","phase":"post","unit":"ms","baseline_n":[0-9]+,"target_n":1224'
has "$TMP/report/index.html" '<h3 id="latency-percentiles">Latency percentiles of cbagent'
has "$TMP/report/index.html" '<h3>Query latency: the share of requests slower than each bound</h3>'
# summary.json's schema describes the entries (keys, statuses, p)
if python3 - "$SRC/docs/summary.schema.json" "$TMP/report/summary.json" >"$TMP/schema.out" 2>&1 <<'PY'
import json, sys, jsonschema
schema, doc = (json.load(open(p)) for p in sys.argv[1:3])
jsonschema.Draft202012Validator(schema).validate(doc)
PY
then ok; else fail "summary.json against its schema: $(tail -3 "$TMP/schema.out")"; fi
# the contents link to the section; a chart's x axis names the percentiles
hasf "$TMP/report/index.html" '<li><a href="#latency-percentiles">Latency percentiles</a>'
for p in p50 p80 p90 p95 p99 p99.9; do
  has "$TMP/report/charts/lat-p03.svg" ">$p</text>"
done
# the time series of a per-request metric (the deltas' grid) is the mean of every request
# on each 5 s grid point, not the last one: python3 over the fixture's JSON, each request on
# its nearest point from the run's t0 (inspect), the mean of those points in the post phase
for run in baseline failover; do "$PERFDELTA" inspect --json "$TMP/$run" >"$TMP/$run.inspect"; done
if python3 - "$TMP" >"$TMP/grid.out" 2>&1 <<'PY'
import glob, json, sys
tmp = sys.argv[1]
S = json.load(open(tmp + "/report/summary.json"))
post = [p for p in S["phases"] if p["name"] == "post"][0]
want = [d for d in S["deltas"] if d["metric"] == "spring_latency/latency_get" and d["phase"] == "post"][0]
for run, side in (("baseline", "baseline"), ("failover", "target")):
    t0 = json.load(open(f"{tmp}/{run}.inspect"))["timebase"]["t0_ms"]
    bins = {}
    for f in glob.glob(f"{tmp}/{run}/perfdb/spring_latency*/latency_get.json"):
        for t, v in json.load(open(f)):
            d = t - t0
            k = (d + 2500) // 5000 if d >= 0 else -((-d + 2500) // 5000)
            bins.setdefault(k, []).append(v)
    pts = [sum(v) / len(v) for k, v in bins.items() if post["start_s"] <= 5 * k < post["end_s"]]
    mean = sum(pts) / len(pts)
    got = want[side]["mean"]
    if abs(mean - got) > 1e-9 * abs(mean) or len(pts) != want[side]["n"]:
        sys.exit(f"{side}: post mean of the per-point means {mean} over {len(pts)}, summary.json {got} over {want[side]['n']}")
print("post means agree")
PY
then ok; else fail "per-request grid: $(cat "$TMP/grid.out")"; fi
# a latency of two buckets is their mean, not their sum: bucket-2 is bucket-1 with every
# request 3x as slow, so the cluster's post mean is 2x bucket-1's alone (the mean of 1x, 3x)
for run in baseline failover; do
  for d in "$TMP/$run"/perfdb/spring_latency*bucket-1; do
    mkdir -p "${d%bucket-1}bucket-2"
    python3 -c 'import json,sys; print(json.dumps([[t, 3 * v] for t, v in json.load(open(sys.argv[1]))]))' \
      "$d/latency_get.json" >"${d%bucket-1}bucket-2/latency_get.json"
  done
done
expect_code 1 "$PERFDELTA" compare "$TMP/baseline" "$TMP/failover" -o "$TMP/two" --quiet
if python3 - "$TMP/report/summary.json" "$TMP/two/summary.json" >"$TMP/two.out" 2>&1 <<'PY'
import json, sys
one, two = ([d for d in json.load(open(p))["deltas"] if d["metric"] == "spring_latency/latency_get"
             and d["phase"] == "post"][0] for p in sys.argv[1:3])
for side in ("baseline", "target"):
    if two["aggregation"] != "mean" or two["members"] != 2 or \
            abs(two[side]["mean"] - 2 * one[side]["mean"]) > 1e-9 * one[side]["mean"]:
        sys.exit(f"{side}: {two['aggregation']} of {two['members']}: {two[side]['mean']}, want 2 x {one[side]['mean']}")
print("two buckets: the mean")
PY
then ok; else fail "$(cat "$TMP/two.out")"; fi
# the seed alone has no such samples: no section, no entries
expect_code 1 "$PERFDELTA" compare "$SEED/baseline" "$SEED/failover" -o "$TMP/seed" --quiet
has "$TMP/seed/summary.json" '"latency_percentiles":\[\]'
hasnt "$TMP/seed/index.html" 'latency-percentiles'
finish
