"""The policy blocks' RTL at any parameter set, behind the reference models' interface.

``LinkBalancerRtl(lanes=8, sample_cycles=100, ...)`` Verilates rtl/link_balancer.sv with these parameters
(``-G``, the RTL's assertions on), compiles it with rtl_capi.cpp into a shared library and loads it with
ctypes; the same parameters give the same library, kept in a cache folder, so only the first construction of
a parameter set pays the build (about 10-20 s of one core; ccache makes a rebuild fast). The keyword
arguments are the reference model's (``LinkBalancer``/``PartitionController``), checked by constructing one
first, so a value out of range is a ValueError naming it before Verilator runs. ``outputs()`` and ``step()``
return the reference's ``Outputs`` type, so ``rtl.outputs() == ref.outputs()`` compares every output.

Needs Verilator (``verilator`` on PATH, or $VERILATOR) and a C++ compiler at run time; the reference models do
not. Cache: $NUMAGPU_RTL_CACHE, else $XDG_CACHE_HOME/numagpu/rtl (~/.cache/numagpu/rtl). Sources: the RTL
installed with this package (its rtl/ folder), or $NUMAGPU_RTL (the folder of rtl/link_balancer.f).
"""

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import _reference

_PACKAGE_DIR = Path(__file__).resolve().parent


def _rtl_dir():
    env = os.environ.get("NUMAGPU_RTL")
    path = Path(env) if env else _PACKAGE_DIR / "rtl"
    if not (path / "link_balancer.sv").is_file():
        raise FileNotFoundError(
            f"numagpu_policy: no RTL in {path} (set NUMAGPU_RTL to the folder of link_balancer.sv)")
    return path


def _cache_dir():
    env = os.environ.get("NUMAGPU_RTL_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "numagpu" / "rtl"


def _verilator():
    exe = os.environ.get("VERILATOR") or shutil.which("verilator")
    if not exe:
        raise RuntimeError("numagpu_policy: the RTL classes need Verilator (verilator not on PATH, $VERILATOR unset)")
    return exe


def _build(top, gparams, inputs, outputs):
    """Returns the path of the shared library of `top` at `gparams`, building it when not cached."""
    rtl = _rtl_dir()
    sources = sorted((rtl / "prim").glob("*.sv")) + [rtl / f"{top}.sv"]
    capi = _PACKAGE_DIR / "rtl_capi.cpp"
    dut_header = _PACKAGE_DIR / "verilated_dut.hpp"
    verilator = _verilator()
    version = subprocess.run([verilator, "--version"], capture_output=True, text=True, check=True).stdout
    key = hashlib.sha256()
    for part in [top, repr(sorted(gparams.items())), repr(inputs), repr(outputs), version]:
        key.update(part.encode())
    for f in sources + [rtl / "numagpu_assert.svh", capi, dut_header]:
        key.update(f.read_bytes())
    name = "_".join([top] + [f"{k}{v}" for k, v in gparams.items()])
    target = _cache_dir() / f"{name}-{key.hexdigest()[:16]}" / f"lib{top}.so"
    if target.is_file():
        return target

    target.parent.parent.mkdir(parents=True, exist_ok=True)
    # Built in a scratch folder next to the cache entry and renamed into place: concurrent constructions of the
    # same parameter set (several test processes) never see a half-written library.
    work = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=target.parent.parent))
    try:
        ports = (f"#define NUMAGPU_RTL_MODEL V{top}\n"
                 f'#include "V{top}.h"\n'
                 f"#define NUMAGPU_RTL_INPUTS(X) {' '.join(f'X({p})' for p in inputs)}\n"
                 f"#define NUMAGPU_RTL_OUTPUTS(X) {' '.join(f'X({p})' for p in outputs)}\n")
        (work / "numagpu_rtl_ports.h").write_text(ports)
        cmd = [verilator, "--cc", "--exe", "--build", "-j", "1", "-Wall", "--assert", "+define+NUMAGPU_ASSERTIONS",
               "--trace", f"-I{rtl}", "--top-module", top, "--Mdir", str(work / "obj"), "-o", f"lib{top}.so",
               "-CFLAGS", f"-fPIC -I{work} -I{_PACKAGE_DIR}", "-LDFLAGS", "-shared -Wl,-Bsymbolic"]
        cmd += [f"-G{k}={v}" for k, v in gparams.items()]
        cmd += [str(s) for s in sources] + [str(capi)]
        env = dict(os.environ)
        ccache = shutil.which("ccache")
        if ccache:
            env["OBJCACHE"] = ccache
        run = subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"numagpu_policy: building {top} with {gparams} failed:\n{run.stdout}{run.stderr}")
        built = work / "obj" / f"lib{top}.so"
        final = Path(tempfile.mkdtemp(prefix=f".{name}-lib-", dir=target.parent.parent))
        shutil.copy2(built, final / target.name)
        try:
            os.rename(final, target.parent)
        except OSError:  # another process finished the same build first
            shutil.rmtree(final, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


class _RtlBlock:
    """One Verilated block: reset(), step(**inputs), outputs(), open_vcd(path), close_vcd()."""

    _TOP = ""
    _INPUTS = ()  # (keyword, port)
    _OUTPUTS = ()  # (field, port)
    _REFERENCE = None

    def __init__(self, rtl_params, **params):
        self._reference_params = dict(params)
        self._REFERENCE(**params)  # ValueError naming a parameter out of range, before Verilator runs
        path = _build(self._TOP, rtl_params, [p for _, p in self._INPUTS], [p for _, p in self._OUTPUTS])
        self._lib = ctypes.CDLL(str(path))
        for fn, res, args in [("numagpu_rtl_new", ctypes.c_void_p, []),
                              ("numagpu_rtl_free", None, [ctypes.c_void_p]),
                              ("numagpu_rtl_reset", None, [ctypes.c_void_p]),
                              ("numagpu_rtl_step", None, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64)]),
                              ("numagpu_rtl_outputs", None, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64)]),
                              ("numagpu_rtl_got_error", ctypes.c_int, [ctypes.c_void_p]),
                              ("numagpu_rtl_open_vcd", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
                              ("numagpu_rtl_close_vcd", None, [ctypes.c_void_p])]:
            getattr(self._lib, fn).restype = res
            getattr(self._lib, fn).argtypes = args
        self._in = (ctypes.c_uint64 * len(self._INPUTS))()
        self._out = (ctypes.c_uint64 * len(self._OUTPUTS))()
        self._handle = self._lib.numagpu_rtl_new()
        self.library = path
        self.reset()  # out of the power-up state: one rising edge with rst_ni low

    @property
    def params(self):
        """The parameters as keyword arguments of the reference model."""
        return dict(self._reference_params)

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._lib.numagpu_rtl_free(handle)
            self._handle = None

    def _check(self):
        if self._lib.numagpu_rtl_got_error(self._handle):
            raise AssertionError(f"{self._TOP}: an RTL assertion failed (Verilator's message is on stderr)")

    def reset(self):
        """One rising edge with rst_ni low."""
        self._lib.numagpu_rtl_reset(self._handle)
        self._check()

    def step(self, **inputs):
        """One rising edge with these inputs (others 0); returns the outputs of the next cycle."""
        unknown = set(inputs) - {k for k, _ in self._INPUTS}
        if unknown:
            raise TypeError(f"{type(self).__name__}.step(): unknown input(s) {sorted(unknown)}")
        for i, (k, _) in enumerate(self._INPUTS):
            self._in[i] = int(inputs.get(k, 0))
        self._lib.numagpu_rtl_step(self._handle, self._in)
        self._check()
        return self.outputs()

    def outputs(self):
        """The registered outputs of the current cycle, as the reference's Outputs."""
        self._lib.numagpu_rtl_outputs(self._handle, self._out)
        fields = {f: int(self._out[i]) for i, (f, _) in enumerate(self._OUTPUTS)}
        fields["decision_valid"] = bool(fields["decision_valid"])
        return self._REFERENCE.Outputs(**fields)

    def open_vcd(self, path):
        """A VCD of every RTL signal from now on (cycle n at 10n, rising edge at 10n + 5)."""
        if not self._lib.numagpu_rtl_open_vcd(self._handle, str(path).encode()):
            raise OSError(f"cannot write {path}")

    def close_vcd(self):
        self._lib.numagpu_rtl_close_vcd(self._handle)


class LinkBalancerRtl(_RtlBlock):
    """rtl/link_balancer.sv Verilated at the given parameters (the LinkBalancer reference's keywords)."""

    _TOP = "link_balancer"
    _INPUTS = (("kernel_launch", "kernel_launch_i"), ("busy_a", "busy_a_i"), ("busy_b", "busy_b_i"),
               ("drained", "drained_i"))
    _OUTPUTS = (("lanes_a", "lanes_a_o"), ("lanes_b", "lanes_b_o"), ("lane_dir", "lane_dir_o"),
                ("lane_quiesce", "lane_quiesce_o"), ("lane_switch", "lane_switch_o"),
                ("decision_valid", "decision_valid_o"), ("decision", "decision_o"))
    _REFERENCE = _reference.LinkBalancer

    def __init__(self, lanes=16, sample_cycles=5000, switch_cycles=100, sat_num=99, sat_den=100):
        super().__init__(dict(Lanes=lanes, SampleCycles=sample_cycles, SwitchCycles=switch_cycles, SatNum=sat_num,
                              SatDen=sat_den),
                         lanes=lanes, sample_cycles=sample_cycles, switch_cycles=switch_cycles, sat_num=sat_num,
                         sat_den=sat_den)


class PartitionControllerRtl(_RtlBlock):
    """rtl/cache_partition_ctrl.sv Verilated at the given parameters (the PartitionController reference's
    keywords, plus req_w: the width of read_reqs_i, which the reference does not have)."""

    _TOP = "cache_partition_ctrl"
    _INPUTS = (("kernel_launch", "kernel_launch_i"), ("dram_busy", "dram_busy_i"), ("read_reqs", "read_reqs_i"))
    _OUTPUTS = (("remote_ways", "remote_ways_o"), ("local_ways", "local_ways_o"), ("remote_mask", "remote_mask_o"),
                ("decision_valid", "decision_valid_o"), ("decision", "decision_o"))
    _REFERENCE = _reference.PartitionController

    def __init__(self, ways=16, sample_cycles=5000, sat_num=99, sat_den=100, resp_bytes=144,
                 ingress_bytes_per_cycle=64, req_w=2):
        if not 1 <= req_w <= 16:
            raise ValueError(f"req_w: {req_w} is out of range (1 .. 16 bits)")
        self.req_w = req_w
        super().__init__(dict(Ways=ways, SampleCycles=sample_cycles, SatNum=sat_num, SatDen=sat_den,
                              RespBytes=resp_bytes, IngressBytesPerCycle=ingress_bytes_per_cycle, ReqW=req_w),
                         ways=ways, sample_cycles=sample_cycles, sat_num=sat_num, sat_den=sat_den,
                         resp_bytes=resp_bytes, ingress_bytes_per_cycle=ingress_bytes_per_cycle)
