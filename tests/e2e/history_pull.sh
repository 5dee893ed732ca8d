# perfdelta pull --history: the pulled bundle goes into the history store.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pull/lib.sh"
pr=$TMP/perfrunner
mkdir -p "$pr/clusters" "$pr/tests/n1ql/collections"
cp "$F"/perfrunner/*.spec "$pr/clusters/"
cp "$F"/perfrunner/*.test "$pr/tests/n1ql/collections/"
serve fo "$F"
expect_code 0 "$PERFDELTA" pull --jenkins "$URL/$JOB/" --jenkins-api xml --perfdb "$URL" \
  --perfrunner-dir "$pr" -o "$TMP/run" --history --db "sqlite:$TMP/h.sqlite"
has "$TMP/out" '^pulled .*/run: '
has "$TMP/out" '^added iris-multi-client#12520 '
expect_code 0 "$PERFDELTA" history add "$TMP/run" --db "sqlite:$TMP/h.sqlite"
has "$TMP/out" '^already stored iris-multi-client#12520 '
quit
finish
