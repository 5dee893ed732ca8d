# A console line in perfrunner's log format whose date or time cannot be (month 13, 99:99)
# is refused at its line (exit 3), not passed over: passed over, the seed's failover line
# vanished and the event read as a rebalance-out from the next console line.
. "$(dirname "$0")/lib.sh"
cp -r "$SEED/failover" "$TMP/c"
sed -i 's/^2026-11-02T10:25:00 \[INFO\] Failing over node/2026-13-45T99:99:99 [INFO] Failing over node/' \
  "$TMP/c/jenkins/consoleText"
n=$(grep -n '^2026-13-45T99:99:99 \[INFO\] Failing over node' "$TMP/c/jenkins/consoleText" | cut -d: -f1)
expect_code 3 "$PERFDELTA" compare "$SEED/baseline" "$TMP/c" -o "$TMP/rep" --quiet
lines "$TMP/err" 1
has "$TMP/err" "consoleText:$n:1: invalid date or time '2026-13-45T99:99:99': expected"
if [ -e "$TMP/rep" ]; then fail "a report was written"; else ok; fi
# February 29th of a year that has none, too
cp -r "$SEED/failover" "$TMP/d"
sed -i 's/^2026-11-02T10:25:00 \[INFO\] Failing over node/2026-02-29T10:25:00 [INFO] Failing over node/' \
  "$TMP/d/jenkins/consoleText"
expect_code 3 "$PERFDELTA" inspect "$TMP/d"
has "$TMP/err" "consoleText:$n:1: invalid date or time '2026-02-29T10:25:00'"
# a line of another shape (no level) is still just text
cp -r "$SEED/failover" "$TMP/e"
printf '2026-13-45T99:99:99 not a log line\n' >>"$TMP/e/jenkins/consoleText"
expect_code 0 "$PERFDELTA" inspect "$TMP/e"
# a target without its console: summary.json says so, as the report's Runs table does
cp -r "$SEED/failover" "$TMP/f"
rm "$TMP/f/jenkins/consoleText"
expect_code 0 "$PERFDELTA" compare "$SEED/baseline" "$TMP/f" -o "$TMP/rep-f" --quiet --fail-on never
hasf "$TMP/rep-f/summary.json" '"no jenkins/consoleText: no console events or KPIs"'
has "$TMP/rep-f/index.html" 'no jenkins/consoleText: no console events or KPIs'
finish
