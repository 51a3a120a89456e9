#!/usr/bin/python3
"""Fits at most 8 energy coefficients of numagpu's power model to measured average power, as AccelWattch
fits its model to microbenchmarks: non-negative least squares on the relative error, with the training
error and the leave-one-out error reported (docs/power.md, "Calibration").

  fit_energy.py --runs DIR --hw HW_POWER.csv [--fit KEY[,KEY...]] [--scale KEY[,KEY...]]
                [--time simulated|hardware] [--numagpu BIN] [-o FITTED.yaml]
  fit_energy.py --self-test

DIR is the output directory of `numagpu correlate --power HW_POWER.csv -c CONFIG -o DIR`: each kernel's run
is in DIR/power_runs/<row>/out (activity.json, config.yaml). KEYs are energy keys without the `energy.`
prefix (e.g. board.constant_w,sm.resident_w). Every other coefficient keeps the value of the run's
configuration.

--fit KEYS   each key is one fitted coefficient.
--scale KEYS one fitted coefficient: a common factor of the keys' configured values (each key becomes its
             value x the factor). It stands for a number the keys' derivations share, such as the
             technology scaling of per-operation energies, when that number is what is not known.
--time       the time over which each kernel's simulated energy is spread: `simulated` (default: the
             run's own duration, which is what `numagpu correlate --power` reports) or `hardware` (the
             measured elapsed cycles that `correlate --hw HW_PERF.csv --power ...` writes into
             DIR/power_breakdown.csv): static power stays as simulated, the dynamic energy is spread
             over the kernel's measured time. Fitting on the hardware's time keeps the energies from
             absorbing the timing model's errors.

The power model is linear in its coefficients, so the script needs no knowledge of it: for each kernel k,
`numagpu power` prices the activity with the fitted keys at 0 (the fixed part F0[k]) and with one of them at
1 (a --scale group: at its configured values) and the others at 0 (that coefficient's column
A[k][i] = power - F0[k]). The fit then solves
    minimise sum_k ((F0[k] + sum_i A[k][i] c[i] - H[k]) / H[k])^2  subject to c >= 0
(H: measured watts; dividing by H makes it the relative error the mean absolute percentage error reports)
by Lawson and Hanson's active-set method. Leave-one-out: each kernel predicted by a fit of the others.
Nothing kernel-specific is fitted: one set of coefficients for every kernel.
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

MAX_FITTED = 8


def nnls(a, b, tol=1e-10, max_iter=None):
    """Lawson-Hanson non-negative least squares: argmin ||a x - b|| subject to x >= 0."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    m, n = a.shape
    x = np.zeros(n)
    passive = np.zeros(n, dtype=bool)
    max_iter = max_iter or 3 * n + 10
    w = a.T @ (b - a @ x)
    for _ in range(max_iter):
        if passive.all() or (w[~passive] <= tol).all():
            break
        j = int(np.argmax(np.where(passive, -np.inf, w)))
        passive[j] = True
        while True:
            z = np.zeros(n)
            z[passive] = np.linalg.lstsq(a[:, passive], b, rcond=None)[0]
            if (z[passive] > tol).all():
                x = z
                break
            # Step back to the boundary: the first passive coefficient to reach zero leaves the set.
            neg = passive & (z <= tol)
            alpha = np.min(x[neg] / (x[neg] - z[neg]))
            x = x + alpha * (z - x)
            passive &= x > tol
            x[~passive] = 0.0
        w = a.T @ (b - a @ x)
    return x


def fit(fixed, columns, measured):
    """Coefficients c >= 0 minimising the relative error of fixed + columns @ c against measured."""
    h = np.asarray(measured, dtype=float)
    a = np.asarray(columns, dtype=float) / h[:, None]
    b = (h - np.asarray(fixed, dtype=float)) / h
    return nnls(a, b)


def predict(fixed, columns, c):
    return np.asarray(fixed, dtype=float) + np.asarray(columns, dtype=float) @ c


def mape(measured, predicted):
    h = np.asarray(measured, dtype=float)
    return float(np.mean(np.abs(np.asarray(predicted) - h) / h) * 100.0)


def leave_one_out(fixed, columns, measured):
    """Each kernel's prediction by the coefficients fitted to the others."""
    n = len(measured)
    out = np.zeros(n)
    for k in range(n):
        keep = [i for i in range(n) if i != k]
        c = fit([fixed[i] for i in keep], [columns[i] for i in keep], [measured[i] for i in keep])
        out[k] = predict([fixed[k]], [columns[k]], c)[0]
    return out


def read_power_csv(path):
    rows = []
    try:
        with open(path, newline="") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if not header or "mean HW_power" not in header:
                raise InputError("%s:1: expected a header with a 'mean HW_power' column" % path)
            col = header.index("mean HW_power")
            for n, line in enumerate(reader, start=2):
                if not line:
                    continue
                try:
                    watts = float(line[col])
                except (ValueError, IndexError):
                    raise InputError("%s:%d: mean HW_power: expected a number of watts" % (path, n))
                if not watts > 0:
                    raise InputError("%s:%d: mean HW_power: expected a positive number of watts" % (path, n))
                rows.append((line[0], watts))
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror))
    return rows


def priced_energy(numagpu, activity, table, settings):
    """(static J, dynamic J, duration s, clock MHz) of `activity` priced by `table` (a file with an energy:
    section) with `settings` (key -> value) overriding it."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [numagpu, "power", "--activity", activity, "--energy", table, "-o", out]
        for key, value in settings.items():
            cmd += ["--set", "energy.%s=%r" % (key, value)]
        try:
            done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        except OSError as e:
            raise InputError("%s: %s (give the numagpu program with --numagpu)" % (numagpu, e.strerror))
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["exit status %d" % done.returncode])[-1]
            raise InputError("pricing %s: %s" % (activity, last))
        with open(os.path.join(out, "power.json")) as f:
            doc = json.load(f)
    total = doc["total"]
    priced = (total["static_j"], total["dynamic_j"], doc["duration_seconds"], doc["clock_mhz"])
    if not (priced[2] > 0 and priced[3] > 0):
        raise InputError("%s: a run of no simulated time cannot be priced as a power" % activity)
    return priced


def power_over(priced, seconds=None):
    """Average power of a priced run: static power as simulated, the dynamic energy over `seconds` (the
    run's own duration when None)."""
    static_j, dynamic_j, duration_s, _ = priced
    return static_j / duration_s + dynamic_j / (duration_s if seconds is None else seconds)


def hardware_cycles(runs):
    """Row name -> measured elapsed cycles, from DIR/power_breakdown.csv (`correlate --hw ... --power`)."""
    path = os.path.join(runs, "power_breakdown.csv")
    out = {}
    try:
        with open(path, newline="") as f:
            for n, row in enumerate(csv.DictReader(f), start=2):
                if row.get("hardware_cycles"):
                    try:
                        cycles = float(row["hardware_cycles"])
                    except ValueError:
                        cycles = float("nan")
                    if not cycles > 0 or cycles == float("inf"):
                        raise InputError("%s:%d: hardware_cycles: '%s' is not a positive number of cycles"
                                         % (path, n, row["hardware_cycles"]))
                    out[row["kernel"]] = cycles
    except OSError as e:
        raise InputError("%s: %s (--time hardware reads it from `numagpu correlate --hw ... --power ...`)"
                         % (path, e.strerror))
    return out


def energy_table_of_run(run_out, dest):
    """The run's own energy section (its resolved config.yaml) as a table file for `numagpu power`."""
    import yaml  # python3-yaml (scripts/setup.sh)

    path = os.path.join(run_out, "config.yaml")
    try:
        with open(path) as f:
            energy = (yaml.safe_load(f) or {}).get("energy")
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror))
    except yaml.YAMLError as e:
        raise InputError("%s: not YAML (%s)" % (path, str(e).splitlines()[0]))
    if not isinstance(energy, dict):
        raise InputError("%s: no energy section (a numagpu run's resolved configuration has one)" % path)
    with open(dest, "w") as f:
        yaml.safe_dump({"energy": energy}, f)
    return energy


class InputError(Exception):
    """Bad input: reported as one line and exit status 2."""


def lookup(energy, key):
    node = energy
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise InputError("energy.%s: no such energy key (docs/configuration.md, section energy)" % key)
        node = node[part]
    if isinstance(node, bool) or not isinstance(node, (int, float)):
        raise InputError("energy.%s: not a number (a section? name one of its keys)" % key)
    return node


def self_test():
    """Known coefficients recovered from synthetic kernels (tests/integration/fit_energy_test.sh)."""
    rng = np.random.default_rng(7)
    truth = np.array([40.0, 0.0, 0.35, 2.5e-3])  # one true zero: the bound must hold it, not go negative
    columns = rng.uniform(0.5, 3.0, size=(12, truth.size)) * np.array([1.0, 10.0, 80.0, 2e4])
    fixed = rng.uniform(5, 20, size=12)
    measured = predict(fixed, columns, truth)
    c = fit(fixed, columns, measured)
    assert np.allclose(c, truth, rtol=1e-6, atol=1e-9), (c, truth)
    assert mape(measured, predict(fixed, columns, c)) < 1e-6
    assert max(abs(p - m) / m for p, m in zip(leave_one_out(fixed, columns, measured), measured)) < 1e-6
    # With noise the coefficients stay non-negative and the fit is no worse than the truth.
    noisy = measured * rng.uniform(0.95, 1.05, size=measured.size)
    c = fit(fixed, columns, noisy)
    assert (c >= 0).all()
    rel = lambda x: np.sum(((predict(fixed, columns, x) - noisy) / noisy) ** 2)  # noqa: E731
    assert rel(c) <= rel(truth) + 1e-12
    # A problem whose unconstrained optimum is negative: the bound is active, the result is 0.
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    assert np.allclose(nnls(a, np.array([1.0, -1.0, 0.0])), [0.5, 0.0])
    # Pricing over another time: static power stays (2 J over 1 s), the dynamic energy (3 J) is spread over
    # the given 2 s: 2 W + 1.5 W.
    assert power_over((2.0, 3.0, 1.0, 1600.0)) == 5.0
    assert power_over((2.0, 3.0, 1.0, 1600.0), 2.0) == 3.5
    # A --scale group is one column, the group's power at its configured values: a known common factor
    # (2.5) over kernels whose measured time differs from the simulated one is recovered exactly.
    static_w = rng.uniform(40, 80, size=6)
    dynamic_j = rng.uniform(1e-3, 5e-3, size=6)
    sim_s, hw_s = rng.uniform(1e-5, 1e-4, size=6), rng.uniform(1e-5, 1e-4, size=6)
    fixed_hw = [power_over((w * t, 0.0, t, 1600.0), h) for w, t, h in zip(static_w, sim_s, hw_s)]
    column_hw = [[power_over((0.0, d, t, 1600.0), h)] for d, t, h in zip(dynamic_j, sim_s, hw_s)]
    measured_hw = predict(fixed_hw, column_hw, np.array([2.5]))
    assert np.allclose(fit(fixed_hw, column_hw, measured_hw), [2.5], rtol=1e-9)
    print("fit_energy: self-test passed (4 coefficients recovered exactly; bounds hold under noise; a common "
          "factor recovered over the hardware's time)")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", help="output directory of numagpu correlate --power")
    p.add_argument("--hw", help="measured power CSV (rows <app>_k<N>, column 'mean HW_power')")
    p.add_argument("--fit", default="", help="comma-separated energy keys, one fitted coefficient each")
    p.add_argument("--scale", default="", help="comma-separated energy keys sharing one fitted factor")
    p.add_argument("--time", choices=("simulated", "hardware"), default="simulated",
                   help="spread each kernel's dynamic energy over its simulated or its measured time")
    p.add_argument("--numagpu", default="build/numagpu", help="the numagpu program")
    p.add_argument("-o", "--out", help="write the fitted keys as an energy: YAML fragment here")
    p.add_argument("--self-test", action="store_true")
    args = p.parse_args()
    if args.self_test:
        self_test()
        return 0
    if not (args.runs and args.hw and (args.fit or args.scale)):
        p.error("--runs, --hw and --fit or --scale are required (or --self-test)")
    keys = [k.strip() for k in args.fit.split(",") if k.strip()]
    group = [k.strip() for k in args.scale.split(",") if k.strip()]
    if set(keys) & set(group):
        p.error("a key is in both --fit and --scale: %s" % ", ".join(sorted(set(keys) & set(group))))
    n_coefficients = len(keys) + (1 if group else 0)
    if not 1 <= n_coefficients <= MAX_FITTED:
        p.error("between 1 and %d fitted coefficients, got %d" % (MAX_FITTED, n_coefficients))
    measured_cycles = hardware_cycles(args.runs) if args.time == "hardware" else {}

    names, measured, fixed, columns, before, group_values = [], [], [], [], [], None
    fixed_sim, columns_sim = [], []  # the same, over each run's simulated duration
    with tempfile.TemporaryDirectory() as tmp:
        for name, watts in read_power_csv(args.hw):
            run_out = os.path.join(args.runs, "power_runs", name, "out")
            activity = os.path.join(run_out, "activity.json")
            if not os.path.exists(activity):
                print("fit_energy: %s: no run (%s missing): left out" % (name, activity), file=sys.stderr)
                continue
            seconds = None
            if args.time == "hardware":
                if name not in measured_cycles:
                    print("fit_energy: %s: no measured elapsed cycles in %s/power_breakdown.csv (run "
                          "correlate with --hw as well): left out" % (name, args.runs), file=sys.stderr)
                    continue
            table = os.path.join(tmp, name + ".yaml")
            energy = energy_table_of_run(run_out, table)
            for k in keys:
                lookup(energy, k)  # every key named exists, before anything is priced
            values = {k: float(lookup(energy, k)) for k in group}
            if group_values is None:
                group_values = values
            elif values != group_values:
                print("fit_energy: error: the runs' configurations give the --scale keys different values",
                      file=sys.stderr)
                return 2
            zero = {k: 0.0 for k in keys + group}
            f0_priced = priced_energy(args.numagpu, activity, table, zero)
            if args.time == "hardware":
                seconds = measured_cycles[name] / (f0_priced[3] * 1e6)
            f0 = power_over(f0_priced, seconds)
            settings = [dict(zero, **{k: 1.0}) for k in keys]
            if group:
                settings.append(dict(zero, **values))
            priced = [priced_energy(args.numagpu, activity, table, s) for s in settings]
            cols = [power_over(q, seconds) - f0 for q in priced]
            names.append(name)
            measured.append(watts)
            fixed.append(f0)
            columns.append(cols)
            fixed_sim.append(power_over(f0_priced))
            columns_sim.append([power_over(q) - fixed_sim[-1] for q in priced])
            configured = [lookup(energy, k) for k in keys] + ([1.0] if group else [])
            before.append(f0 + sum(c * v for c, v in zip(cols, configured)))
    if len(names) < 2:
        print("fit_energy: error: fewer than two kernels with runs%s"
              % (" and measured elapsed cycles" if args.time == "hardware" else ""), file=sys.stderr)
        return 2
    c = fit(fixed, columns, measured)
    trained = predict(fixed, columns, c)
    loo = leave_one_out(fixed, columns, measured)
    print("fitted (non-negative least squares on the relative error, %d kernels, %s time):"
          % (len(names), args.time))
    fitted = {}
    for k, v in zip(keys, c):
        fitted[k] = v
        print("  energy.%s = %.6g" % (k, v))
    if group:
        factor = c[len(keys)]
        print("  common factor of %s = %.6g" % (", ".join(group), factor))
        for k in group:
            fitted[k] = group_values[k] * factor
            print("    energy.%s = %.6g x %.6g = %.6g" % (k, group_values[k], factor, fitted[k]))
    print("\n| kernel | measured W | before fit W | fitted W | leave-one-out W |")
    print("|---|---|---|---|---|")
    for i, name in enumerate(names):
        print("| %s | %.1f | %.1f | %.1f | %.1f |" % (name, measured[i], before[i], trained[i], loo[i]))
    print("\nmean absolute error: before fit %.1f %%, training %.1f %%, leave-one-out %.1f %%"
          % (mape(measured, before), mape(measured, trained), mape(measured, loo)))
    if args.time == "hardware":
        # What `numagpu correlate --power` will report with these coefficients: the same energies over the
        # simulated time, and each kernel left out of the fit priced over its simulated time.
        n = len(names)
        loo_sim = []
        for k in range(n):
            keep = [i for i in range(n) if i != k]
            ck = fit([fixed[i] for i in keep], [columns[i] for i in keep], [measured[i] for i in keep])
            loo_sim.append(predict([fixed_sim[k]], [columns_sim[k]], ck)[0])
        print("over the simulated time (what correlate --power reports): training %.1f %%, "
              "leave-one-out %.1f %%" % (mape(measured, predict(fixed_sim, columns_sim, c)), mape(measured, loo_sim)))
    if args.out:
        tree = {}
        for k, v in fitted.items():
            node = tree
            parts = k.split(".")
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = float("%.6g" % v)
        import yaml

        tmp_out = args.out + ".tmp"
        with open(tmp_out, "w") as f:
            yaml.safe_dump({"energy": tree}, f, sort_keys=True)
        os.replace(tmp_out, args.out)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except InputError as e:
        print("fit_energy: error: %s" % e, file=sys.stderr)
        sys.exit(2)
