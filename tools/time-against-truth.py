#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The model's time for each preset's real kernel, now, against the times a
truth table or a recording measured (no GPU needed): which the model predicts
within the tolerance (the table's, or 25 %), which not, and by how much. A
recording gives every point of every sweep, with its parameters.

    tools/time-against-truth.py [--cli BUILD/app/warpscope-cli] [--only PREFIX] [--device PROFILE]
                                data/truth/nvidia-h200.json | data/recordings/h200.json
"""
import argparse, json, os, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("table")
ap.add_argument("--cli", default="_build/app/warpscope-cli")
ap.add_argument("--only", default="")
ap.add_argument("--device", default=None, help="a profile's id or file (default: the table's device)")
a = ap.parse_args()
t = json.load(open(a.table))
dev = t["device"]
name = dev.get("name") if isinstance(dev, dict) else dev
profile = a.device
if profile is None:
    slug = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "devices")
    profile = os.path.join(here, slug + ".json")
    if not os.path.exists(profile):
        profile = slug

points = []   # (preset, params, measured ms, tolerance)
if "rows" in t:
    for r in t["rows"]:
        if r["metric"] == "median time (ms)":
            points.append((r["pattern"], {}, r["hardware"], r.get("tolerance", 0.25)))
else:
    for m in t["measurements"]:
        if m.get("median_ms"):
            points.append((m["id"], m.get("params") or {}, m["median_ms"], 0.25))

good = n = 0
for preset, params, h, tol in points:
    if not preset.startswith(a.only):
        continue
    cmd = [a.cli, "model", "--preset", preset, "--device", profile, "--json"]
    for k, v in params.items():
        cmd += ["--set", "%s=%s" % (k, v)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    label = preset + "".join(" %s=%s" % kv for kv in params.items())
    if out.returncode != 0:
        print("%-44s %s" % (label, out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"))
        continue
    d = json.loads(out.stdout)
    m = d["predicted_ms"]
    ok = abs(m - h) <= tol * h
    n += 1
    good += ok
    print("%-44s model %9.4f  measured %9.4f  %5.2fx  %-3s %s" % (label, m, h, m / h, "ok" if ok else "X", d["bound"]))
if not points:
    sys.exit("no times in %s: a table made before the model predicted time has none" % a.table)
print("%d of %d within %g %%" % (good, n, points[0][3] * 100))
