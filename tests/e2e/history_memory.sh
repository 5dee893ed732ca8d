# History memory is bounded by the reported test's window, not by the store
# (docs/history.md "Scale"): the report of a 100-run, 5-feature test and one history add
# peak alike in a store of that test alone and in one that also holds another test of
# 300 000 features (the report read runs x every name in the store: 444 MB at 500 000).
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || { echo "skip: sqlite3 missing (scripts/deps test)"; exit 77; }
T=bench_hard_failover
rss() { # rss NAME CMD...: the peak RSS of CMD in kB (pd_bench_measure), exit 0 wanted
  local name=$1; shift
  "$BUILD/pd_bench_measure" "$@" >"$TMP/$name.m" 2>"$TMP/$name.err"
  if grep -q ' status=0$' "$TMP/$name.m"; then ok; else fail "$name: $(cat "$TMP/$name.m" "$TMP/$name.err" | head -3)"; fi
  sed -n 's/.*maxrss_kb=\([0-9]*\).*/\1/p' "$TMP/$name.m"
}
"$BUILD/pd_bench_history" "$TMP/alone.sqlite" 100 5 >/dev/null || fail "pd_bench_history"
cp "$TMP/alone.sqlite" "$TMP/shared.sqlite"
# another test: 300 000 feature names, one run holding them all
sqlite3 "$TMP/shared.sqlite" <<'SQL'
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000)
INSERT INTO feature_names (name) SELECT 'other/metric_' || x || '|role:kv|post' FROM c;
INSERT INTO runs (run_key, test_config, build_order, build_line, added_ms)
  VALUES ('other#1', 'other_test', '0000000007', '7.1', 0);
INSERT INTO run_features (run_id, data)
  SELECT (SELECT id FROM runs WHERE run_key = 'other#1'), group_concat(id || ' 1.5 -', char(10))
  FROM feature_names WHERE name LIKE 'other/%';
SQL
[ "$(sqlite3 "$TMP/shared.sqlite" 'select count(*) from feature_names')" -gt 300000 ] && ok || fail "the other test's names"
a=$(rss alone "$PERFDELTA" history report --test $T --db "sqlite:$TMP/alone.sqlite" -o "$TMP/ra" --quiet)
b=$(rss shared "$PERFDELTA" history report --test $T --db "sqlite:$TMP/shared.sqlite" -o "$TMP/rb" --quiet)
# the same report but for the store its compare commands name
if cmp -s <(sed "s|$TMP/alone\.sqlite|STORE|g" "$TMP/ra/summary.json") \
  <(sed "s|$TMP/shared\.sqlite|STORE|g" "$TMP/rb/summary.json"); then ok; else fail "the reports differ"; fi
cp -r "$SEED/baseline" "$TMP/run"
c=$(rss add_alone "$PERFDELTA" history add "$TMP/run" --db "sqlite:$TMP/alone.sqlite" --quiet)
d=$(rss add_shared "$PERFDELTA" history add "$TMP/run" --db "sqlite:$TMP/shared.sqlite" --quiet)
echo "history_memory: report ${a:-?} kB alone, ${b:-?} kB beside 300 000 names; add ${c:-?} kB, ${d:-?} kB"
# SQLite's page cache (2 MB by default) is the only part that may grow with the store
for pair in "report $a $b" "add $c $d"; do
  set -- $pair
  if grep -q __asan_init "$PERFDELTA"; then
    ok # ASan's shadow and quarantine are not the store's
  elif [ -n "$2" ] && [ -n "$3" ] && [ "$3" -le $(($2 + 4096)) ]; then ok; else fail "$1: ${3:-?} kB beside the other test, ${2:-?} kB alone"; fi
done
finish
