#!/usr/bin/env python3
"""Turns bench/run.sh's raw results into the results tables, with PASS/FAIL per target.

Reads BUILD/results.txt (one "key value..." per line), BUILD/hf/*.json (hyperfine),
BUILD/gb/*.json (Google Benchmark) and the objects in BUILD/obj (objdump). Prints Markdown to
stdout, writes BUILD/results.md, and with --write FILE replaces the text between
"<!-- results:begin -->" and "<!-- results:end -->" in FILE.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
VARIANT_NAMES = {
    "direct": "(a) direct -lcudnn -lcudart",
    "cushim": "(b) cushim",
    "guarded": "(c) guarded static local",
    "relaxed": "(d) cushim, proposed fix",
    "preflight_off": "(e) cushim, preflight off (patched copy)",
    "preflight_root_only": "(f) cushim, preflight of libcudnn_graph only (patched copy)",
    "opt_in": "(g) cushim opted into every library (bench/src/cushim_impl_opt_in.cpp)",
}
MODES = {
    "version": "cudnnGetVersion()",
    "errstr": "cudaGetErrorString(cudaSuccess)",
    "getdevice": "cudaGetDevice(&device) (no GPU here: the runtime's refusal)",
    "conv": "cudnnConvolutionForward (13 args, fixture .so)",
    "sgemm": "cublasSgemm_v2 (14 args, fixture .so; cushim is (g))",
    "c2c": "cufftExecC2C (4 args, fixture .so; cushim is (g))",
    "spmv": "cusparseSpMV (10 args, fixture .so; cushim is (g))",
}
BLAS_MODES = ("sgemm", "c2c", "spmv")  # measured direct and through cushim opted into every library only
# Targets (issue 6).
PER_CALL_MAX_EXTRA = 1.0
FIRST_USE_MAX_RATIO = 1.2
FIRST_USE_BOTH_MAX_RATIO = 1.1  # cuDNN and the runtime, each loaded on its first call
SEARCH_10000_MAX_MS = 50  # first use of both with a CUSHIM_SEARCH_PATH of 10,000 entries
DOCTOR_MAX_MS = 100.0
DISCOVERY_MAX_RATIO = 1.3  # the doctor with discovery (20 environments, 4 toolkits) against without
DISCOVERY_LINEAR_TOLERANCE = 0.10  # per-environment instructions, 5 -> 20 against 20 -> 80
INCLUDE_MAX_RATIO = 1.25
# The implementation file (issue "Cheap to build"): (configuration, optimisation) -> (user seconds,
# text KB or None, compiler MB), for g++ 12 and clang 14 alike.
COST_TARGETS = {("default", "O2"): (4.0, 250, 300), ("default", "O0"): (3.0, None, 300),
                ("opt_in", "O2"): (12.0, 800, 600)}  # every library: about 3,100 functions


def verdict(ok):
    if ok is None:
        return "n/a"
    return "PASS" if ok else "FAIL"


class Results:
    def __init__(self, build):
        self.build = build
        self.kv = {}
        self.lists = {}  # every value of a key written more than once (repeated runs)
        path = os.path.join(build, "results.txt")
        if os.path.exists(path):
            for line in open(path, encoding="utf-8", errors="replace"):
                line = line.rstrip("\n")
                if not line:
                    continue
                key, _, value = line.partition(" ")
                self.kv[key] = value
                self.lists.setdefault(key, []).append(value)

    def get(self, key, default=None):
        return self.kv.get(key, default)

    def all(self, key):
        return self.lists.get(key, [])

    def ir(self, key, ok_codes=("0",)):
        """Callgrind total for a run, or None when the run failed or is missing."""
        value = self.kv.get("cg." + key)
        if not value:
            return None
        parts = value.split()
        if len(parts) < 2 or parts[0] == "none" or parts[1] not in ok_codes:
            return None
        return int(parts[0])

    def rc(self, key):
        value = self.kv.get("cg." + key)
        return value.split()[1] if value and len(value.split()) > 1 else "missing"


def hyperfine(path):
    """name -> {median, mean, user, system, runs, times}; merges several files (rounds)."""
    out = {}
    for p in sorted(glob.glob(path)):
        try:
            data = json.load(open(p))
        except (OSError, ValueError):
            continue
        for r in data.get("results", []):
            d = out.setdefault(r["command"], {"times": [], "cpu": []})
            d["times"] += r["times"]
            d["cpu"] += [r["user"] + r["system"]] * len(r["times"])
            d["exit"] = r.get("exit_codes", [])
    for d in out.values():
        d["median"] = statistics.median(d["times"])
        d["min"] = min(d["times"])
        d["cpu_mean"] = statistics.mean(d["cpu"])
        d["runs"] = len(d["times"])
    return out


def gbench(path):
    """benchmark name -> median real time in ns."""
    out = {}
    try:
        data = json.load(open(path))
    except (OSError, ValueError):
        return out
    for b in data.get("benchmarks", []):
        if b.get("error_occurred"):
            out[b.get("run_name", b["name"])] = None
            continue
        if b.get("aggregate_name") == "median" or b.get("run_type") == "iteration":
            name = b.get("run_name", b["name"].replace("_median", ""))
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            if b.get("aggregate_name") == "median" or name not in out:
                out[name] = b["real_time"] * scale
    return out


def disassemble(obj):
    """Global function name -> list of instruction lines (no padding nops)."""
    try:
        syms = subprocess.run(["nm", "-g", "--defined-only", obj], capture_output=True, text=True).stdout
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", obj], capture_output=True, text=True).stdout
    except OSError:
        return {}
    exported = {line.split()[2] for line in syms.splitlines() if len(line.split()) == 3 and line.split()[1] == "T"}
    funcs, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            current = m.group(1) if m.group(1) in exported else None
            if current:
                funcs[current] = []
            continue
        if current and line.startswith(" ") and "\t" in line:
            insn = line.split("\t", 1)[1].strip()
            if insn and not insn.startswith(("nop", "xchg   %ax,%ax", "data16", "cs nop", "int3")):
                funcs[current].append(insn)
    return funcs


def callgrind_top(path, count=14):
    """The costliest cushim:: functions (inclusive) plus a few libc entry points, with call counts."""
    names, calls, incl = {}, {}, {}
    cfn, pending = None, False
    try:
        lines = open(path, encoding="utf-8", errors="replace")
    except OSError:
        return []
    for line in lines:
        m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if m:
            if m.group(3):
                names[m.group(2)] = m.group(3)
            if m.group(1) == "cfn":
                cfn = m.group(2)
            pending = False
            continue
        if line.startswith("calls="):
            calls[cfn] = calls.get(cfn, 0) + int(line.split()[0][6:])
            pending = True
            continue
        if pending:
            parts = line.split()
            if len(parts) >= 2 and parts[-1].isdigit():
                incl[cfn] = incl.get(cfn, 0) + int(parts[-1])
            pending = False

    def short(name):
        # "(anonymous namespace)::" first: its parenthesis is not the parameter list's.
        name = name.replace("(anonymous namespace)::", "")
        name = re.sub(r"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >", "std::string", name)
        name = re.sub(r"\(.*$", "()", name)
        return name.replace("cushim::detail::", "")

    ours = [(short(names[k]), calls.get(k, 0), incl.get(k, 0)) for k in names
            if names[k].startswith("cushim::detail::") and k in incl and "lambda" not in names[k]]
    ours.sort(key=lambda x: -x[2])
    libc = [(short(names[k]).split("@")[0], calls.get(k, 0), incl.get(k, 0)) for k in names
            if re.match(r"^(dlopen|realpath|pread|pread64|open|stat|fstatat|readlink)(@|$)", names[k]) and k in incl]
    merged = {}
    for n, c, i in libc:  # the same name can exist in ld.so and libc
        pc, pi = merged.get(n, (0, 0))
        merged[n] = (pc + c, pi + i)
    libc = [(f"{n} (C library)", c, i) for n, (c, i) in merged.items()]
    return ours[:count] + sorted(libc, key=lambda x: -x[1])


def plt_entry(binary, symbol):
    try:
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-j", ".plt", "-j", ".plt.sec", binary],
                              capture_output=True, text=True).stdout
    except OSError:
        return []
    lines, inside = [], False
    for line in text.splitlines():
        if re.match(r"^[0-9a-f]+ <", line):
            inside = f"<{symbol}@plt>" in line
            continue
        if inside and "\t" in line:
            lines.append(line.split("\t", 1)[1].strip())
    return lines


def fmt(x, digits=2):
    if x is None:
        return "n/a"
    if isinstance(x, int):
        return f"{x:,}"
    text = f"{x:.{digits}f}"
    return text[1:] if re.fullmatch(r"-0\.?0*", text) else text


def signed_percent(ratio):
    """1.06 -> "+6 %", 0.97 -> "-3 %"."""
    if ratio is None:
        return "n/a"
    x = (ratio - 1) * 100
    return ("+" if round(x) >= 0 else "") + fmt(x, 0) + " %"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def doctor_floor_and_discovery(args, R, md, targets):
    """The doctor against a plain program that loads what it reports on, and its discovery."""
    floor = hyperfine(os.path.join(args.build, "hf", "doctor_floor.json"))
    plain = floor.get("plain_load")
    md.append("\nThe doctor as CMake builds it (opted into cuBLAS, cuBLASLt and NVRTC: five libraries and cuDNN's "
              "seven sub-libraries), `--no-discover`, env bare, against `plain_load`, which only dlopens those twelve "
              "files (RTLD_NOW), and against the same doctor without probe_in_child (the probe's cost):\n")
    rows = []
    for name, label in (("plain_load", "plain_load: dlopen of the 12 files (the floor)"),
                        ("doctor.opt_in", "cushim-doctor -O2, opted in"),
                        ("doctor.opt_in_no_probe", "the same without probe_in_child")):
        w = floor.get(name)
        rows.append([label, fmt(w["median"] * 1e3, 2) if w else "n/a",
                     fmt(w["median"] / plain["median"], 2) + "x" if w and plain else "n/a", w["runs"] if w else "n/a"])
    md.append(table(["program", "wall median ms", "vs the floor", "runs"], rows))
    probe, no_probe = floor.get("doctor.opt_in"), floor.get("doctor.opt_in_no_probe")
    if probe and no_probe:
        md.append(f"\nprobe_in_child costs {fmt((probe['median'] - no_probe['median']) * 1e3, 2)} ms of the doctor's "
                  f"{fmt(probe['median'] * 1e3, 2)} ms: each candidate is loaded and checked in a forked child first.\n")

    md.append("\n#### cushim-doctor's discovery (toolkits, Python environments, frameworks)\n")
    md.append("Machines of `bench/tools/discovery_machine.py`: N environments with one framework each (torch "
              "2.5.1+cu124 with its three nvidia wheels, onnxruntime-gpu, tensorflow) and 4 toolkits with a cuDNN "
              "copied in; the empty machine (0, 0) is the baseline. `discovery` runs machine::discover() alone.\n")
    d = hyperfine(os.path.join(args.build, "hf", "discovery.json"))
    base_ir = R.ir("discovery.0")
    base_wall = d.get("discovery.0")
    rows, per_env = [], {}
    for n in (0, 5, 20, 80):
        ir = R.ir(f"discovery.{n}")
        w = d.get(f"discovery.{n}")
        extra = ir - base_ir if ir is not None and base_ir is not None else None
        if extra is not None and n:
            per_env[n] = extra
        rows.append([n, 4 if n else 0, fmt(ir) if ir else "n/a", fmt(extra) if extra is not None else "n/a",
                     fmt(extra // n) if extra is not None and n else "-", fmt(w["median"] * 1e3, 2) if w else "n/a",
                     fmt((w["median"] - base_wall["median"]) * 1e3, 2) if w and base_wall and n else "-"])
    md.append(table(["environments", "toolkits", "instructions", "over the empty machine", "per environment",
                     "wall median ms", "wall over empty ms"], rows))
    linear = None
    if all(n in per_env for n in (5, 20, 80)):
        first = (per_env[20] - per_env[5]) / 15
        second = (per_env[80] - per_env[20]) / 60
        linear = abs(second / first - 1) <= DISCOVERY_LINEAR_TOLERANCE if first > 0 else None
        targets.append(("discovery linear in environments (5, 20, 80)",
                        f"per environment {fmt(int(first))} (5 to 20) and {fmt(int(second))} (20 to 80) instructions, "
                        f"{signed_percent(second / first if first else None)} apart", verdict(linear)))
    with_d, without = d.get("doctor.discover20"), d.get("doctor.no_discover20")
    ir_with, ir_without = R.ir("doctor.discover20", ("0", "1", "2")), R.ir("doctor.no_discover20", ("0", "1", "2"))
    rows = []
    for label, w, ir in (("opted in (as scripts/doctor.sh builds it), with discovery", with_d, ir_with),
                         ("opted in, --no-discover", without, ir_without),
                         ("not opted in, with discovery", d.get("doctor.O2.discover20"), None),
                         ("not opted in, --no-discover", d.get("doctor.O2.no_discover20"), None)):
        rows.append([label, fmt(w["median"] * 1e3, 2) if w else "n/a",
                     fmt(w["cpu_mean"] * 1e3, 2) if w else "n/a", fmt(ir) if ir else "-"])
    md.append("\nThe doctor (-O2) on the machine of 20 environments and 4 toolkits, its own loads finding this "
              "toolkit's libraries (`CUSHIM_SEARCH_PATH`). Discovery's own cost is the same "
              "in both builds; the doctor not opted in loads two libraries instead of five, so the same cost is a "
              "larger share of it:\n")
    md.append(table(["cushim-doctor", "wall median ms", "CPU (user+sys) mean ms", "instructions"], rows))
    ratio = with_d["median"] / without["median"] if with_d and without else None
    ir_ratio = ir_with / ir_without if ir_with and ir_without else None
    targets.append(("doctor with discovery <= 1.3x without (20 environments, 4 toolkits; opted in)",
                    f"wall {fmt(ratio, 3) + 'x' if ratio else 'n/a'}, instructions "
                    f"{fmt(ir_ratio, 3) + 'x' if ir_ratio else 'n/a'}",
                    verdict(None if ratio is None else ratio <= DISCOVERY_MAX_RATIO)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--compilers", default="g++ clang++")
    ap.add_argument("--write")
    args = ap.parse_args()
    R = Results(args.build)
    tags = ["clang" if c.startswith("clang") else "gcc" for c in args.compilers.split()]
    n1, n2 = (int(x) for x in R.get("meta.n", "1000 101000").split())
    variants = ["direct", "cushim", "guarded"] + (["relaxed"] if R.get("patched.relaxed") == "1" else [])
    first_variants = ["direct", "cushim", "guarded", "opt_in"] + [v for v in ("preflight_off", "preflight_root_only")
                                                                  if R.get(f"patched.{v}") == "1"]
    targets = []  # (target, detail, verdict)
    md = []

    md.append("### Machine and command\n")
    rows = [[k, R.get("meta." + k, "n/a")] for k in
            ["date", "command", "root", "commit", "cpu", "cores", "memory", "os", "gcc", "clang", "valgrind",
             "hyperfine", "gbench", "cudnn", "cudart", "load_start", "load_end", "seconds"]]
    md.append(table(["what", "value"], rows))
    md.append("\nload_start / load_end: the 1, 5 and 15 minute load averages when the run began and ended "
              "(other work on the machine slows the wall-time figures; instruction counts are unaffected).\n")

    # 1. Per call ---------------------------------------------------------------------------
    md.append(f"### 1. Per call after the first (callgrind, -O2, (Ir(N={n2}) - Ir(N={n1})) / {n2 - n1})\n")
    rows = []
    per_call = {}
    for t in tags:
        for mode in MODES:
            base = None
            for v in (["direct", "cushim"] if mode in BLAS_MODES else variants):
                a, b = R.ir(f"percall.{t}.{v}.{mode}.{n1}"), R.ir(f"percall.{t}.{v}.{mode}.{n2}")
                pc = (b - a) / (n2 - n1) if a is not None and b is not None else None
                per_call[(t, mode, v)] = pc
                if v == "direct":
                    base = pc
                extra = pc - base if pc is not None and base is not None else None
                rc = "" if pc is not None else (f" (exit {R.rc(f'percall.{t}.{v}.{mode}.{n2}')})")
                rows.append([t, MODES[mode], VARIANT_NAMES[v], fmt(pc) + rc,
                             "" if v == "direct" else (("+" if extra is not None and extra >= 0 else "") + fmt(extra))])
    md.append(table(["compiler", "function", "variant", "instructions per call", "vs direct"], rows))
    for t in tags:
        for mode in MODES:
            d, c = per_call.get((t, mode, "direct")), per_call.get((t, mode, "cushim"))
            ok = None if d is None or c is None else c - d <= PER_CALL_MAX_EXTRA + 1e-9
            targets.append((f"per call <= direct + 1 instruction", f"{t}, {MODES[mode]}: cushim "
                            f"{'+' if c is not None and d is not None and c >= d else ''}"
                            f"{fmt(None if c is None or d is None else c - d)}", verdict(ok)))
    checks = [f"{t}/{f}={R.get(f'loopcalls.{t}.{f}', 'n/a')}" for t in tags
              for f in ("loop_version", "loop_errstr", "loop_getdevice", "loop_conv", "loop_sgemm", "loop_c2c",
                        "loop_spmv")]
    md.append("\nCall instructions in each loop function of percall.o, with the symbol called (must be "
              "1 call of the benchmarked function: one real call per iteration, nothing hoisted or dropped): "
              + ", ".join(checks) + "\n")

    # Stub code.
    md.append("#### The code behind the symbol\n")
    stub_rows = []
    listings = []
    show = {("gcc", "impl.o"): ["cudnnGetVersion", "cudnnConvolutionForward", "cudaLaunchKernel"],
            ("gcc", "relaxed.o"): ["cudnnConvolutionForward", "cudaLaunchKernel"],
            ("clang", "impl.o"): ["cudnnConvolutionForward", "cudaLaunchKernel"]}
    for t in tags:
        plt = plt_entry(os.path.join(args.build, "bin", t, "percall_direct"), "cudnnGetVersion")
        if plt and t == tags[0]:
            listings.append((f"{t}, (a) direct: cudnnGetVersion@plt (after lazy binding only its first "
                             f"instruction runs)", plt))
        for name, obj in (("(b) cushim", "impl.o"), ("(d) cushim, proposed fix", "relaxed.o")):
            path = os.path.join(args.build, "obj", t, obj)
            if not os.path.exists(path):
                continue
            funcs = {k: v for k, v in disassemble(path).items() if k.startswith("cud")}
            if not funcs:
                continue
            sizes = [len(v) for v in funcs.values()]
            longest = sorted(((len(v), k) for k, v in funcs.items() if len(v) > 2), reverse=True)
            stub_rows.append([t, name, len(funcs), sum(1 for x in sizes if x == 1), sum(1 for x in sizes if x == 2),
                              len(longest), ", ".join(f"{k} {n}" for n, k in longest[:4]) or "-"])
            for f in show.get((t, obj), []):
                if f in funcs:
                    listings.append((f"{t}, {name}: {f} ({len(funcs[f])} instructions)", funcs[f]))
    if stub_rows:
        md.append("Instructions in each exported stub (objdump of the -O2 implementation object, "
                  "padding excluded):\n")
        md.append(table(["compiler", "object", "exported stubs", "1 instruction", "2 instructions",
                         "more than 2", "longest (instructions)"], stub_rows))
        md.append("")
    for title, lines in listings:
        md.append(f"{title}:\n```\n" + "\n".join(lines) + "\n```")
    forms = {t: disassemble(os.path.join(args.build, "obj", t, "stub_forms.o")) for t in tags}
    if any(forms.values()):
        md.append("\nThe slot load written five ways (src/stub_forms.cpp, -O2; instructions of the whole stub):\n")
        rows = []
        for form, what in (("acquire", "load(acquire) (cushim today)"), ("relaxed", "load(relaxed) (proposed, x86-64)"),
                           ("consume", "load(consume)"), ("relaxed_fence", "load(relaxed) + atomic_thread_fence(acquire)"),
                           ("plain", "plain pointer, not atomic (reference)")):
            row = [what]
            for t in tags:
                for n in ("0", "13"):
                    insns = forms[t].get(f"args{n}_{form}")
                    row.append(str(len(insns)) if insns is not None else "n/a")
            rows.append(row)
        md.append(table(["slot load"] + [f"{t}, {n} args" for t in tags for n in ("0", "13")], rows))

    # Google Benchmark.
    if glob.glob(os.path.join(args.build, "gb", "*.json")):
        md.append("\n#### Wall time per call (Google Benchmark, median of the repetitions, ns)\n")
        rows = []
        names = {"version": "BM_cudnnGetVersion", "errstr": "BM_cudaGetErrorString",
                 "conv": "BM_cudnnConvolutionForward"}
        for t in tags:
            for mode, bm in names.items():
                row = [t, MODES[mode]]
                for v in variants:
                    data = gbench(os.path.join(args.build, "gb", f"{t}.{v}.{'fixture' if mode == 'conv' else 'real'}.json"))
                    row.append(fmt(data.get(bm), 2))
                rows.append(row)
        md.append(table(["compiler", "function"] + [VARIANT_NAMES[v] for v in variants], rows))

    # 2. First use --------------------------------------------------------------------------
    md.append("\n### 2. First use (g++ -O2): process start to the first call returning, then _exit(0)\n")
    hf = {e: hyperfine(os.path.join(args.build, "hf", f"first_{e}.json")) for e in ("hinted", "bare")}
    rows = []
    for e in ("hinted", "bare"):
        for m, what in (("none", "no call (start-up floor)"), ("cudnn", "first cudnnGetVersion"),
                        ("both", "first cudnnGetVersion + first cudaGetErrorString")):
            base = R.ir(f"first.direct.{m}.{e}")
            for v in first_variants:
                ir = R.ir(f"first.{v}.{m}.{e}")
                ratio = ir / base if ir is not None and base else None
                w = hf[e].get(f"{v}.{m}")
                mem = (R.get(f"rss.{v}.{m}.{e}") or "").split()
                rows.append([e, what, VARIANT_NAMES[v], fmt(ir), fmt(ratio, 3) + "x" if ratio else "n/a",
                             fmt(w["median"] * 1e3, 2) if w else "n/a", fmt(w["min"] * 1e3, 2) if w else "n/a",
                             R.get(f"syscalls.{v}.{m}.{e}", "n/a"),
                             mem[0] if len(mem) > 0 else "n/a", mem[1] if len(mem) > 1 else "n/a"])
            for v in ("cushim", "opt_in") if m in ("cudnn", "both") else ():
                c = R.ir(f"first.{v}.{m}.{e}")
                ratio = c / base if c is not None and base else None
                limit = FIRST_USE_MAX_RATIO if m == "cudnn" else FIRST_USE_BOTH_MAX_RATIO
                label = (f"first use <= {limit}x direct instructions" if m == "cudnn" else
                         f"first use of both libraries <= {limit}x direct instructions")
                who = "" if v == "cushim" else ", every library opted in"
                targets.append((label, f"env {e}, {what}{who}: {fmt(ratio, 3)}x",
                                verdict(None if ratio is None else ratio <= limit)))
    md.append(table(["env", "program", "variant", "instructions", "vs direct", "wall median ms", "wall min ms",
                     "system calls",
                     "VmRSS kB", "VmHWM kB"], rows))
    top = callgrind_top(os.path.join(args.build, "cg", "first.cushim.cudnn.hinted.out"))
    if top:
        md.append("\nWhere (b) cushim's first cudnnGetVersion goes (env hinted; callgrind: inclusive "
                  "instructions of cushim's costliest functions, then the C library calls behind the system "
                  "calls; a function's count is summed over all its callers):\n")
        md.append(table(["function", "calls", "inclusive instructions"], [[n, fmt(c), fmt(i)] for n, c, i in top]))
    md.append("\nenv hinted: CUDA_HOME=/usr/local/cuda is set; env bare: no variable cushim reads is set "
              "(the search goes on to /etc/ld.so.cache). cushim has no switch for its cuDNN sub-library "
              "preflight: (b) is what the measured tree does on every first use; (e) and (f) are the same "
              "program built from patched copies of include/ (tools/patch_copy.py) to show the preflight "
              "off and restricted to the root sub-library. System calls: lines of `strace -f`, from "
              "execve to exit.")

    situations = hyperfine(os.path.join(args.build, "hf", "situations.json"))
    plain = situations.get("plain")
    if plain:
        md.append("\nWhat two situations cost the first use of both libraries (env hinted, hyperfine wall "
                  "time): every candidate loaded and checked in a child process first (`probe_in_child`, "
                  "`CUSHIM_PROBE_IN_CHILD=1`), and a `CUSHIM_SEARCH_PATH` of 10,000 entries (absent, empty, "
                  "relative and repeated folders).\n")
        rows = []
        for name, label in (("plain", "plain"), ("probe_in_child", "probe_in_child"),
                            ("search_path_10000", "CUSHIM_SEARCH_PATH of 10,000 entries")):
            w = situations.get(name)
            rows.append([label, fmt(w["median"] * 1e3, 2) if w else "n/a",
                         fmt((w["median"] - plain["median"]) * 1e3, 2) if w else "n/a", w["runs"] if w else "n/a"])
        md.append(table(["situation", "wall median ms", "over plain ms", "runs"], rows))
        long_search = situations.get("search_path_10000")
        targets.append(("10,000 search entries < 50 ms (first use of both)",
                        f"median {fmt(long_search['median'] * 1e3, 2) if long_search else 'n/a'} ms",
                        verdict(None if not long_search else long_search["median"] * 1e3 < SEARCH_10000_MAX_MS)))

    # 3. Doctor -----------------------------------------------------------------------------
    md.append("\n### 3. cushim-doctor, the whole chain (warm cache)\n")
    rows = []
    for e in ("hinted", "bare"):
        d = hyperfine(os.path.join(args.build, "hf", f"doctor_{e}.json"))
        for o in ("O2", "O0"):
            w = d.get(f"doctor.{o}")
            ir = R.ir(f"doctor.{e}", ok_codes=("0", "1", "2")) if o == "O2" else None
            rows.append([e, f"-{o}" + (" -DNDEBUG" if o == "O2" else " -g (like the Debug preset)"),
                         fmt(w["median"] * 1e3, 2) if w else "n/a", fmt(w["min"] * 1e3, 2) if w else "n/a",
                         w["runs"] if w else "n/a", fmt(ir) if ir else ("n/a" if o == "O2" else "-"),
                         R.get(f"doctor.exit.{e}", "n/a") if o == "O2" else "-"])
            if o == "O2":
                targets.append(("doctor < 100 ms warm", f"env {e}, -O2: median "
                                f"{fmt(w['median'] * 1e3, 2) if w else 'n/a'} ms",
                                verdict(None if not w else w["median"] * 1e3 < DOCTOR_MAX_MS)))
    md.append(table(["env", "build", "wall median ms", "wall min ms", "runs", "instructions", "exit code"], rows))
    doctor_floor_and_discovery(args, R, md, targets)

    # 4. Compile time -----------------------------------------------------------------------
    md.append("\n### 4. Compile time\n")
    rows = []
    for t in tags:
        for o in ("O0", "O2"):
            d = hyperfine(os.path.join(args.build, "hf", f"ct_{t}_{o}_r*.json"))
            plain = d.get("plain")
            for tu, what in (("plain", "<cuda_runtime_api.h> + <cudnn.h>"), ("cushim", "<cushim/cushim.hpp>"),
                             ("plain_std", "plain + <string> <string_view> <vector>"),
                             ("status", "<cushim/status.hpp> (configure, status_of, explain)")):
                x = d.get(tu)
                ratio = x["median"] / plain["median"] if x and plain else None
                cpu_ratio = x["cpu_mean"] / plain["cpu_mean"] if x and plain else None
                rows.append([t, f"-{o}", what, fmt(x["median"] * 1e3, 1) if x else "n/a",
                             fmt(ratio, 2) + "x" if ratio else "n/a",
                             fmt(x["cpu_mean"] * 1e3, 1) if x else "n/a", fmt(cpu_ratio, 2) + "x" if cpu_ratio else "n/a",
                             x["runs"] if x else "n/a"])
                if tu == "cushim":
                    targets.append(("include overhead <= 25 %", f"{t} -{o}: {signed_percent(ratio)} "
                                    f"(wall median; CPU {signed_percent(cpu_ratio)})",
                                    verdict(None if ratio is None else ratio <= INCLUDE_MAX_RATIO)))
    md.append(table(["compiler", "opt", "TU includes", "wall median ms", "vs plain", "CPU (user+sys) mean ms",
                     "CPU vs plain", "runs"], rows))
    md.append("\nThe CUSHIM_IMPLEMENTATION TU (`#define CUSHIM_IMPLEMENTATION` + `#include <cushim/cushim.hpp>`):\n")
    rows = []
    for t in tags:
        for o in ("O0", "O2"):
            d = hyperfine(os.path.join(args.build, "hf", f"impl_{t}_{o}.json")).get("impl")
            size = (R.get(f"impl.size.{t}.{o}") or "").split()
            rows.append([t, f"-{o}", fmt(d["median"], 2) if d else "n/a", d["runs"] if d else "n/a",
                         fmt(int(size[0])) if size else "n/a", fmt(int(size[1])) if len(size) > 1 else "n/a",
                         fmt(int(size[2])) if len(size) > 2 else "n/a"])
    md.append(table(["compiler", "opt", "wall median s", "runs", ".o bytes", "text bytes", "data bytes"], rows))
    md.append("\nWhat the implementation file costs (median of the runs: compiler user time, its peak memory, "
              "and `size`'s text and data of the object):\n")
    rows = []
    for t in tags:
        for cfg, what in (("plain_std", "NVIDIA's headers, <string>, <vector>"), ("default", "cuDNN + CUDA runtime"),
                          ("opt_in", "every opt-in library")):
            for o in ("O0", "O2"):
                runs = [[float(v) for v in line.split()] for line in R.all(f"cost.{t}.{cfg}.{o}")]
                if not runs:
                    rows.append([t, what, f"-{o}", "n/a", "n/a", "n/a", "n/a", "n/a"])
                    continue
                user = statistics.median(r[0] for r in runs)
                memory_mb = max(r[1] for r in runs) / 1024
                text_kb, data_kb = runs[-1][2] / 1024, runs[-1][3] / 1024
                plain = [float(line.split()[0]) for line in R.all(f"cost.{t}.plain_std.{o}")]
                ratio = user / statistics.median(plain) if plain else None
                rows.append([t, what, f"-{o}", fmt(user, 2), fmt(ratio, 1) + "x" if ratio else "n/a",
                             fmt(memory_mb, 0), fmt(text_kb, 0), fmt(data_kb, 0)])
                limits = COST_TARGETS.get((cfg, o))
                if limits:
                    max_user, max_kb, max_mb = limits
                    ok = user <= max_user and (max_kb is None or text_kb <= max_kb) and memory_mb <= max_mb
                    size_part = f", text {fmt(text_kb, 0)} KB (<= {max_kb})" if max_kb else ""
                    targets.append((f"implementation file, {what}, -{o}: <= {max_user} s user{', <= ' + str(max_kb) + ' KB text' if max_kb else ''}, <= {max_mb} MB",
                                    f"{t}: {fmt(user, 2)} s{size_part}, {fmt(memory_mb, 0)} MB", verdict(ok)))
    md.append(table(["compiler", "implementation file", "opt", "user s", "vs headers + std", "peak MB", "text KB",
                     "data KB"], rows))

    # Targets -------------------------------------------------------------------------------
    md.append("\n### Targets\n")
    md.append(table(["target", "measured", "result"], [list(x) for x in targets]))
    text = "\n".join(md) + "\n"

    with open(os.path.join(args.build, "results.md"), "w") as f:
        f.write(text)
    print(text)
    fails = sum(1 for x in targets if x[2] == "FAIL")
    print(f"targets: {sum(1 for x in targets if x[2] == 'PASS')} PASS, {fails} FAIL, "
          f"{sum(1 for x in targets if x[2] == 'n/a')} n/a (details in {args.build}/results.md)")
    if args.write:
        doc = open(args.write).read() if os.path.exists(args.write) else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
        if BEGIN in doc and END in doc:
            head, rest = doc.split(BEGIN, 1)
            _, tail = rest.split(END, 1)
            doc = head + BEGIN + "\n" + text + END + tail
        else:
            doc += f"\n{BEGIN}\n{text}{END}\n"
        with open(args.write, "w") as f:
            f.write(doc)
        print(f"results written into {args.write}")


if __name__ == "__main__":
    main()
