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
# (a failure shows the file's first lines: an intermittent one is then diagnosed from the log)
has() {
  if grep -Eq -- "$2" "$1"; then ok; else
    fail "$(basename "$1") lacks /$2/"
    # each line's start and end (a long line's middle left out)
    head -n 5 "$1" 2>/dev/null | sed -E 's/^(.{150}).{20,}(.{150})$/\1 ... \2/; s/^/  which holds: /' >&2
  fi
}
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
# nobody_copy BINARY: a copy of BINARY that the user nobody (65534) can run, in $TMP/bin
# ($TMP made 0755): the build directory may sit under one that others cannot traverse (a
# clone in a home directory of mode 0750), and exec needs every directory on the way.
# Prints the copy's path; returns 2 when $TMP is on a noexec mount (said on stderr: the
# cases are skipped), 1 when nobody cannot run the copy otherwise.
nobody_copy() {
  chmod 755 "$TMP" && mkdir -p "$TMP/bin" && chmod 755 "$TMP/bin" &&
    install -m 755 "$1" "$TMP/bin/perfdelta" || return 1
  if setpriv --reuid=65534 --regid=65534 --clear-groups "$TMP/bin/perfdelta" --version \
    >/dev/null 2>&1; then
    echo "$TMP/bin/perfdelta"
  elif findmnt -no OPTIONS --target "$TMP" 2>/dev/null | grep -qw noexec; then
    echo "skip: $TMP is on a noexec mount: the cases as the user nobody are not run" >&2
    return 2
  else
    return 1
  fi
}

# not_utf8_refused DB: both history stores take the same bytes: a bundle path that is not
# UTF-8 (Latin-1 "r\xe9sum\xe9", kept in $LATIN) is refused by DB's store with one
# message, before any run of the call is stored; so is a --test that is not
not_utf8_refused() {
  LATIN=$TMP/r$(printf '\351')sum$(printf '\351')
  cp -r "$SEED/baseline-r3" "$LATIN"
  expect_code 3 "$PERFDELTA" history add "$SEED/baseline-r2" "$LATIN" --db "$1"
  hasf "$TMP/err" "perfdelta: refusing the bundle path '$TMP/r\xe9sum\xe9': byte $((${#TMP} + 3)) is not UTF-8, and the history store holds UTF-8 text"
  lines "$TMP/err" 1
  expect_code 3 "$PERFDELTA" history report --test "t$(printf '\351')" --db "$1" -o "$TMP/latin"
  hasf "$TMP/err" ": refusing 't\\xe9': byte 2 is not UTF-8, and the history store holds UTF-8 text"
}
