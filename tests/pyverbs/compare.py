#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Judge the plug-in by rdma-core's Python test suite: compare each test's
result on the stock provider with its result on the plug-in, per device,
from the guest's results.tsv (tests/pyverbs/kt_pyverbs.sh).

    compare.py [--kernel VERSION] [--table OUT.md] [--expected LIST.tsv] RESULTS.tsv

Prints the counts per device and provider, every test that is worse on the
plug-in (passed on stock, did not pass on the plug-in, nor when it ran again
alone: the "uvio-retry" lines, while stock passed every time it ran again:
the "stock-retry" lines), and every test that is better; writes the whole
per-test table as Markdown with --table. --expected names, one a line
("TEST_ID<tab>REASON", as tests/pyverbs/expected-mlx5.tsv), the tests that
cannot pass on the plug-in because they need the stock provider itself
(its direct-verbs library: mlx5dv, DEVX): those, by their exact id and
nothing else, are not counted when worse, and are printed with the reason;
a listed test that was not worse this time is printed too. Exits 1
when any other test is worse, or when a device has no results from both
providers; 0 otherwise.
"""
import argparse
import collections
import sys

PASSED = ("ok", "xfail")
# Lines about a module as a whole (its process killed, dead, or not served
# by the plug-in): they void every result of that module on that run.
MODULE_LINES = ("timeout", "crash", "not-served")


def load(path):
    runs = collections.defaultdict(dict)   # (dev, prov) -> {test: (res, why)}
    # (dev, prov) -> {test: [res, ...]}: every result of the runs again
    retries = collections.defaultdict(lambda: collections.defaultdict(list))
    voided = collections.defaultdict(dict)  # (dev, prov) -> {module: (res, why)}
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                sys.exit("compare.py: %s:%d: not DEVICE PROVIDER TEST RESULT [REASON]" % (path, n))
            dev, prov, test, res = parts[:4]
            why = parts[4] if len(parts) > 4 else ""
            if res in MODULE_LINES:
                voided[(dev, prov)][test] = (res, why)
            else:
                runs[(dev, prov)][test] = (res, why)
                retries[(dev, prov)][test].append(res)
    return runs, voided, retries


def load_expected(path):
    """{test id: reason} from a list of tests that need the stock provider."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[0].startswith("tests.") or not parts[1].strip():
                sys.exit("compare.py: %s:%d: not TEST_ID<tab>REASON" % (path, n))
            if parts[0] in out:
                sys.exit("compare.py: %s:%d: %s listed twice" % (path, n, parts[0]))
            out[parts[0]] = parts[1].strip()
    return out


def module_of(test):
    # tests.test_qp.QPTest.test_x -> tests.test_qp
    return ".".join(test.split(".")[:2])


def result(runs, voided, dev, prov, test):
    v = voided[(dev, prov)].get(module_of(test))
    if v:
        return v
    return runs[(dev, prov)].get(test, ("missing", "no result reported"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", default="")
    ap.add_argument("--table")
    ap.add_argument("--expected")
    ap.add_argument("results")
    a = ap.parse_args()
    runs, voided, retries = load(a.results)
    expected = load_expected(a.expected) if a.expected else {}
    devs = sorted({d for d, _ in list(runs) + list(voided)})
    bad = 0
    md = ["# rdma-core's tests: stock provider and plug-in%s" %
          (" on " + a.kernel if a.kernel else ""), ""]
    for dev in devs:
        if not runs[(dev, "stock")] or not (runs[(dev, "uvio")] or voided[(dev, "uvio")]):
            print("compare: FAIL: %s: no results from both providers" % dev)
            bad = 1
            continue
        tests = sorted(set(runs[(dev, "stock")]) | set(runs[(dev, "uvio")]))
        counts = {}
        for prov in ("stock", "uvio"):
            c = collections.Counter(result(runs, voided, dev, prov, t)[0] for t in tests)
            counts[prov] = ", ".join("%d %s" % (c[k], k) for k in sorted(c))
        worse = [t for t in tests if result(runs, voided, dev, "stock", t)[0] in PASSED and
                 result(runs, voided, dev, "uvio", t)[0] not in PASSED]
        # Passed when run again alone (kt_pyverbs.sh's retry): not worse,
        # but named.
        again = [t for t in worse if any(r in PASSED for r in retries[(dev, "uvio-retry")][t])]
        # Failed on stock too when run again: the device's race, not the
        # plug-in's difference; named.
        racy = [t for t in worse if t not in again and
                any(r not in PASSED for r in retries[(dev, "stock-retry")][t])]
        worse = [t for t in worse if t not in again and t not in racy]
        # Listed: they need the stock provider's own library.
        needs = [t for t in worse if t in expected]
        worse = [t for t in worse if t not in expected]
        listed_not_worse = sorted(t for t in expected if t not in needs)
        better = [t for t in tests if result(runs, voided, dev, "stock", t)[0] not in PASSED and
                  result(runs, voided, dev, "uvio", t)[0] in PASSED]
        print("compare: %s: %d tests; stock: %s; plug-in: %s" %
              (dev, len(tests), counts["stock"], counts["uvio"]))
        for t in worse:
            r = result(runs, voided, dev, "uvio", t)
            print("compare: WORSE on the plug-in: %s %s: %s %s" % (dev, t, r[0], r[1]))
        for t in again:
            r = result(runs, voided, dev, "uvio", t)
            print("compare: passed on the plug-in only when run again: %s %s (first: %s %s)" %
                  (dev, t, r[0], r[1]))
        for t in racy:
            print("compare: failed on stock too when run again, not counted against the "
                  "plug-in: %s %s (plug-in: %s; stock again: %s)" %
                  (dev, t, ", ".join([result(runs, voided, dev, "uvio", t)[0]] +
                                     retries[(dev, "uvio-retry")][t]),
                   ", ".join(retries[(dev, "stock-retry")][t])))
        for t in needs:
            r = result(runs, voided, dev, "uvio", t)
            print("compare: needs the stock provider, listed: %s %s: %s (%s)" %
                  (dev, t, expected[t], r[0]))
        for t in listed_not_worse:
            print("compare: listed as needing the stock provider, not worse this run: %s %s "
                  "(stock: %s, plug-in: %s)" %
                  (dev, t, result(runs, voided, dev, "stock", t)[0],
                   result(runs, voided, dev, "uvio", t)[0]))
        for t in better:
            r = result(runs, voided, dev, "stock", t)
            print("compare: better on the plug-in: %s %s (stock: %s %s)" % (dev, t, r[0], r[1]))
        for (d, p), mods in sorted(voided.items()):
            if d == dev:
                for m, (res, why) in sorted(mods.items()):
                    print("compare: %s %s %s: %s (%s)" % (dev, p, m, res, why))
        bad |= bool(worse)
        md += ["## %s" % dev, "",
               "stock: %s; plug-in: %s; worse on the plug-in: %d, better: %d%s." %
               (counts["stock"], counts["uvio"], len(worse), len(better),
                ", needing the stock provider (listed): %d" % len(needs) if expected else ""), "",
               "| test | stock | plug-in | reason (skip or failure) |",
               "|---|---|---|---|"]
        for t in tests:
            s, u = result(runs, voided, dev, "stock", t), result(runs, voided, dev, "uvio", t)
            why = u[1] if u[0] not in PASSED else s[1]
            if t in needs:
                why = "needs the stock provider: " + expected[t]
            md.append("| %s | %s | %s | %s |" % (t.replace("tests.", "", 1), s[0], u[0],
                                                 why.replace("|", "/")))
        md.append("")
    if not devs:
        print("compare: FAIL: no results")
        bad = 1
    if a.table:
        with open(a.table, "w", encoding="utf-8") as f:
            f.write("\n".join(md) + "\n")
    print("compare: %s" % ("FAIL: a test passes on stock but not on the plug-in" if bad else
                           "PASS: nothing worse on the plug-in than on stock"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
