#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The model's time for each preset's real kernel, now, against the times a
truth table measured (no GPU needed): which presets the model predicts within
the table's time tolerance, which not, and by how much.

    tools/time-against-truth.py [--cli BUILD/app/warpscope-cli] [--only PREFIX] data/truth/nvidia-h200.json
"""
import argparse, json, os, subprocess, sys

ap = argparse.ArgumentParser()
ap.add_argument("truth")
ap.add_argument("--cli", default="_build/app/warpscope-cli")
ap.add_argument("--only", default="")
a = ap.parse_args()
t = json.load(open(a.truth))
device = t.get("profile") or t["device"].lower().replace(" ", "-")
profile = os.path.join(os.path.dirname(os.path.abspath(a.truth)), "..", "devices", device + ".json")
if not os.path.exists(profile):
    profile = device
tol = 0.25
good = n = 0
for r in t["rows"]:
    if r["metric"] != "median time (ms)" or not r["pattern"].startswith(a.only):
        continue
    tol = r.get("tolerance", tol)
    out = subprocess.run([a.cli, "model", "--preset", r["pattern"], "--device", profile, "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print("%-34s %s" % (r["pattern"], out.stderr.strip()))
        continue
    d = json.loads(out.stdout)
    m, h = d["predicted_ms"], r["hardware"]
    ok = abs(m - h) <= tol * h
    n += 1
    good += ok
    print("%-34s model %9.4f  measured %9.4f  %5.2fx  %-3s %s" % (r["pattern"], m, h, m / h, "ok" if ok else "X", d["bound"]))
print("%d of %d within %g %%" % (good, n, tol * 100))
