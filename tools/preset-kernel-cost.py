#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a preset's kernel text costs on the GPU against its hand-written
kernel: reads the folder tools/preset-kernel-cost.sh wrote on a GPU machine
and prints, preset by preset, the median time of each (two runs each), the
text's time over the hand-written one's, how far two runs of the same
kernel differ, whether both moved the same bytes and passed their
reference check, and the wall time of each first measurement; then how
many are within 5 %.

  tools/preset-kernel-cost.py DIR [--tsv FILE]
"""
import argparse
import json
import os
import statistics
import sys


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
        m = d["measurements"][0]
        if d.get("not_measured_here"):
            return None
        return m
    except (OSError, ValueError, KeyError, IndexError):
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--tsv", help="also write the table as tab-separated values")
    ap.add_argument("--within", type=float, default=0.05)
    a = ap.parse_args()

    walls = {}
    ids = []
    with open(os.path.join(a.dir, "times.tsv")) as f:
        for line in f:
            p, which, pid, rc, wall = line.rstrip("\n").split("\t")
            walls[(int(p), which, pid)] = (int(rc), float(wall))
            if pid not in ids:
                ids.append(pid)

    rows = []
    for pid in ids:
        stem = pid.replace("/", "-")
        r = {"id": pid}
        for which in ("hand", "text"):
            ms = []
            for p in (1, 2):
                m = load(os.path.join(a.dir, f"{p}-{which}-{stem}.json"))
                ms.append(m)
            r[which] = ms
        rows.append(r)

    out = []
    print(f"{'preset':34} {'hand ms':>9} {'text ms':>9} {'text/hand':>9} {'runs':>6} {'bytes':>6} {'ok':>3} "
          f"{'wall hand':>9} {'wall text':>9}")
    ratios = []
    within = 0
    compared = 0
    for r in rows:
        hands = [m["median_ms"] for m in r["hand"] if m]
        texts = [m["median_ms"] for m in r["text"] if m]
        wh = walls.get((1, "hand", r["id"]), (None, float("nan")))[1]
        wt = walls.get((1, "text", r["id"]), (None, float("nan")))[1]
        if not hands or not texts:
            why = []
            for which in ("hand", "text"):
                rc = walls.get((1, which, r["id"]), (None, 0))[0]
                if not [m for m in r[which] if m]:
                    why.append(f"{which}: no measurement (rc {rc})")
            print(f"{r['id']:34} {'; '.join(why)}")
            out.append([r["id"], "", "", "", "", "", "", f"{wh:.2f}", f"{wt:.2f}", "; ".join(why)])
            continue
        h = statistics.median(hands)
        t = statistics.median(texts)
        ratio = t / h
        spread = 0.0
        for xs in (hands, texts):
            if len(xs) == 2:
                spread = max(spread, abs(xs[0] / xs[1] - 1))
        hb = next(m for m in r["hand"] if m).get("bytes")
        tb = next(m for m in r["text"] if m).get("bytes")
        same_bytes = "same" if hb == tb else "diff"
        ok = all(m.get("verified", False) for m in r["hand"] + r["text"] if m)
        compared += 1
        if abs(ratio - 1) <= a.within:
            within += 1
        ratios.append((ratio, r["id"]))
        print(f"{r['id']:34} {h:9.4f} {t:9.4f} {ratio:9.3f} {spread * 100:5.1f}% {same_bytes:>6} {'yes' if ok else 'NO':>3} "
              f"{wh:9.2f} {wt:9.2f}")
        out.append([r["id"], f"{h:.5f}", f"{t:.5f}", f"{ratio:.4f}", f"{spread:.4f}", same_bytes,
                    "yes" if ok else "no", f"{wh:.2f}", f"{wt:.2f}", ""])

    print()
    print(f"{compared} of {len(rows)} presets measured both ways; {within} within "
          f"{a.within * 100:.0f} % (text against hand-written)")
    if ratios:
        ratios.sort()
        ends = ratios if len(ratios) <= 6 else ratios[:3] + ratios[-3:]
        print("furthest: " + ", ".join(f"{i} {x:.3f}" for x, i in ends))
    wh = [w for (p, which, _), (rc, w) in walls.items() if p == 1 and which == "hand" and rc == 0]
    wt = [w for (p, which, _), (rc, w) in walls.items() if p == 1 and which == "text" and rc == 0]
    if wh and wt:
        print(f"first measurement's wall time, median: hand-written {statistics.median(wh):.2f} s, "
              f"kernel text {statistics.median(wt):.2f} s")
    if a.tsv:
        with open(a.tsv, "w") as f:
            f.write("id\thand_ms\ttext_ms\ttext_over_hand\trun_spread\tbytes\tverified\twall_hand_s\twall_text_s\tnote\n")
            for row in out:
                f.write("\t".join(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
