# compare beyond the seed story: runs that cannot be compared (exit 4, the reason said),
# a hole in a live node's series (a data-gap finding), --metrics and --threshold-for.
. "$(dirname "$0")/lib.sh"
B=$SEED/baseline F=$SEED/failover

# another workload: exit 4, the differing key named in the finding
cp -r "$F" "$TMP/other"
sed -i 's/^workers = 20$/workers = 40/' "$TMP/other"/perfrunner/*.test
expect_code 4 "$PERFDELTA" compare "$B" "$TMP/other" -o "$TMP/r1"
has "$TMP/out" '^verdict: not-comparable'
has "$TMP/r1/summary.json" '"kind":"not-comparable"'
hasf "$TMP/r1/summary.json" "[access] workers is '20' in the baseline, '40' in the target"

# a 100 s hole (20 samples) in one kv node's memcached CPU, in the middle of the run
cp -r "$F" "$TMP/gap"
f=$(find "$TMP/gap/perfdb" -path '*17223100211/memcached_cpu.json')
tr -d '\n' <"$f" | sed 's/\],\[/]\n[/g' >"$TMP/samples"
n=$(wc -l <"$TMP/samples")
{ sed -n "1,$((n / 2))p" "$TMP/samples"; sed -n "$((n / 2 + 21)),\$p" "$TMP/samples"; } |
  paste -sd, >"$f"
expect_code 1 "$PERFDELTA" compare "$B" "$TMP/gap" -o "$TMP/r2" --quiet
has "$TMP/r2/summary.json" '"kind":"data-gap","metric":"atop/memcached_cpu","scope":"node:172\.23\.100\.211"'
hasf "$TMP/r2/summary.json" "the longest hole is 10"

# only the metrics asked for
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/r3" --quiet --metrics 'atop/memcached_*,net/*'
if grep -o '"metric":"[^"]*/[^"]*"' "$TMP/r3/summary.json" | sort -u | grep -vqE '"metric":"(atop/memcached_|net/)'; then
  fail "--metrics let other metrics through"
else ok; fi
# a threshold of 20 % for CPU: memcached's +15 % is no longer a regression
expect_code 1 "$PERFDELTA" compare "$B" "$F" -o "$TMP/r4" --quiet --threshold-for '*cpu*=20'
hasnt "$TMP/r4/summary.json" '"metric":"atop/memcached_cpu","scope":"role:kv","phase":"post"[^}]*\}[^}]*\}[^}]*"verdict":"regression"'
has "$TMP/r4/summary.json" '"kind":"lingering-connections"'
# two failover runs whose events fall 120 s apart after their starts: the baseline is
# shifted onto the target's event (a note says so), so that in the transient phase the
# removed node is gone in both (unaligned, the baseline's was still serving: -99.95 %),
# and the baseline's removed node is not taken for a live node with a hole
expect_code 0 "$PERFDELTA" compare "$SEED/failover-late" "$F" -o "$TMP/late" --quiet
hasf "$TMP/late/summary.json" "the baseline has its own hard-failover (of 172.23.100.40) at 419.7 s: its series are shifted by -120.0 s so that it lines up with the target's at 299.8 s"
pct=$(grep -o '{"metric":"net/in_bytes_per_sec","scope":"removed","phase":"transient"[^}]*}[^}]*}[^}]*}' "$TMP/late/summary.json" |
  sed -E 's/.*"delta_pct":([-0-9.e+]+).*/\1/')
if awk -v p="$pct" 'BEGIN {exit !(p > -20 && p < 20)}'; then ok; else fail "removed node transient delta $pct %"; fi
hasnt "$TMP/late/summary.json" '"kind":"data-gap"'
# its charts over time are drawn on the target's clock, and say so (the latency chart's
# axis is its bounds in ms)
n=$(grep -l "seconds from the target's phase start" "$TMP/late/charts/"*.svg | wc -l)
m=$(ls "$TMP/late/charts/"*.svg | grep -vc '/latency[0-9]*\.svg$')
if [ "$n" -gt 0 ] && [ "$n" = "$m" ]; then ok; else fail "$n of $m charts label the target's clock"; fi
# the other way round: the baseline's failover defines the phases (tests/e2e/verdicts.sh
# checks the mirrored findings)
"$PERFDELTA" compare "$F" "$B" -o "$TMP/rev" --quiet --fail-on never >/dev/null 2>&1
hasf "$TMP/rev/summary.json" "the baseline has a hard-failover of 172.23.100.40 at 299.8 s and the target none: the baseline's event defines the phases"
# the baseline's event forced by its own flag: the shift follows it
expect_code 0 "$PERFDELTA" compare "$SEED/failover-late" "$F" -o "$TMP/late2" --quiet --baseline-event-time 400
hasf "$TMP/late2/summary.json" "at 400.0 s: its series are shifted by -100.0 s"
expect_code 2 "$PERFDELTA" compare "$SEED/failover-late" "$F" -o "$TMP/late3" --baseline-event-time 5000
has "$TMP/err" '^perfdelta: --baseline-event-time 5000\.0 is outside the phase'
expect_code 2 "$PERFDELTA" inspect "$F" --baseline-event-time 10
# events that already line up are said to, with no shift; a baseline console event put
# outside its phase by a wrong clock is dropped, said, and the next source (the series'
# rebalance start, 425.1 s) followed
"$PERFDELTA" compare "$F" "$SEED/failover-clean" -o "$TMP/same-ev" --quiet --fail-on never >/dev/null 2>&1
hasf "$TMP/same-ev/summary.json" "at 299.8 s, which lines up with the target's at 299.8 s"
"$PERFDELTA" compare "$SEED/failover-late" "$F" -o "$TMP/bad-clock" --quiet --fail-on never \
  --baseline-console-utc-offset -05:00 >/dev/null 2>&1
has "$TMP/bad-clock/summary.json" "the baseline's event time from the console \\(-[0-9.]+ s\\) lies outside its measured phase \\(0 to 1200 s\\): not used; the event time is taken from the series"
has "$TMP/bad-clock/summary.json" 'the baseline has its own hard-failover \(of 172\.23\.100\.40\) at 425\.1 s: its series are shifted by -125\.0 s'
finish
