# Every output agrees with summary.json (tests/e2e/outputs_agree.py): the seed's baseline
# against each other bundle of the seed, both ways round, and the mirrored comparison's
# event is the event of its phases.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
for x in failover baseline-aa baseline-r2 baseline-r3 failover-clean failover-graceful \
  failover-ist failover-late; do
  for pair in "baseline $x" "$x baseline"; do
    set -- $pair
    "$PERFDELTA" compare "$SEED/$1" "$SEED/$2" -o "$TMP/$1__$2" --fail-on never \
      >"$TMP/$1__$2.term" 2>"$TMP/err" || fail "compare $1 $2: $(head -1 "$TMP/err")"
  done
done
# and the seed's pair with cbagent's per-request latency samples (fixtures/perfdb/latency):
# the percentile tables
for run in baseline failover; do
  cp -r "$SEED/$run" "$TMP/lat-$run"
  cp -r "$SRC/fixtures/perfdb/latency/$run/." "$TMP/lat-$run/perfdb/"
done
for pair in "lat-baseline lat-failover" "lat-failover lat-baseline"; do
  set -- $pair
  "$PERFDELTA" compare "$TMP/$1" "$TMP/$2" -o "$TMP/$1__$2" --fail-on never \
    >"$TMP/$1__$2.term" 2>"$TMP/err" || fail "compare $1 $2: $(head -1 "$TMP/err")"
done
for pair in "lat-baseline lat-failover" "lat-failover lat-baseline"; do
  set -- $pair
  if grep -q '"latency_percentiles":\[{' "$TMP/$1__$2/summary.json" &&
    python3 "$SRC/tests/e2e/outputs_agree.py" "$TMP/$1__$2" "$TMP/$1__$2.term" "$TMP/$2__$1"
  then ok; else fail "the outputs of $1 against $2 disagree"; fi
done
# two baselines against a failover without its console and with a file no reader knows:
# the runs' notes and undecoded parts, said by each output
cp -r "$SEED/failover" "$TMP/bare"
rm "$TMP/bare/jenkins/consoleText"
echo x >"$TMP/bare/perfdb/zz-unknown.bin"
"$PERFDELTA" compare "$SEED/baseline" "$SEED/baseline-r2" "$TMP/bare" -o "$TMP/two__bare" \
  --fail-on never >"$TMP/two__bare.term" 2>"$TMP/err" || fail "compare two bare: $(head -1 "$TMP/err")"
if grep -q '"undecoded":\["unknown collector' "$TMP/two__bare/summary.json" &&
  python3 "$SRC/tests/e2e/outputs_agree.py" "$TMP/two__bare" "$TMP/two__bare.term"
then ok; else fail "the outputs of two baselines against a bare failover disagree"; fi
# the other ways a user runs compare: three baselines, another threshold, a target
# without its spec (perfrunner/) nor its console
cp -r "$SEED/failover" "$TMP/nospec-run" && rm -r "$TMP/nospec-run/perfrunner" "$TMP/nospec-run/jenkins/consoleText"
# and one without its Jenkins build file: its build is the one its KPIs were posted for
cp -r "$SEED/failover" "$TMP/nobuild-run" && rm -f "$TMP/nobuild-run/jenkins/build."*
modes=("three|$SEED/baseline $SEED/baseline-r2 $SEED/baseline-r3 $SEED/failover|"
  "t10|$SEED/baseline $SEED/failover-clean|--threshold 10"
  "nospec|$SEED/baseline $TMP/nospec-run|"
  "nobuild|$SEED/baseline $TMP/nobuild-run|")
for m in "${modes[@]}"; do
  IFS='|' read -r name runs opts <<<"$m"
  # shellcheck disable=SC2086 # runs and opts are word lists
  "$PERFDELTA" compare $runs -o "$TMP/$name" --fail-on never $opts >"$TMP/$name.term" \
    2>"$TMP/err" || fail "compare $name: $(head -1 "$TMP/err")"
  if python3 "$SRC/tests/e2e/outputs_agree.py" "$TMP/$name" "$TMP/$name.term"; then ok
  else fail "the outputs of $name disagree"; fi
done
for x in failover baseline-aa baseline-r2 baseline-r3 failover-clean failover-graceful \
  failover-ist failover-late; do
  for pair in "baseline $x" "$x baseline"; do
    set -- $pair
    if python3 "$SRC/tests/e2e/outputs_agree.py" "$TMP/$1__$2" "$TMP/$1__$2.term" \
      "$TMP/$2__$1"; then ok; else fail "the outputs of $1 against $2 disagree"; fi
  done
done
finish
