# Shared by the e2e tests: PERFDELTA (the binary), BUILD, SRC, SEED, and small asserts.
set -u
PERFDELTA=$1 BUILD=$2 SRC=$3
SEED=$BUILD/fixtures/seed
TMP=$(mktemp -d /tmp/perfdelta-e2e-XXXXXX)
trap 'rm -rf "$TMP"' EXIT
fails=0 checks=0
ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
# expect_code CODE CMD...: runs CMD, stdout to $TMP/out, stderr to $TMP/err
expect_code() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"; local got=$?
  if [ "$got" = "$want" ]; then ok; else fail "exit $got (want $want): $*"; sed 's/^/  stderr: /' "$TMP/err" | head -5 >&2; fi
}
# has FILE REGEX: FILE has a line matching the extended regex
has() { if grep -Eq -- "$2" "$1"; then ok; else fail "$(basename "$1") lacks /$2/"; fi; }
hasnt() { if grep -Eq -- "$2" "$1"; then fail "$(basename "$1") has /$2/"; else ok; fi; }
lines() { local n; n=$(wc -l <"$1"); if [ "$n" = "$2" ]; then ok; else fail "$(basename "$1") has $n lines, want $2"; fi; }
finish() { echo "$((checks - fails)) passed, $fails failed"; [ "$fails" = 0 ]; }
# hasf FILE STRING: FILE holds STRING literally
hasf() { if grep -qF -- "$2" "$1"; then ok; else fail "$(basename "$1") lacks '$2'"; fi; }
# wait_for SECS CMD...: retries CMD every 50 ms until it succeeds or SECS pass (a deadline,
# never a fixed sleep); returns CMD's last status
wait_for() {
  local end=$(($(date +%s) + $1)); shift
  until "$@"; do [ "$(date +%s)" -lt "$end" ] || return 1; sleep 0.05; done
}
# now_ns: the wall clock in nanoseconds
now_ns() { date +%s%N; }
