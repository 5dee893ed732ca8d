"""The outputs of one comparison agree with its summary.json (tests/e2e/outputs_agree.sh).

usage: outputs_agree.py OUT TERMINAL [MIRROR_OUT]
OUT is a compare's output directory, TERMINAL its stdout, MIRROR_OUT the same runs'
comparison the other way round. Every figure the HTML, summary.md, summary.jira,
junit.xml and the terminal state is checked against summary.json, the one the analysis
wrote: the verdict, the counts, each finding's text (its figures), the findings each
short output lists and how many more it says there are, the change each delta's row
states (figure, interval, level, adjusted p, verdict), and the event; and the mirrored
comparison's event is the event of its own phases. No output is compared with a copy.
"""
import html
import json
import re
import sys

fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


def unesc_markup(s):
    """summary.md / summary.jira text back to plain: backslash escapes, Jira's &#92;."""
    return re.sub(r"\\(.)", r"\1", s).replace("&#92;", "\\")


def count_words(n, one):
    return f"{n} {one}" if n == 1 else f"{n} {one}s"


def stated(d):
    """The figure a delta's row states, from summary.json alone (docs/report.md)."""
    if d["delta_pct"] is not None:
        lo, hi = d["ci_pct"]
        return f"{d['delta_pct']:+.1f}%", f"{lo:+.1f}% to {hi:+.1f}%"
    for key, fmt in (("count", "{:+.0f}"), ("abs", "{:+.4g}")):
        if d[key] is not None:
            v, (lo, hi) = d[key]["delta"], d[key]["ci"]
            unit = " events" if key == "count" else ""
            return fmt.format(v) + unit, fmt.format(lo) + " to " + fmt.format(hi)
    return "-", "-"


def listed(lines, pattern):
    """(kind, text) of each listed finding, in order; with a third group, the number the
    output gives it, which must be its place in summary.json's findings (1, 2, ...)."""
    out = []
    for m in (re.match(pattern, l) for l in lines):
        if m:
            check(int(m.group("num")) == len(out) + 1,
                  f"finding {len(out) + 1} numbered {m.group('num')}")
            out.append((m.group("kind"), m.group("text")))
    return out


def check_list(name, items, more, J):
    nf = len(J["findings"])
    check(len(items) + more == nf, f"{name}: lists {len(items)} findings and says {more} "
          f"more, summary.json has {nf}")
    for i, (kind, text) in enumerate(items):
        f = J["findings"][i]
        check(kind == f["kind"] and text == f["text"],
              f"{name}: finding {i + 1} is [{kind}] {text[:80]!r}, summary.json's "
              f"[{f['kind']}] {f['text'][:80]!r}")
    return len(items)


def check_terminal(term, J):
    v, nd, nf = J["verdict"], len(J["deltas"]), len(J["findings"])
    head = f"verdict: {v} ({count_words(nd, 'delta')}, {count_words(nf, 'finding')};"
    check(term.startswith(head), f"terminal: first line is not {head!r}")
    lines = term.splitlines()
    items = listed(lines, r"^  (?P<num>\d+)\. \[(?P<kind>[a-z-]+)\] (?P<text>.*)$")
    m = re.search(r"^  \.\.\. (\d+) more in the report$", term, re.M)
    return check_list("terminal", items, int(m.group(1)) if m else 0, J)


def check_markup(name, text, J, bold, item, table_row):
    v, nd, nf = J["verdict"], len(J["deltas"]), len(J["findings"])
    check(f"Verdict: {bold}{v}{bold} (threshold {J['threshold_pct']:.1f}%, "
          f"{count_words(nd, 'delta')};" in text, f"{name}: the verdict line")
    check(f"{bold}Findings{bold} ({nf}, most important first)" in text,
          f"{name}: the findings' count")
    items = [(k, unesc_markup(t)) for k, t in listed(text.splitlines(), item)]
    m = re.search(r"^(\d+) more in the report", text, re.M)
    n = check_list(name, items, int(m.group(1)) if m else 0, J)
    check_event_line(name, unesc_markup(text), J, bold)
    deltas = {(d["metric"], d["scope"], d["phase"]): d for d in J["deltas"]}
    rows = 0
    heads = sum(1 for d in J["deltas"] if d["headline"])
    for line in text.splitlines():
        r = re.match(table_row, line)
        if not r or r.group(1) == "metric":  # the header
            continue
        rows += 1
        key = tuple(unesc_markup(x).strip() for x in r.group(1, 2, 3))
        d = deltas.get(key)
        check(d is not None, f"{name}: a table row for {key}, not in summary.json")
        if d:
            change = unesc_markup(r.group(4)).strip()
            check(change == f"{stated(d)[0]} ({d['verdict']})",
                  f"{name}: {key} states {change!r}, summary.json {stated(d)[0]} "
                  f"({d['verdict']})")
            check(d["headline"], f"{name}: lists {key}, not a headline in summary.json")
    check(rows == heads, f"{name}: {rows} table rows, summary.json {heads} headline deltas")
    return n, rows


def check_event_line(name, text, J, bold):
    e = J["event"]
    if e["kind"] == "none":
        check(f"{bold}Event{bold}:" not in text, f"{name}: states an event, summary.json none")
        return
    node = e["node"] if e["node"] is not None else "an unknown node"
    line = f"{bold}Event{bold}: {e['kind']} of {node} at {e['t_s']:.1f} s"
    check(line in text, f"{name}: lacks {line!r}")


def check_notes(term, md, jira, J):
    """Every run's notes and undecoded parts in summary.json are said, as they are, by
    summary.md, summary.jira (after their run's line) and the terminal."""
    runs = [("Baseline" if j == 0 else f"Baseline {j + 1}",
             "baseline" if j == 0 else f"baseline {j + 1}", r)
            for j, r in enumerate(J["baselines"])] + [("Target", "target", J["target"])]
    said = 0
    for label, who, run in runs:
        for key, word in (("notes", "note"), ("undecoded", "undecoded")):
            for note in run[key]:
                said += 1
                check(f"note ({who}): {note}\n".replace("note", word, 1) in term,
                      f"terminal: lacks the {word} of the {who}: {note[:60]!r}")
                for name, text, bold in (("summary.md", md, "**"), ("summary.jira", jira, "*")):
                    line = f"{bold}{label} {word}{bold}: {note}"
                    check(line in unesc_markup(text).splitlines(),
                          f"{name}: lacks {line[:80]!r}")
    n = sum(len(r["notes"]) + len(r["undecoded"]) for _, _, r in runs)
    check(said == n, "notes counted")
    for text, name in ((term, "terminal"), (md, "summary.md"), (jira, "summary.jira")):
        got = len(re.findall(r"^(?:note|undecoded) \(|^\**(?:Baseline|Target)( \d+)? "
                             r"(?:note|undecoded)\**:", text, re.M))
        check(got == n, f"{name}: {got} run notes, summary.json {n}")
    return n


def check_html(page, J):
    v, nd, nf = J["verdict"], len(J["deltas"]), len(J["findings"])
    check(f'<span class="verdict v-{v}">{v}</span>{count_words(nf, "finding")}, '
          f"{nd} deltas compared;" in page, "html: the verdict and counts in the header")
    check(J["inference"]["method"] in html.unescape(page), "html: the method")
    for i, f in enumerate(J["findings"]):
        m = re.search(rf'<div class="card" id="finding-{i + 1}"><p><b>{i + 1}\.</b> '
                      r'<span class="kind">([a-z-]+)</span>(.*?)</p>', page)
        check(m and m.group(1) == f["kind"] and html.unescape(m.group(2)) == f["text"],
              f"html: finding {i + 1} differs from summary.json's")
    check(f'id="finding-{nf + 1}"' not in page, "html: more findings than summary.json")
    deltas = {(d["metric"], d["scope"], d["phase"]): d for d in J["deltas"]}
    row = re.compile(r'<tr><td>([^<]*)</td><td class="scope">([^<]*)<br>.*?</td>'
                     r'<td>([a-z]+)</td><td class="n">[^<]*</td><td class="n">[^<]*</td>'
                     r'<td class="n[^"]*">([^<]*)</td><td class="n">([^<]*)</td>'
                     r'<td class="n">([^<]*)</td><td><span class="verdict v-([a-z-]+)')
    seen = 0
    for m in row.finditer(page):
        seen += 1
        key = tuple(html.unescape(x) for x in m.group(1, 2, 3))
        d = deltas.get(key)
        want = stated(d) + (f"{d['p_adj']:.2g}", d["verdict"]) if d else None
        got = tuple(html.unescape(x) for x in m.group(4, 5, 6, 7))
        check(d is not None and got == want, f"html: row {key} states {got}, "
              f"summary.json {want}")
    check(seen == nd, f"html: {seen} delta rows, summary.json {nd} deltas")
    m = re.search(r"the short summaries \(summary.md, summary.jira, the terminal\) list the "
                  r"first (\d+) and say (\d+) more", page)
    return int(m.group(1)) if m else nf


def ms(v):
    """A latency as the page writes it (core/model.c pd_unit_add, ms)."""
    return f"{v:.2f} ms" if abs(v) < 100 else f"{v:.0f} ms"


def check_html_latency(page, J):
    """Each metric's percentile table states each phase's samples and each percentile as
    summary.json's latency_percentiles does: baseline -> target (change), or the status
    of a side without a number."""
    page = html.unescape(page)
    for e in J.get("latency_percentiles", []):
        m = re.search(rf'<div class="metric" id="latency-{re.escape(e["metric"])}">(.*?)</table>',
                      page, re.S)
        check(m is not None, f"html: no percentile table of {e['metric']}")
        if not m:
            continue
        table = m.group(1)
        check(f"<th>{e['phase']} <span class=\"agg\">({e['baseline_n']} → {e['target_n']} "
              f"samples)</span></th>" in table, f"html: {e['metric']} {e['phase']}'s samples")
        for pt in e["points"]:
            cell = " → ".join(ms(pt[w + "_ms"]) if pt[w + "_status"] == "ok" else pt[w + "_status"]
                              for w in ("baseline", "target"))
            if pt["change_pct"] is not None:
                cell += f" <span class=\"{'up' if pt['change_pct'] > 0 else 'down'}\">" \
                        f"({pt['change_pct']:+.1f}%)</span>"
            check(f"<td>{cell}</td>" in table,
                  f"html: {e['metric']} {e['phase']} p{pt['p']:g} does not state {cell}")


def check_junit(xml, J):
    """One testcase per question: each delta by metric, scope and phase (its line, or the
    text of the failing finding that states it), each finding on its delta's testcase or
    on one of its own, the runs' comparability."""
    cases = {}
    for m in re.finditer(r'<testcase classname="([^"]*)" name="([^"]*)"><(failure|error|'
                         r'system-out)(?: type="[^"]*" message="([^"]*)")?>([^\n]*)', xml):
        cases[html.unescape(m.group(2))] = (m.group(1), m.group(3), html.unescape(m.group(5)))
    named = {}
    for d in J["deltas"]:
        # the testcase names a node by its role label (case_scope), the findings by scope
        key = f"{d['metric']} {d['case_scope']} {d['phase']}"
        named[f"{d['metric']} {d['scope']} {d['phase']}"] = d
        c = cases.get(key)
        check(c is not None and c[0] == "perfdelta." + d["metric"].split("/")[0],
              f"junit: no testcase {key!r}")
        if not c:
            continue
        fig, ci = stated(d)
        mean = "" if d["delta_pct"] is None and d["count"] is not None else "mean "
        said = f"{d['metric']} {d['scope']} {d['phase']}"  # the line names the node itself
        want = (f"{said}: {mean}{fig} ({100 * d['level']:.4g}% CI {ci}, adjusted ")
        if fig == "-":
            want = f"{said}: no estimate (, adjusted "
        texts = [f["text"] for f in J["findings"]
                 if (f["metric"], f["scope"], f["phase"]) == (d["metric"], d["scope"], d["phase"])]
        check((c[2].startswith(want) and f"): {d['verdict']}" in c[2]) or c[2] in texts,
              f"junit: {c[2][:120]!r} against {want!r}")
    for i, f in enumerate(J["findings"]):
        key = f"{f['metric']} {f['scope']} {f['phase']}"
        if f["kind"] == "not-comparable":
            c = cases.get("the runs are comparable")
            check(c is not None and c[1] == "error", "junit: not comparable, no error")
        elif key not in named:
            # its own testcase, or the details of the question it answers
            c = cases.get(key)
            asked = [q for q in J["questions"] if i + 1 in q["findings"]]
            check((c is not None and c[0] == "perfdelta.findings" and c[2] == f["text"]) or
                  (asked and f["text"] in html.unescape(xml)),
                  f"junit: finding {i + 1} ({key}) has no testcase of its own nor its question's")


def check_event(J, mirror):
    e, phases = J["event"], {p["name"]: p for p in J["phases"]}
    if e["kind"] == "none":
        check(set(phases) == {"whole"} and e["t_s"] is None, "event: none, yet phases")
    else:
        check("transient" in phases and phases["transient"]["start_s"] == e["t_s"] and
              phases["pre"]["end_s"] == e["t_s"],
              f"event: at {e['t_s']} s, the phases cut at {phases.get('transient')}")
    if mirror:
        m = mirror["event"]
        check((m["kind"], m["node"]) == (e["kind"], e["node"]),
              f"the mirrored comparison's event is {m['kind']} of {m['node']}, this "
              f"one's {e['kind']} of {e['node']}")
        if e["kind"] != "none":
            check({e.get("run"), m.get("run")} == {"target", "baseline"} or e.get("run") == m.get("run") ==
                  "target", f"event: held by the {e.get('run')} both ways round")


def check_pre_agreement(J):
    """A finding that says the runs agreed before the event has a pre row the Changes
    table calls same: one answer for one fact (the pre delta's verdict)."""
    pre = {(d["metric"], d["scope"]): d["verdict"] for d in J["deltas"] if d["phase"] == "pre"}
    for f in J["findings"]:
        if "before the event the runs agreed" in f["text"] or \
                "where the runs had agreed before it" in (f.get("words") or ""):
            v = pre.get((f["metric"], f["scope"]))
            check(v == "same", f"finding {f['metric']} on {f['scope']} says the runs agreed "
                  f"before the event; its pre row is {v}")


def check_margin(J, page):
    """A finding's interval names the margin it was widened by as its delta's
    margin_pct and margin_source do; the Changes table states each delta's pre-event run
    offset (run_offset_pct) once, with its value."""
    deltas = {(d["metric"], d["scope"], d["phase"]): d for d in J["deltas"]}
    words = {"kind-default": "of one baseline)", "history": "of this metric's history)",
             "run-noise": "of one baseline, half this metric's own sd over the baseline run)",
             "pre-event-offset": "that the runs' own {off:+.1f}% difference before the "
                                 "event sets, one baseline)"}
    for f in J["findings"]:
        m = re.search(r"widened by the ([0-9.]+)% run-to-run margin (.*?\))", f["text"])
        d = deltas.get((f["metric"], f["scope"], f["phase"]))
        if not m or not d:
            continue
        want = (f"{d['margin_pct']:.1f}",
                words.get(d["margin_source"], "?").format(off=d["run_offset_pct"] or 0))
        check(m.group(1, 2) == want, f"finding {f['metric']} on {f['scope']} says a "
              f"margin {m.group(1, 2)}; its delta {want}")
    got = sorted(re.findall(r'<span class="agg">the runs differed ([-+0-9.]+)% before the '
                            r"event</span>", page))
    want = sorted(f"{d['run_offset_pct']:+.1f}" for d in J["deltas"]
                  if d["run_offset_pct"] is not None)
    check(got == want, f"html: {len(got)} pre-event run offsets stated, summary.json "
          f"{len(want)}")


ROLE = {"kv": "kv", "query": "n1ql", "n1ql": "n1ql", "index": "index", "fts": "fts",
        "eventing": "eventing", "cbas": "cbas", "analytics": "cbas", "backup": "backup"}


def check_words(J, page, term, xml):
    """A question says the runs agree only where every judged delta it covers (its role's or
    the cluster's top-level deltas) is the same; every output states that answer; a failing
    finding's delta regresses (one judge), and every failing delta testcase is a regression
    of its own or a failing finding's."""
    for q in J["questions"]:
        if q["kind"] == "role-change":
            want = "role:" + ROLE.get(q["role"], q["role"])
            cover = [d for d in J["deltas"] if d["scope"] == want and d["gates"]]
        elif q["kind"] == "cluster-change":
            cover = [d for d in J["deltas"] if d["scope"] in ("cluster", "survivors") and d["gates"]]
        else:
            continue
        if "agree within the threshold" in q["answer"]:
            bad = [d for d in cover if d["verdict"] != "same"]
            check(not bad, f"question {q['kind']} {q.get('role')}: says the runs agree over "
                  f"{len(bad)} deltas that are not the same")
        check(html.escape(q["words"], quote=False)[:80] in page or q["words"][:80] in page,
              f"html: question {q['kind']} {q.get('role')} does not say {q['words'][:60]!r}")
    # one owner of a run's build and snapshot: the Runs table states summary.json's, of
    # every baseline and the target
    heads = "".join(f"<th>baseline{'' if j == 0 else f' {j + 1}'}</th>"
                    for j in range(len(J["baselines"])))
    check(f"<tr><th></th>{heads}<th>target</th></tr>" in page,
          f"html: the Runs table's columns are not the {len(J['baselines'])} baselines and the target")
    for key in ("build", "snapshot"):
        want = [b[key] for b in J["baselines"]] + [J["target"][key]]
        if all(w is not None for w in want):
            cells = "".join(f"<td>{html.escape(w, quote=False)}</td>" for w in want)
            check(f">{key}</td>{cells}" in page, f"html: the Runs table's {key} is not {want}")
    for f in J["findings"]:
        if f["kind"] in ("metric-shift", "post-event-mismatch") and "twins disagree" not in f["text"]:
            d = [d for d in J["deltas"] if (d["metric"], d["scope"], d["phase"]) ==
                 (f["metric"], f["scope"], f["phase"])]
            check(d and ((f["direction"] == "up") == (d[0]["delta_pct"] is None or d[0]["delta_pct"] > 0)),
                  f"finding {f['kind']} {f['metric']} {f['scope']}: its direction is not its delta's")


def check_judged(J, page, term, md, jira):
    """One sentence of how a change was judged (summary.json's inference.judged), stated
    by the HTML, summary.md, summary.jira and the terminal as it is."""
    want = J["inference"].get("judged")
    check(bool(want) and f"{J['threshold_pct']:.1f}%" in want,
          f"summary.json: inference.judged {want!r} lacks the threshold")
    if not want:
        return
    check(want in html.unescape(page), "html: lacks inference.judged")
    check(f"judged: {want} (" in term, "terminal: lacks inference.judged")
    for name, text in (("summary.md", md), ("summary.jira", jira)):
        check(f"How the changes were judged: {want};" in unesc_markup(text),
              f"{name}: lacks inference.judged")


def main():
    out, term = sys.argv[1], open(sys.argv[2]).read()
    J = json.load(open(f"{out}/summary.json"))
    mirror = json.load(open(f"{sys.argv[3]}/summary.json")) if len(sys.argv) > 3 else None
    n_term = check_terminal(term, J)
    n_md, rows_md = check_markup("summary.md", open(f"{out}/summary.md").read(), J, "**",
                                 r"^(?P<num>\d+)\. `(?P<kind>[a-z-]+)` (?P<text>.*)$",
                                 r"^\| (.*?) \| (.*?) \| (.*?) \| .*? \| (.*) \|$")
    n_jira, rows_jira = check_markup("summary.jira", open(f"{out}/summary.jira").read(), J,
                                     "*", r"^(?P<num>\d+)\. \{\{(?P<kind>[a-z-]+)\}\} (?P<text>.*)$",
                                     r"^\| (.*?) \| (.*?) \| (.*?) \| .*? \| (.*) \|$")
    n_html = check_html(open(f"{out}/index.html").read(), J)
    check_html_latency(open(f"{out}/index.html").read(), J)
    check(n_term == n_md == n_jira == n_html, f"the short outputs list {n_term} (terminal), "
          f"{n_md} (md), {n_jira} (jira) findings; the HTML says {n_html}")
    check(rows_md == rows_jira, f"summary.md's table has {rows_md} rows, jira's {rows_jira}")
    check_junit(open(f"{out}/junit.xml").read(), J)
    check_event(J, mirror)
    check_pre_agreement(J)
    check_margin(J, open(f"{out}/index.html").read())
    check_words(J, open(f"{out}/index.html").read(), term, open(f"{out}/junit.xml").read())
    check_judged(J, open(f"{out}/index.html").read(), term, open(f"{out}/summary.md").read(),
                 open(f"{out}/summary.jira").read())
    n_notes = check_notes(term, open(f"{out}/summary.md").read(),
                          open(f"{out}/summary.jira").read(), J)
    for f in fails:
        print(f"FAIL {out}: {f}", file=sys.stderr)
    print(f"{out}: {len(J['deltas'])} deltas, {len(J['findings'])} findings, "
          f"{n_term} listed, {rows_md} table rows, {n_notes} run notes, "
          f"event {J['event']['kind']}: "
          f"{len(fails)} disagreements")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
