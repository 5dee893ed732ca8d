# Bundles shaped as perfrunner really writes them: an FQDN cluster with a second
# (XDCR) cluster and [clients] hosts, a test with initial_nodes, a dry-run console written
# with perfrunner's logger (fixtures/console/perfrunner/), and one db per kind cbagent
# writes: cluster, bucket, index ("bucket.index"), server, a client host, the other
# cluster's. inspect (text and --json) shows each where it belongs.
. "$(dirname "$0")/lib.sh"

B=$TMP/run
SNAP=iris_710-1345_shutdown_n1ql_8a92
mkdir -p "$B/perfrunner" "$B/jenkins" "$B/perfdb"
cat >"$B/perfrunner/xdcr_fqdn.spec" <<'SPEC'
[clusters]
iris =
    cen-s723.perf.couchbase.com:kv
    cen-s724.perf.couchbase.com:kv,n1ql
    cen-s725.perf.couchbase.com:index
iris2 =
    10.1.0.1:kv

[clients]
hosts =
    172.23.100.44
SPEC
printf '[cluster]\ninitial_nodes = 2 1\n\n[showfast]\ntitle = 99%%%% reads\n' \
  >"$B/perfrunner/t.test"
cp "$SRC/fixtures/console/perfrunner/hard-post0.txt" "$B/jenkins/consoleText"
series() { mkdir -p "$B/perfdb/$1" && echo '[[1793631000000, 1.0], [1793631005000, 2.0]]' >"$B/perfdb/$1/$2.json"; }
S=iris_710-1345_shutdown_n1ql_8a92
series "n1ql_stats$S" query_requests
series "ns_server${S}bucket-1" curr_connections
series "secondary_storage_stats${S}bucket-1by_capped_small" MainStore_items
series "atop${S}cen-s723perfcouchbasecom" memcached_cpu
series "atop${S}cen-s724perfcouchbasecom" memcached_cpu
series "atop${S}1722310044" memcached_cpu
series "n1ql_statsiris2_710-1345_shutdown_n1ql_9b03" query_requests
# the console names only iris's snapshot; iris2's db has its own: kept apart either way
expect_code 0 "$PERFDELTA" inspect "$B"
has "$TMP/out" '^nodes \(2\)$'
has "$TMP/out" '^  kv#1      cen-s723\.perf\.couchbase\.com  kv$'
has "$TMP/out" '^  kv#2      cen-s724\.perf\.couchbase\.com  kv,n1ql$'
has "$TMP/out" '^clients \(1\)$'
has "$TMP/out" '^other clusters of the spec \(1\)$'
has "$TMP/out" 'secondary_storage_stats/MainStore_items  index bucket=bucket-1 index=by_capped_small '
has "$TMP/out" 'atop/memcached_cpu  client client=172\.23\.100\.44 '
has "$TMP/out" 'first 2 of the 3 servers of cluster .iris.'
has "$TMP/out" 'the spec lists 1 more cluster \(iris2\)'
hasnt "$TMP/out" '^undecoded'
has "$TMP/out" '1 perfdb databases of the spec.s other clusters kept apart \(first: n1ql_statsiris2_'
has "$TMP/out" 'avg_query_requests_iris_extra_n1ql = 3525\.0'
expect_code 0 "$PERFDELTA" inspect --json "$B"
python3 - "$TMP/out" <<'PY' && ok || fail "inspect --json: clients, other clusters, index"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["clients"] == ["172.23.100.44"], d["clients"]
assert d["other_clusters"] == ["iris2"]
assert d["spec_name"] == "xdcr_fqdn"
scopes = {(s["collector"], s["scope"], s["index"], s["server"]) for s in d["series"]}
assert ("secondary_storage_stats", "index", "by_capped_small", None) in scopes, scopes
assert ("atop", "client", None, "172.23.100.44") in scopes
assert all("iris2" not in s["db"] for s in d["series"])
assert d["test"]["title"] == "99% reads", d["test"]
PY
finish
