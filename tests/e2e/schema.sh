# summary.json against docs/summary.schema.json: the demo's and every seed comparison's
# validate; every key they hold is described in the schema; a renamed or removed contract
# key, or a value outside its vocabulary, fails. Needs python3 and python3-jsonschema
# (scripts/deps test installs them).
. "$(dirname "$0")/lib.sh"
schema=$SRC/docs/summary.schema.json
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  fail "python3 with jsonschema is not installed (scripts/deps test installs python3-jsonschema)"
  finish; exit 1
fi

# check.py MODE SCHEMA FILE...: prints one line per error, exits 1 when there is one.
#   valid:  the schema as written (additional keys allowed);
#   strict: every object closed (additionalProperties false): a key the schema does not
#           describe is an error;
#   broken: each file must FAIL after each of a list of renames and bad values.
cat >"$TMP/check.py" <<'EOF'
import copy, json, sys
import jsonschema

mode, schema_path, files = sys.argv[1], sys.argv[2], sys.argv[3:]
schema = json.load(open(schema_path))
V = jsonschema.validators.validator_for(schema)
V.check_schema(schema)

def close(s):
    if isinstance(s, dict):
        if s.get("additionalProperties") is True:
            s["additionalProperties"] = False
        for v in s.values():
            close(v)
    elif isinstance(s, list):
        for v in s:
            close(v)
    return s

def errors(sch, doc):
    return sorted(V(sch).iter_errors(doc), key=lambda e: e.json_path)

def rename(obj, old, new):
    obj[new] = obj.pop(old)

# (what, mutation): each must make a valid summary.json invalid
MUTATIONS = [
    ("top-level verdict renamed", lambda d: rename(d, "verdict", "result")),
    ("findings removed", lambda d: d.pop("findings")),
    ("baseline.nodes renamed", lambda d: rename(d["baseline"], "nodes", "hosts")),
    ("event.t_s renamed", lambda d: rename(d["event"], "t_s", "time_s")),
    ("phases[0].start_s renamed", lambda d: rename(d["phases"][0], "start_s", "start")),
    ("deltas[0].delta_pct renamed", lambda d: rename(d["deltas"][0], "delta_pct", "pct")),
    ("deltas[0].baseline.median renamed",
     lambda d: rename(d["deltas"][0]["baseline"], "median", "med")),
    ("findings[0].kind renamed", lambda d: rename(d["findings"][0], "kind", "type")),
    ("findings[0].kind unknown", lambda d: d["findings"][0].update(kind="metric-drift")),
    ("deltas[0].scope malformed", lambda d: d["deltas"][0].update(scope="role kv")),
    ("verdict unknown", lambda d: d.update(verdict="worse")),
]

bad = 0
for f in files:
    doc = json.load(open(f))
    if mode == "valid":
        for e in errors(schema, doc):
            print(f"{f}: {e.json_path}: {e.message}"); bad += 1
    elif mode == "strict":
        for e in errors(close(copy.deepcopy(schema)), doc):
            print(f"{f}: {e.json_path}: not described in the schema: {e.message}"); bad += 1
    elif mode == "broken":
        for what, mutate in MUTATIONS:
            if not doc.get("findings") and "findings[0]" in what:
                continue
            d = copy.deepcopy(doc)
            mutate(d)
            if not errors(schema, d):
                print(f"{f}: {what}: still valid"); bad += 1
        extra = copy.deepcopy(doc)
        extra["a_key_added_later"] = {"x": 1}
        extra["deltas"][0]["another"] = 2
        for e in errors(schema, extra):
            print(f"{f}: an added key is refused: {e.json_path}: {e.message}"); bad += 1
sys.exit(1 if bad else 0)
EOF

B=$SEED/baseline F=$SEED/failover
expect_code 0 "$PERFDELTA" demo -o "$TMP/demo"
files=("$TMP/demo/summary.json")
# run NAME BASELINE TARGET: a comparison whose summary.json is checked (exit 0, 1 or 4)
run() {
  "$PERFDELTA" compare "$2" "$3" -o "$TMP/r-$1" --quiet >/dev/null 2>"$TMP/err"
  local rc=$?
  case $rc in 0|1|4) ok; files+=("$TMP/r-$1/summary.json") ;;
    *) fail "compare $1 exited $rc: $(head -1 "$TMP/err")" ;; esac
}
for s in baseline-aa failover failover-clean failover-ist failover-late; do run "$s" "$B" "$SEED/$s"; done
run reverse "$F" "$B"                      # the event on the baseline's side
run two-events "$SEED/failover-late" "$F"  # both runs have one
cp -r "$F" "$TMP/other"                     # not comparable: another workload
sed -i 's/^workers = 20$/workers = 40/' "$TMP/other"/perfrunner/*.test
run not-comparable "$B" "$TMP/other"
mkdir "$TMP/bare" && cp -r "$SEED/baseline-aa/perfdb" "$TMP/bare/"   # perfdb only
run bare "$TMP/bare" "$B"
has "$TMP/r-not-comparable/summary.json" '"not_comparable":\["'
has "$TMP/r-bare/summary.json" '"jenkins":null'

for mode in valid strict broken; do
  if python3 "$TMP/check.py" "$mode" "$schema" "${files[@]}" >"$TMP/$mode.txt" 2>&1; then ok
  else fail "schema check '$mode':"; head -20 "$TMP/$mode.txt" >&2; fi
done
# the check itself: a hand-renamed key in a copy is caught
sed 's/"delta_pct":/"delta_percent":/' "$TMP/demo/summary.json" >"$TMP/renamed.json"
if python3 "$TMP/check.py" valid "$schema" "$TMP/renamed.json" >"$TMP/renamed.txt" 2>&1; then
  fail "summary.json with delta_pct renamed passes the schema"
else has "$TMP/renamed.txt" "'delta_pct' is a required property"; fi
echo "schema: ${#files[@]} summary.json files checked"
finish
