# valgrind's memcheck on the demo (compare of the seed fixture, every output written) and
# on inspect: no error, no leak. Skipped (77) for a sanitizer build, which valgrind
# cannot run.
. "$(dirname "$0")/lib.sh"
if grep -qE "__[at]san_init" "$PERFDELTA"; then echo "skipped: a sanitizer build"; exit 77; fi
if ! command -v valgrind >/dev/null; then fail "valgrind is not installed (scripts/deps test installs it)"; finish; exit 1; fi
vg() { valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect,possible \
  --errors-for-leak-kinds=definite,indirect,possible "$@"; }
expect_code 0 vg "$PERFDELTA" demo -o "$TMP/demo"
hasnt "$TMP/err" '=='
expect_code 1 vg "$PERFDELTA" compare "$SEED/baseline" "$SEED/failover" --single-file -o "$TMP/one.html" --quiet
hasnt "$TMP/err" '=='
expect_code 0 vg "$PERFDELTA" inspect --json "$SEED/failover-ist"
hasnt "$TMP/err" '=='
# an input error path frees what it took too
cp -r "$SEED/baseline" "$TMP/bad" && printf '[[1,' >"$(find "$TMP/bad/perfdb" -name '*.json' | sort | head -1)"
expect_code 3 vg "$PERFDELTA" compare "$TMP/bad" "$SEED/failover" -o "$TMP/x"
hasnt "$TMP/err" '=='
finish
