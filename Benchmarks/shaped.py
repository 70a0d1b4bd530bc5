#!/usr/bin/env python3
"""The budget planner on two real bottlenecks, for budgets of 10, 14 and 20 s:

- a link shaped by `tc tbf` to 400 kB/s: a network namespace joined to this one by a veth pair,
  nginx inside it, vodapp outside (`ip netns` and `tc`, from Debian's iproute2; needs root);
- a server that throttles all of a client's connections to one shared 400 kB/s (a token bucket
  every connection draws from), on loopback: what a host limiting each client does.

Items of 1.5, 3, 6 and 6.7 MiB, all started at once; the optimum is the most of them, smallest
first, that the rate carries within the budget. Run by bench.py (Benchmarks/run), which puts
the table in RESULTS.md, or alone:

    Benchmarks/shaped.py [--vodapp PATH]
"""
import argparse, http.server, json, os, shutil, signal, socket, socketserver, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MiB = 1 << 20
SIZES = [3 * MiB // 2, 3 * MiB, 6 * MiB, 67 * MiB // 10]
RATE = 400_000
BUDGETS = [10, 14, 20]
# What every generated file starts with: an MP4's `ftyp` box, as a video does. Random bytes alone
# are not one: one file in a few thousand starts `{"` or `[{` and is refused as JSON, as it should be.
FTYP = bytes.fromhex("00000020") + b"ftypisom" + bytes.fromhex("00000200") + b"isomiso2avc1mp41"
NAMESPACE = f"vodapp-shaped-{os.getpid()}"
OUTSIDE, INSIDE = "10.77.0.1", "10.77.0.2"


def optimum(budget):
    total, count = 0, 0
    for size in sorted(SIZES):
        total += size
        if total > RATE * budget:
            break
        count += 1
    return count


def files(folder):
    os.makedirs(folder, exist_ok=True)
    names = []
    for index, size in enumerate(SIZES):
        name = f"item{index}.bin"
        path = os.path.join(folder, name)
        if not os.path.exists(path) or os.path.getsize(path) != size:
            with open(path, "wb") as f:
                f.write(FTYP + os.urandom(size - len(FTYP)))
        names.append(name)
    return names


def deliver(vodapp, base, names, budget, work):
    """Runs one delivery; returns how many items it downloaded."""
    out = os.path.join(work, f"out-{budget}")
    shutil.rmtree(out, ignore_errors=True)
    payload = os.path.join(work, "payload.json")
    playlist = {f"i{index}": {"title": f"Item {index}", "url": f"{base}/{name}"} for index, name in enumerate(names)}
    json.dump({"aps": {"content-available": 1}, "playlist": playlist}, open(payload, "w"))
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent")
    env.pop("DISPLAY", None)
    proc = subprocess.run([vodapp, payload, "--dir", out, "--no-notify", "--json", "--budget", str(budget)],
                          capture_output=True, text=True, env=env)
    report = json.loads(proc.stdout)
    shutil.rmtree(out, ignore_errors=True)
    return sum(1 for item in report["items"] if item["status"] == "downloaded")


def run(command, check=True):
    return subprocess.run(command, check=check, capture_output=True, text=True)


class ShapedLink:
    """A namespace behind a veth pair, its egress (the server's answers) shaped to RATE."""

    def __enter__(self):
        run(["ip", "netns", "add", NAMESPACE])
        try:
            run(["ip", "link", "add", "vodapp-out", "type", "veth", "peer", "name", "vodapp-in"])
            run(["ip", "link", "set", "vodapp-in", "netns", NAMESPACE])
            run(["ip", "addr", "add", f"{OUTSIDE}/24", "dev", "vodapp-out"])
            run(["ip", "link", "set", "vodapp-out", "up"])
            inside = ["ip", "netns", "exec", NAMESPACE]
            run(inside + ["ip", "addr", "add", f"{INSIDE}/24", "dev", "vodapp-in"])
            run(inside + ["ip", "link", "set", "vodapp-in", "up"])
            run(inside + ["ip", "link", "set", "lo", "up"])
            # tc's "kbps" is kilobytes per second.
            run(inside + ["tc", "qdisc", "add", "dev", "vodapp-in", "root", "tbf", "rate", f"{RATE // 1000}kbps",
                          "burst", "64kb", "latency", "400ms"])
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *_):
        run(["ip", "link", "del", "vodapp-out"], check=False)
        run(["ip", "netns", "del", NAMESPACE], check=False)


def nginx_inside(prefix, data, port):
    os.makedirs(os.path.join(prefix, "tmp"), exist_ok=True)
    conf = os.path.join(prefix, "nginx.conf")
    open(conf, "w").write(f"""
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/tmp;
    sendfile on;
    server {{ listen {INSIDE}:{port}; root {data}; location / {{ }} }}
}}
""")
    process = subprocess.Popen(["ip", "netns", "exec", NAMESPACE, "nginx", "-c", conf, "-p", prefix, "-g", "daemon off;"])
    for _ in range(100):
        try:
            socket.create_connection((INSIDE, port), timeout=0.2).close()
            return process
        except OSError:
            time.sleep(0.05)
    raise SystemExit("nginx did not start in the namespace: " + open(os.path.join(prefix, "error.log")).read())


class SharedBucket:
    """RATE bytes a second for all connections together; it starts full (a burst of 256 KiB)."""

    def __init__(self, capacity=256 * 1024):
        self.capacity = capacity
        self.tokens = float(capacity)
        self.last = time.monotonic()
        self.lock = threading.Lock()

    def take(self, wanted):
        while True:
            with self.lock:
                now = time.monotonic()
                self.tokens = min(self.capacity, self.tokens + (now - self.last) * RATE)
                self.last = now
                if self.tokens >= wanted:
                    self.tokens -= wanted
                    return
                short = (wanted - self.tokens) / RATE
            time.sleep(min(short, 0.05))


def throttling_server(data):
    """A threaded HTTP server answering GET and Range from `data`, every body drawn from one bucket."""
    bucket = SharedBucket()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def do_GET(self):
            path = os.path.join(data, os.path.basename(self.path.split("?")[0]))
            if not os.path.isfile(path):
                self.send_error(404)
                return
            size = os.path.getsize(path)
            start, end = 0, size - 1
            ranged = self.headers.get("Range", "")
            if ranged.startswith("bytes=") and "," not in ranged:
                first, _, last = ranged[6:].partition("-")
                if first:
                    start = int(first)
                    end = min(size - 1, int(last)) if last else size - 1
            if start >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206 if ranged else 200)
            self.send_header("Content-Type", "video/mp4")
            self.send_header("Content-Length", str(end - start + 1))
            self.send_header("ETag", f'"{size}-{int(os.path.getmtime(path))}"')
            self.send_header("Accept-Ranges", "bytes")
            if ranged:
                self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
            self.end_headers()
            with open(path, "rb") as f:
                f.seek(start)
                left = end - start + 1
                while left:
                    chunk = f.read(min(left, 16 * 1024))
                    bucket.take(len(chunk))
                    try:
                        self.wfile.write(chunk)
                    except (BrokenPipeError, ConnectionResetError):
                        return
                    left -= len(chunk)

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def measure(vodapp):
    """The table's rows: (bottleneck, budget, finished, optimum)."""
    rows = []
    work = tempfile.mkdtemp(prefix="vodapp-shaped-")
    os.chmod(work, 0o755)
    data = os.path.join(work, "data")
    names = files(data)
    os.chmod(data, 0o755)
    for name in names:
        os.chmod(os.path.join(data, name), 0o644)
    try:
        if os.geteuid() == 0 and shutil.which("nginx") and shutil.which("tc"):
            with ShapedLink():
                nginx = nginx_inside(os.path.join(work, "nginx"), data, 8080)
                try:
                    for budget in BUDGETS:
                        rows.append(("`tc tbf` 400 kB/s link, nginx in a namespace", budget,
                                     deliver(vodapp, f"http://{INSIDE}:8080", names, budget, work), optimum(budget)))
                finally:
                    nginx.send_signal(signal.SIGQUIT)
                    nginx.wait()
        else:
            print("shaped.py: the namespace needs root, nginx and tc; that row is left out", file=sys.stderr)
        server = throttling_server(data)
        try:
            base = f"http://127.0.0.1:{server.server_address[1]}"
            for budget in BUDGETS:
                rows.append(("a server sharing 400 kB/s among a client's connections", budget,
                             deliver(vodapp, base, names, budget, work), optimum(budget)))
        finally:
            server.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def table(rows):
    sizes = ", ".join(f"{size / MiB:g}" for size in SIZES)
    lines = ["## The budget planner on a real bottleneck", "",
             f"Items of {sizes} MiB, all pushed at once; the optimum is the most of them, smallest first, that "
             f"{RATE // 1000} kB/s carries within the budget (`Benchmarks/shaped.py`):", "",
             "| bottleneck | budget s | items finished | optimum |", "| --- | --- | --- | --- |"]
    lines += [f"| {name} | {budget} | {finished} | {best} |" for name, budget, finished, best in rows]
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vodapp", default=os.path.join(ROOT, ".build/release/vodapp"))
    parser.add_argument("--budgets", default=",".join(map(str, BUDGETS)), help="seconds, comma-separated")
    args = parser.parse_args()
    BUDGETS[:] = [int(budget) for budget in args.budgets.split(",")]
    print("\n".join(table(measure(args.vodapp))))


if __name__ == "__main__":
    main()
