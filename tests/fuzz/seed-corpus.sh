#!/usr/bin/env bash
# Seeds the fuzzers' corpora: BUILD/corpus/<reader>/ gets the fixture files that reader
# reads (fixtures/formats, perfdb, jenkins, console, ini, pathological) and a few files of
# each kind from the generated seed fixture (BUILD/fixtures/seed). Files over 64 KiB are
# left out (the fuzzers run with -max_len=65536). Seeds keep their path in their name;
# running it again refreshes them and keeps what the fuzzers added.
# usage: tests/fuzz/seed-corpus.sh SRC BUILD [OUT]    (OUT: BUILD/corpus unless given)
set -euo pipefail
# a failure names its line (set -e alone ends the script in silence)
trap 'echo "seed-corpus.sh: line $LINENO failed (exit $?)" >&2' ERR
src=$1 build=$2
out=${3:-$build/corpus} seed=$build/fixtures/seed
fx=$src/fixtures
if [ ! -d "$seed" ]; then
  echo "seed-corpus.sh: no seed fixture in $seed (build the 'seed' target first)" >&2
  exit 1
fi

# add READER FILE...: copies each regular file of at most 64 KiB into the corpus
add() {
  local r=$1 f name
  shift
  mkdir -p "$out/$r"
  for f in "$@"; do
    if [ ! -f "$f" ] || [ "$(wc -c <"$f")" -gt 65536 ]; then
      continue
    fi
    name=${f#"$build"/}
    name=${name#"$src"/}
    cp "$f" "$out/$r/${name//\//_}"
  done
}

# some K PATTERN...: the first K files (sorted) of each bundle of the seed fixture that
# match a find -name pattern
some() {
  local k=$1 b
  shift
  for b in "$seed"/*/; do
    find "$b" -type f \( -name "$1" "${@:2}" \) | LC_ALL=C sort | sed -n "1,${k}p"
  done
}

mapfile -t seed_json < <(some 3 '*.json' -path '*/perfdb/*')
mapfile -t seed_data < <(some 3 '*.data' -o -name '*.data.1' -o -name '*.data.n')

add perfdb_json "${seed_json[@]}" "$fx"/pathological/*.json \
  "$fx"/pathological/skeleton/perfdb/*/*.json "$fx"/perfdb/seriesly.json
add seriesly "$fx"/perfdb/seriesly.json "${seed_json[@]:0:3}" "$fx"/pathological/*.json
add perfdb_data "$fx"/perfdb/*.data* "${seed_data[@]}"
add ini "$fx"/ini/* "$fx"/formats/perfrunner/* "$fx"/pathological/*.spec \
  "$fx"/pathological/skeleton/perfrunner/* "$seed"/*/perfrunner/*
add jenkins_json "$fx"/jenkins/*.json "$fx"/formats/jenkins/*.json \
  "$fx"/pathological/build-*.json "$fx"/pathological/skeleton/jenkins/build.json \
  "$seed"/*/jenkins/build.json
add jenkins_xml "$fx"/jenkins/*.xml "$fx"/formats/jenkins/*.xml.txt "$seed"/*/jenkins/build.xml
add console "$fx"/console/* "$fx"/console/perfrunner/*.txt "$fx"/formats/jenkins/*consoleText* "$fx"/pathological/console-* \
  "$fx"/pathological/skeleton/jenkins/consoleText "$seed"/*/jenkins/consoleText \
  "$fx"/console/prometheus/*.txt
add prom "$fx"/prometheus/answers/*.json

# db names: every db of each bundle (one file per bundle, a name a line), a few alone, and
# the names tests/e2e/pathological.sh builds (its db names with tests/fuzz/fuzz_dbname.c's
# snapshots: one that reads two ways, one of a host in no spec)
mkdir -p "$out/dbname"
for b in "$seed"/*/ "$fx"/pathological/skeleton/; do
  name=$(basename "$b")
  find "$b/perfdb" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | LC_ALL=C sort \
    >"$out/dbname/db-$name"
  head -n 3 "$out/dbname/db-$name" | while read -r db; do
    printf '%s' "$db" >"$out/dbname/db-$name-$db"
  done
done
printf '%s' ns_serveriris_710-1345_access_a7b61bucket >"$out/dbname/db-two-ways"
printf '%s' atopiris_710-1345_access_a7b61722310099 >"$out/dbname/db-host-without-spec"
# perfrunner's scopes: index ("bucket.index" stripped), a second cluster's snapshot
printf '%s' secondary_storage_stapsiris_710-1345_access_a7b6bucket-1by_capped_small \
  >"$out/dbname/db-index-typo"
printf '%s' secondary_storage_statsiris_710-1345_access_a7b6bucket-1by_capped_small \
  >"$out/dbname/db-index"
printf '%s' n1ql_statsiris2_710-1345_access_b3c4 >"$out/dbname/db-other-cluster"

# tarballs: small bundles of fixture files as .tar and .tar.gz (a top directory, or none),
# and one of the pathological skeleton
# perfdb's list answers: the seed's databases (GET /) and one database's metrics (GET /DB)
mkdir -p "$out/perfdb_list"
for b in "$seed"/*/; do
  name=$(basename "$b")
  find "$b/perfdb" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | LC_ALL=C sort |
    awk 'BEGIN { printf "[" } { printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 } END { printf "]" }' \
      >"$out/perfdb_list/dbs-$name"
  db=$(find "$b/perfdb" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort | sed -n 1p)
  find "$db" -name '*.json' -printf '%f\n' | sed 's/\.json$//' | LC_ALL=C sort |
    awk 'BEGIN { printf "[" } { printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 } END { printf "]" }' \
      >"$out/perfdb_list/metrics-$name"
done
printf '%s' '["a\u00e9", "b\\u0000", "c"]' >"$out/perfdb_list/escapes"

mkdir -p "$out/tarball"
tb=$(mktemp -d "${TMPDIR:-/tmp}/pd-seed-tarball-XXXXXX")
mkdir -p "$tb/run/perfdb/atopc_1-2_access_abcd10001" "$tb/run/perfrunner" "$tb/run/jenkins"
cp "$fx"/perfdb/seriesly.json "$tb/run/perfdb/atopc_1-2_access_abcd10001/m.json"
cp "$fx"/pathological/one-sample.json "$tb/run/perfdb/atopc_1-2_access_abcd10001/one.json"
cp "$fx"/pathological/skeleton/perfrunner/* "$tb/run/perfrunner/"
cp "$fx"/pathological/skeleton/jenkins/build.json "$tb/run/jenkins/"
tar -cf "$out/tarball/run.tar" -C "$tb" run
tar -czf "$out/tarball/run.tar.gz" -C "$tb" run
tar -czf "$out/tarball/top.tar.gz" -C "$tb/run" .
tar -czf "$out/tarball/skeleton.tar.gz" -C "$fx/pathological" skeleton
rm -rf "$tb"
for f in "$out"/tarball/*; do
  [ "$(wc -c <"$f")" -le 65536 ] || rm -f "$f"
done

# the escapers: strings a bundle can bring into an output (markup of every target, a
# shell quote, control characters, bidirectional formatting, invalid and overlong UTF-8,
# numbers), and a few fixture files whole
mkdir -p "$out/escape"
printf '%s' '<script>alert("x")</script> & '"'"'q'"'"'' >"$out/escape/markup"
printf '%s' '`code` *bold* _em_ |a|b| ~s~ $x$ [l](u) ![i](u) # h > q 1. x \* &amp;' \
  >"$out/escape/md"
printf '%s' '{code} [link|u] *b* _i_ -d- +u+ ^s^ ~s~ ??c?? (x) :) \\ & !i!' >"$out/escape/jira"
printf 'tab\there\nline\rcr\033[31mred\x9b2J\x7f' >"$out/escape/controls"
printf 'a\xe2\x80\xaeevil\xe2\x81\xa6b\xd8\x9c' >"$out/escape/bidi"
printf '\xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82 \xef\xbf\xbe \xef\xbf\xbf \xff' \
  >"$out/escape/utf8"
printf '%s' "/tmp/a b/it's \"q\"/x\\y.svg" >"$out/escape/path"
printf '%s' '0.1' >"$out/escape/num-tenth"
printf '%s' '-1e-320' >"$out/escape/num-subnormal"
printf '%s' '123456789012345678' >"$out/escape/num-big"
printf '%s' '9007199254740993' >"$out/escape/num-2p53"
add escape "$fx"/pathological/skeleton/jenkins/build.json "$fx"/pathological/skeleton/perfrunner/*
