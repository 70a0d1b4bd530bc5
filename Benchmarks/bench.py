#!/usr/bin/env python3
"""vodapp against curl --parallel, curl then sync, and aria2c, and the costs of a one-shot tool.

Serves generated files from nginx on loopback, runs vodapp (the static build and, when built, the
non-static one), curl, curl then sync (the durable peer: curl's files made safe, as vodapp's are)
and aria2c alternating (A B C A B C ...) at the same concurrency (16) on three workloads, measures
each run with /usr/bin/time, then measures vodapp's start-to-exit costs and what a dropped item
costs on the wire. Writes Benchmarks/RESULTS.md. Run it through Benchmarks/run, which installs and
builds first. It ends with the budget planner on a shaped link (shaped.py).

    Benchmarks/bench.py [--runs 5] [--only W1,W2,W3] [--skip-costs]
"""
import argparse, datetime, json, os, platform, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

import shaped

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VODAPP = os.path.join(ROOT, ".build/release/vodapp")
# The same commit built without --static-swift-stdlib (Benchmarks/run builds it in its own scratch
# folder: the two builds share no object file).
VODAPP_DYNAMIC = os.path.join(ROOT, ".build/dynamic/release/vodapp")
VODAPP_PUSH = os.path.join(ROOT, ".build/release/vodapp-push")
MiB = 1 << 20
WORKLOADS = {
    "W1": ("16 × 16 MiB", 16, 16 * MiB),
    "W2": ("200 × 64 KiB", 200, 64 * 1024),
    "W3": ("4 × 19 MiB", 4, 19 * MiB),
}
JOBS = 16
NOSYNC = "vodapp, fsync off"
DYNAMIC = "vodapp, non-static"
DURABLE = "curl + sync"
# What issue 30 asks of each workload: wall at most the durable peer's, CPU at most twice curl's,
# peak RSS at most 30 MiB.
TARGETS = {"wall": 1.0, "cpu": 2.0, "rss": 30.0}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def generate(data, name, count, size):
    folder = os.path.join(data, name)
    os.makedirs(folder, exist_ok=True)
    for i in range(count):
        path = os.path.join(folder, f"f{i:03d}.bin")
        if not os.path.exists(path) or os.path.getsize(path) != size:
            with open(path, "wb") as f:
                f.write(shaped.FTYP)
                left = size - len(shaped.FTYP)
                while left:
                    chunk = os.urandom(min(left, 4 * MiB))
                    f.write(chunk)
                    left -= len(chunk)
    return [f"{name}/f{i:03d}.bin" for i in range(count)]


def start_nginx(prefix, data, port):
    conf = os.path.join(prefix, "nginx.conf")
    os.makedirs(os.path.join(prefix, "tmp"), exist_ok=True)
    with open(conf, "w") as f:
        f.write(f"""
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 4096; }}
http {{
    log_format sizes '$request_uri $status $body_bytes_sent';
    access_log {prefix}/access.log sizes;
    client_body_temp_path {prefix}/tmp;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    server {{
        listen 127.0.0.1:{port};
        root {data};
        location / {{ }}
    }}
}}
""")
    process = subprocess.Popen(["nginx", "-c", conf, "-p", prefix, "-g", "daemon off;"])
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process
        except OSError:
            time.sleep(0.05)
    raise SystemExit("nginx did not start: " + open(os.path.join(prefix, "error.log")).read())


def measure(command, env=None):
    """Runs command: wall s, CPU s (user + system, its children included), peak RSS KiB, exit code
    and what it said. CPU is the kernel's own accounting (wait4), to the microsecond: /usr/bin/time's
    hundredths were a third of curl's CPU on W2. The peak RSS is /usr/bin/time's: a process forked
    from this one counts this interpreter's pages until it execs, time's child does not."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".time") as peak:
        started = time.perf_counter()
        proc = subprocess.Popen(["/usr/bin/time", "-o", peak.name, "-f", "%M"] + command, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        rss = int(open(peak.name).read().split()[-1])
        out.seek(0)
        err.seek(0)
        stdout, said = out.read(), err.read().decode(errors="replace")
    try:
        # vodapp's --json report: the items that did not arrive, and why.
        said += "".join(f"\n{item}" for item in json.loads(stdout)["items"] if item["status"] != "downloaded")
    except (ValueError, KeyError, TypeError):
        pass
    return wall, usage.ru_utime + usage.ru_stime, rss, proc.returncode, said


def environment():
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent"
    return env


def tools(base, files, work):
    payload = os.path.join(work, "payload.json")
    playlist = {f"k{i:03d}": {"title": f"Item {i}", "url": f"{base}/{path}"} for i, path in enumerate(files)}
    json.dump({"aps": {"content-available": 1}, "playlist": playlist}, open(payload, "w"))
    curl_list = os.path.join(work, "curl.list")
    aria_list = os.path.join(work, "aria2.list")
    out = os.path.join(work, "out")
    with open(curl_list, "w") as c, open(aria_list, "w") as a:
        for i, path in enumerate(files):
            c.write(f'url = "{base}/{path}"\noutput = "{out}/k{i:03d}.bin"\n')
            a.write(f"{base}/{path}\n  dir={out}\n  out=k{i:03d}.bin\n")
    curl = ["curl", "-s", "--parallel", "--parallel-max", str(JOBS), "-K", curl_list]
    commands = {
        "vodapp": [VODAPP, payload, "--dir", out, "--no-notify", "--json", "--jobs", str(JOBS)],
        "curl": curl,
        # curl leaves its files in the page cache; `sync` then writes them out, as vodapp does
        # before it names a file.
        DURABLE: ["sh", "-c", 'curl "$@" && sync', "sh"] + curl[1:],
        "aria2c": ["aria2c", "-q", "-j", str(JOBS), "-x", "1", "--file-allocation=none", "-i", aria_list],
        # A diagnostic, not a peer: vodapp with fsync and sync_file_range made no-ops, to show
        # what durability costs (curl and aria2c leave their files in the page cache).
        NOSYNC: ["eatmydata", VODAPP, payload, "--dir", out, "--no-notify", "--json", "--jobs", str(JOBS)],
    }
    if os.access(VODAPP_DYNAMIC, os.X_OK):
        commands[DYNAMIC] = [VODAPP_DYNAMIC, payload, "--dir", out, "--no-notify", "--json", "--jobs", str(JOBS)]
    return commands, out


def check(out, files, data):
    """Every file arrived whole: as many as asked for (vodapp names them by title and key, with
    its playlist.m3u8 and work area beside them; the peers by key), each of its source's size."""
    got = [name for name in (os.listdir(out) if os.path.isdir(out) else [])
           if not name.startswith(".") and name != "playlist.m3u8"]
    if len(got) != len(files):
        return f"{len(got)} of {len(files)} files"
    expected = sorted(os.path.getsize(os.path.join(data, path)) for path in files)
    if sorted(os.path.getsize(os.path.join(out, name)) for name in got) != expected:
        return "a file has the wrong size"
    return None


def run_workloads(base, data, work, runs, only):
    results = {}
    for name in only:
        label, count, size = WORKLOADS[name]
        files = generate(data, name.lower(), count, size)
        commands, out = tools(base, files, work)
        samples = {tool: [] for tool in commands}
        for round in range(runs):
            for tool, command in commands.items():
                shutil.rmtree(out, ignore_errors=True)
                os.makedirs(out)
                wall, cpu, rss, code, err = measure(command, environment())
                problem = check(out, files, data)
                if code != 0 or problem:
                    raise SystemExit(f"{name} {tool} run {round + 1}: exit {code}, {problem or 'ok'}: {err[-500:]}")
                samples[tool].append((wall, cpu, rss))
                print(f"{name} {tool:7} run {round + 1}: {wall:.2f} s wall, {cpu:.2f} s cpu, {rss / 1024:.1f} MiB", flush=True)
        shutil.rmtree(out, ignore_errors=True)
        results[name] = (label, samples)
    return results


def median_ms(command, runs=20, env=None, expect=None):
    """Start to exit, median ms, and the largest peak RSS (MiB) of the runs."""
    times, peaks = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
            started = time.perf_counter()
            proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            times.append((time.perf_counter() - started) * 1000)
            # Measured apart from the time, which /usr/bin/time's own start would add to.
            rss = subprocess.run(["/usr/bin/time", "-o", out.name, "-f", "%M"] + command, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=env)
            peaks.append(int(open(out.name).read().split()[-1]) / 1024)
        if expect is not None and proc.returncode != expect:
            raise SystemExit(f"{command}: exit {proc.returncode}, expected {expect}")
    return statistics.median(times), max(peaks)


def builds():
    """The vodapp builds measured: the static one, and the non-static one when it was built."""
    found = [("static", VODAPP)]
    if os.access(VODAPP_DYNAMIC, os.X_OK):
        found.append(("non-static", VODAPP_DYNAMIC))
    return found


def run_costs(base, data, work):
    """Each case's (label, {build: (ms, MiB)})."""
    costs = []
    files = generate(data, "w2", 200, 64 * 1024)
    env = environment()
    cases = []
    for count in (10, 1000):
        payload = os.path.join(work, f"present{count}.json")
        playlist = {f"p{i:04d}": {"title": f"P {i}", "url": f"{base}/{files[i % len(files)]}?n={i}"} for i in range(count)}
        json.dump({"aps": {"content-available": 1}, "playlist": playlist}, open(payload, "w"))
        cases.append((f"{count} items, all already present", payload, 0))
    empty = os.path.join(work, "empty.json")
    json.dump({"aps": {"content-available": 1}, "playlist": {}}, open(empty, "w"))
    cases.append(("an empty playlist", empty, 0))
    invalid = os.path.join(work, "invalid.json")
    open(invalid, "w").write('{"aps": {"alert": "no content-available"}, "playlist": {}}')
    cases.append(("an invalid payload (exit 65)", invalid, 65))
    results = {label: {} for label, _, _ in cases}
    results["`vodapp --version`"] = {}
    for build, binary in builds():
        dir_ = os.path.join(work, f"present-{build}")
        shutil.rmtree(dir_, ignore_errors=True)
        for label, payload, code in cases:
            if code == 0:
                # Fetched once, so that every later run finds the items present.
                subprocess.run([binary, payload, "--dir", dir_, "--no-notify"], check=True, stdout=subprocess.DEVNULL, env=env)
            results[label][build] = median_ms([binary, payload, "--dir", dir_, "--no-notify"], env=env, expect=code)
        results["`vodapp --version`"][build] = median_ms([binary, "--version"], env=env, expect=0)
    return list(results.items())


def dropped_bytes(base, data, work):
    big = os.path.join(data, "big.bin")
    with open(big, "wb") as f:
        f.truncate(1 << 30)
    env = environment()
    rows = []
    serve_port = free_port()
    serve = subprocess.Popen([VODAPP_PUSH, "serve", "--port", str(serve_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        for label, url in (("1 GiB with a Content-Length (nginx)", f"{base}/big.bin"),
                           ("1 GiB chunked, no length (vodapp-push serve)", f"http://127.0.0.1:{serve_port}/chunked/1073741824.bin")):
            payload = os.path.join(work, "drop.json")
            json.dump({"aps": {"content-available": 1}, "playlist": {"big": {"title": "Big", "url": url}}}, open(payload, "w"))
            out = os.path.join(work, "drop")
            shutil.rmtree(out, ignore_errors=True)
            proc = subprocess.run([VODAPP, payload, "--dir", out, "--no-notify", "-v"], capture_output=True, env=env)
            match = re.search(r"bodyBytesReceived=(\d+)", proc.stderr.decode(errors="replace"))
            rows.append((label, int(match.group(1)) if match else None))
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait()
        os.remove(big)
    return rows


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    memory = next((line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")), "0")
    def version(command):
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.splitlines()[0].strip() or \
                subprocess.run(command, capture_output=True, text=True).stderr.splitlines()[0].strip()
        except Exception:
            return "?"
    nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout.strip() != ""
    return [
        f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, vodapp at commit `{commit}`{' (with uncommitted changes)' if dirty else ''}, release builds: static (`--static-swift-stdlib`){' and non-static' if len(builds()) > 1 else ''}",
        f"- Machine: {os.cpu_count()} × {cpu}, {int(memory) // 1024 // 1024} GiB, {platform.platform()}",
        f"- Peers: {version(['curl', '--version'])}; {version(['aria2c', '--version'])}; {nginx} (1 worker, sendfile, loopback)",
    ]


def ratio(mine, theirs, field):
    """vodapp's over the peer's, run by run, then the median."""
    values = [a[field] / b[field] for a, b in zip(mine, theirs) if b[field] > 0]
    return statistics.median(values) if values else float("nan")


def summary(results):
    """Each workload and build against issue 30's targets."""
    lines = ["## Against the targets", "",
             f"vodapp's wall over curl + sync's (at most {TARGETS['wall']}), its CPU over curl's (at most "
             f"{TARGETS['cpu']}) and its peak RSS (at most {TARGETS['rss']:.0f} MiB), median ratios run by run:", "",
             "| workload | build | wall / (curl + sync) | CPU / curl | peak RSS MiB | met |", "| --- | --- | --- | --- | --- | --- |"]
    for name, (label, samples) in results.items():
        for build, tool in (("static", "vodapp"), ("non-static", DYNAMIC)):
            if tool not in samples:
                continue
            wall = ratio(samples[tool], samples[DURABLE], 0)
            cpu = ratio(samples[tool], samples["curl"], 1)
            rss = max(s[2] for s in samples[tool]) / 1024
            met = wall <= TARGETS["wall"] and cpu <= TARGETS["cpu"] and rss <= TARGETS["rss"]
            lines.append(f"| {name} {label} | {build} | {wall:.2f} | {cpu:.2f} | {rss:.1f} | {'yes' if met else 'no'} |")
    return lines


def write(results, costs, drops, shaped_rows, runs, path):
    lines = ["# Benchmark results", "", "Written by `Benchmarks/run`; rerun it to refresh (it takes about ten minutes, so CI "
             "does not run it). Each figure is the median of "
             f"{runs} runs, the tools alternating (vodapp, curl, curl + sync, aria2c, …) at 16 transfers at once, "
             "files served by nginx on loopback from the page cache. Ratios are vodapp's over the peer's, "
             "taken run by run, then the median. \"curl + sync\" is curl followed by `sync`: the durable peer, whose "
             "files are on disk when it ends, as vodapp's are. The row \"vodapp, fsync off\" is a diagnostic, not a peer: the "
             "same vodapp under eatmydata, which makes fsync and sync_file_range no-ops, so the ratio in its row is "
             "what making every file durable before it is named costs. \"vodapp, non-static\" is the same commit "
             "built without `--static-swift-stdlib`, the Swift runtime and Foundation loaded as shared libraries.", ""] + machine() + [""]
    lines += summary(results) + [""]
    lines += ["## Throughput", "", "Wall and CPU from the kernel's accounting of each run (`wait4`), in milliseconds.", "",
              "| workload | tool | wall ms | CPU ms | peak RSS MiB | vodapp/peer wall | vodapp/peer CPU |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for name, (label, samples) in results.items():
        for tool, runs_ in samples.items():
            wall = statistics.median(s[0] for s in runs_)
            cpu = statistics.median(s[1] for s in runs_)
            rss = max(s[2] for s in runs_) / 1024
            if tool == "vodapp":
                ratio_wall = ratio_cpu = "–"
            else:
                mine = samples["vodapp"]
                ratio_wall = f"{ratio(mine, runs_, 0):.2f}"
                ratio_cpu = f"{ratio(mine, runs_, 1):.2f}"
            lines.append(f"| {name} {label} | {tool} | {wall * 1000:.0f} | {cpu * 1000:.0f} | {rss:.1f} | {ratio_wall} | {ratio_cpu} |")
    if costs:
        found = [build for build, _ in builds()]
        lines += ["", "## The costs of a one-shot tool", "",
                  "Start to exit, median of 20 runs, and the largest peak RSS of them (targets: `--version` at most 12 ms, "
                  "10 items already present at most 20 ms, peak RSS at most 30 MiB):", "",
                  "| case | " + " | ".join(f"{b} ms | {b} peak RSS MiB" for b in found) + " |",
                  "| --- |" + " --- | --- |" * len(found)]
        for label, by_build in costs:
            cells = " | ".join(f"{by_build[b][0]:.1f} | {by_build[b][1]:.1f}" for b in found)
            lines.append(f"| {label} | {cells} |")
    if drops:
        lines += ["", "Body bytes a dropped item cost (vodapp's count of bytes received; the limit is 20 MiB):", "",
                  "| item | bytes received |", "| --- | --- |"]
        lines += [f"| {label} | {value if value is not None else '?'} |" for label, value in drops]
    if shaped_rows:
        lines += [""] + shaped.table(shaped_rows)
    open(path, "w").write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default="W1,W2,W3")
    parser.add_argument("--skip-costs", action="store_true")
    parser.add_argument("--skip-shaped", action="store_true", help="leave out the budget planner on a shaped link (about 90 s)")
    parser.add_argument("--output", default=os.path.join(ROOT, "Benchmarks/RESULTS.md"))
    args = parser.parse_args()
    for tool in (VODAPP, VODAPP_PUSH):
        if not os.access(tool, os.X_OK):
            raise SystemExit(f"{tool} is missing: build with `swift build -c release` (Benchmarks/run does)")
    work = tempfile.mkdtemp(prefix="vodapp-bench-")
    # nginx's workers run as an unprivileged user when started as root: they must read the files.
    os.chmod(work, 0o755)
    data = os.path.join(work, "data")
    os.makedirs(data, mode=0o755)
    port = free_port()
    nginx = start_nginx(os.path.join(work, "nginx"), data, port)
    base = f"http://127.0.0.1:{port}"
    try:
        only = [name for name in args.only.split(",") if name]
        for name in only:
            label, count, size = WORKLOADS[name]
            generate(data, name.lower(), count, size)
        results = run_workloads(base, data, work, args.runs, only)
        costs = [] if args.skip_costs else run_costs(base, data, work)
        drops = [] if args.skip_costs else dropped_bytes(base, data, work)
        shaped_rows = [] if args.skip_shaped else shaped.measure(VODAPP)
        write(results, costs, drops, shaped_rows, args.runs, args.output)
        print(open(args.output).read())
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
