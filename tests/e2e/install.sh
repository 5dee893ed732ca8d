# `cmake --install` to a prefix: the installed perfdelta finds its seed fixture (demo)
# and perfdelta-pull beside it; a copy of perfdelta alone says in one line what it
# misses. Nothing refers back to the build tree.
. "$(dirname "$0")/lib.sh"

cmake --install "$BUILD" --prefix "$TMP/inst" >/dev/null 2>"$TMP/err" || fail "cmake --install failed"
P=$TMP/inst/bin/perfdelta
expect_code 0 "$P" demo -o "$TMP/demo" --quiet
if [ -f "$TMP/demo/index.html" ] && [ -f "$TMP/demo/summary.json" ]; then ok; else fail "installed demo wrote no report"; fi
has "$TMP/demo/summary.json" '"verdict":"regression"'
if [ -d "$TMP/inst/share/perfdelta/seed/failover/perfdb" ]; then ok; else fail "seed not installed"; fi
if [ -e "$TMP/inst/share/perfdelta/seed/.stamp" ]; then fail "build stamp installed"; else ok; fi
if [ -f "$TMP/inst/share/man/man1/perfdelta.1" ]; then ok; else fail "man page not installed"; fi
expect_code 0 "$P" pull --help

cp "$P" "$TMP/lone"
expect_code 3 "$TMP/lone" demo -o "$TMP/demo2"
lines "$TMP/err" 1
has "$TMP/err" "^perfdelta: the demo's runs are in neither $TMP/fixtures/seed nor "
if [ -e "$TMP/demo2" ]; then fail "output written without runs"; else ok; fi
finish
