# Credentials kept off the command line, and printed nowhere: a netrc file named by
# PERFDELTA_NETRC is sent to every server; a password in a URL of the command line (in
# every user's ps) still works but is warned about; no output, error or file of pull,
# compare or history ever holds the password (a history store's URL with one is warned
# about too).
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
PW=pd-pass-Vq73nX
mkdir -p "$TMP/home"
export HOME=$TMP/home PERFDELTA_CACHE=$TMP/cache
# leaked FILE...: none of the files (or what the directories hold) has the password
leaked() {
  if grep -rqF -- "$PW" "$@"; then fail "the password is in $(grep -rlF -- "$PW" "$@" | head -3)"; else ok; fi
}

# 1. A netrc file that PERFDELTA_NETRC names (none in HOME): every request carries it, no
# warning; one that cannot be read is a usage error naming it.
serve base "$B"
printf 'machine 127.0.0.1\nlogin me\npassword %s\n' "$PW" >"$TMP/creds"
PERFDELTA_NETRC=$TMP/creds expect_code 0 "$PERFDELTA" pull --jenkins "$URL/$JOB/" \
  --perfdb "$URL/" --snapshot iris_710-1345_access_a7b6 -o "$TMP/netrc" --quiet
hasnt "$TMP/base.log" ' noauth$'
has "$TMP/base.log" ' auth$'
hasnt "$TMP/err" "warning"
leaked "$TMP/netrc" "$TMP/out" "$TMP/err"
PERFDELTA_NETRC=$TMP/none expect_code 2 "$PERFDELTA" pull --jenkins "$URL/$JOB/" \
  --perfdb "$URL/" -o "$TMP/none-out"
has "$TMP/err" "^perfdelta: $TMP/none: cannot read the netrc file PERFDELTA_NETRC names: No such file or directory$"
quit

# 2. The old form, a password in each URL: the pull works and authenticates, and each URL
# is warned about, shown without its password.
serve old "$B"
AUTH=http://me:$PW@127.0.0.1:$PORT
expect_code 0 "$PERFDELTA" pull --jenkins "$AUTH/$JOB/" --perfdb "$AUTH/" \
  --snapshot iris_710-1345_access_a7b6 -o "$TMP/old"
has "$TMP/old.log" "^GET /$JOB/api/json 200 auth$"
hasnt "$TMP/old.log" ' noauth$'
for u in "$URL/$JOB/" "$URL/"; do
  hasf "$TMP/err" "perfdelta: warning: $u was given with its password, which any user of this machine can read in the process list: put it in a netrc file (--netrc, or PERFDELTA_NETRC=FILE) or, for Jenkins, in PERFDELTA_JENKINS_USER and PERFDELTA_JENKINS_TOKEN"
done
lines "$TMP/err" 2
leaked "$TMP/old" "$TMP/out" "$TMP/err"
# --quiet keeps the warning (it prints errors and warnings)
expect_code 0 "$PERFDELTA" pull --jenkins "$AUTH/$JOB/" --perfdb "$AUTH/" \
  --snapshot iris_710-1345_access_a7b6 -o "$TMP/old-quiet" --quiet
lines "$TMP/err" 2
# compare from such a URL: warned once by its pull, the password nowhere (report, cache)
expect_code 0 "$PERFDELTA" compare "$B" "$AUTH/$JOB/" --perfdb "$AUTH/" -o "$TMP/report" \
  --fail-on never
has "$TMP/err" "^perfdelta: warning: $URL/$JOB/ was given with its password"
leaked "$TMP/report" "$TMP/cache" "$TMP/out" "$TMP/err"
quit

# 3. Failures print no password: a server that fails every request, the Prometheus and
# cbmonitor2 paths, a store URL with a typo in its scheme, one that cannot connect.
serve down "$B" --always-fail
AUTH=http://me:$PW@127.0.0.1:$PORT
expect_code 3 "$PERFDELTA" pull --jenkins "$AUTH/$JOB/" --retries 1 -o "$TMP/down"
# the build and its console are asked for at once: the first to fail is said
has "$TMP/err" "^perfdelta: $URL/$JOB/(api/json|consoleText): HTTP 503 after 2 tries$"
leaked "$TMP/out" "$TMP/err"
for flag in --prometheus --cbmonitor2; do
  expect_code 3 "$PERFDELTA" pull --jenkins "$AUTH/$JOB/" "$flag" "$AUTH/x" --retries 0 -o "$TMP/down"
  has "$TMP/err" "^perfdelta: warning: $URL/x was given with its password"
  leaked "$TMP/out" "$TMP/err"
done
expect_code 3 "$PERFDELTA" compare "$AUTH/job/j/1/" "$B" --retries 0 -o "$TMP/down"
leaked "$TMP/out" "$TMP/err" "$TMP/cache"
quit
for db in "2 postgresq://me:$PW@127.0.0.1:1/h" "3 postgresql://me:$PW@127.0.0.1:1/h?connect_timeout=2" \
  "3 postgresql://127.0.0.1:1/h?password=$PW&connect_timeout=2"; do
  expect_code "${db%% *}" timeout 60 "$PERFDELTA" history add "$B" --db "${db#* }"
  has "$TMP/err" "^perfdelta: "
  has "$TMP/err" "^perfdelta: warning: --db postgresq?l?://127\.0\.0\.1:1/h.* was given with its password, which any user of this machine can read in the process list: give it in PGPASSWORD or ~/\.pgpass instead$"
  leaked "$TMP/out" "$TMP/err"
done
finish
