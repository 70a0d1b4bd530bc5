#!/usr/bin/env python3
"""HLS playlists of many tiny segments against the budget and memory (issue 26).

ITEMS items, each a valid VOD HLS playlist of SEGMENTS 188-byte MPEG-TS segments, each served
from a loopback host of its own (127.0.0.1, 127.0.0.2, ...; one Python HTTP/1.1 server per host).

1. `vodapp --budget B` on a payload of the ITEMS items, under `/usr/bin/time -v`: wall time
   (budget + 0.5 s is the promise), peak RSS, exit code and the items' statuses. RUNS times.
2. `vodapp listen` (UDP only): its VmRSS idle, then ROUNDS times DATAGRAMS such payloads (distinct
   keys) sent as UDP datagrams at once; VmRSS is sampled every 50 ms until every delivery of the
   round has reported, then again SETTLE seconds later (with its anonymous part, RssAnon: the heap,
   not the binary's pages). Each delivery's duration is the listener's own `elapsedSeconds`.

Standard library only. Prints a Markdown summary.

    Benchmarks/hls-streams.py [--vodapp .build/release/vodapp] [--items 16] [--segments 20000]
                              [--budget 10] [--runs 3] [--datagrams 4] [--rounds 3]
"""
import argparse, collections, http.server, json, os, re, shutil, socket, socketserver, subprocess
import sys, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--vodapp", default=".build/release/vodapp")
parser.add_argument("--items", type=int, default=16)
parser.add_argument("--segments", type=int, default=20000)
parser.add_argument("--budget", type=float, default=10)
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--datagrams", type=int, default=4)
parser.add_argument("--rounds", type=int, default=3, help="rounds of DATAGRAMS pushes, one after the other")
parser.add_argument("--settle", type=float, default=5, help="seconds after the last delivery before VmRSS is read again")
args = parser.parse_args()

SEGMENT = bytes([0x47]) + bytes(187)
PLAYLIST = ("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD\n"
            + "".join(f"#EXTINF:1.0,\ns{n}.ts\n" for n in range(args.segments))
            + "#EXT-X-ENDLIST\n").encode()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body, kind = (PLAYLIST, "application/vnd.apple.mpegurl") if self.path.endswith(".m3u8") else (SEGMENT, "video/mp2t")
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except OSError:
            pass

    def log_message(self, *_):
        pass


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        pass  # a client that hangs up at its deadline resets the connection: expected


port = None
for host in range(1, args.items + 1):
    server = Server((f"127.0.0.{host}", port or 0), Handler)
    port = port or server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()


def payload(tag):
    return json.dumps({"aps": {"content-available": 1}, "playlist": {
        f"{tag}{n}": {"title": f"Stream {n}", "url": f"http://127.0.0.{n + 1}:{port}/v{n}.m3u8"} for n in range(args.items)}})


environment = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent")
work = tempfile.mkdtemp(prefix="vodapp-hls-")
lines = [f"# HLS streams of {args.segments} segments × {args.items} items, --budget {args.budget:g}", "",
         f"vodapp: `{args.vodapp}`", ""]

# --- 1. one-shot deliveries ----------------------------------------------------------------------
lines += ["| run | wall s | peak RSS MiB | exit | statuses |", "| --- | --- | --- | --- | --- |"]
worst_wall, worst_rss = 0.0, 0
for run in range(args.runs):
    directory = os.path.join(work, f"handle{run}")
    payload_path = os.path.join(work, f"payload{run}.json")
    with open(payload_path, "w") as file:
        file.write(payload(f"h{run}x"))
    started = time.monotonic()
    done = subprocess.run(["/usr/bin/time", "-v", args.vodapp, payload_path, "--dir", directory, "--budget", str(args.budget),
                           "--no-notify", "--json"], capture_output=True, env=environment)
    wall = time.monotonic() - started
    rss = int(re.search(rb"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    exit_code = int(re.search(rb"Exit status: (\d+)", done.stderr).group(1))
    try:
        report = json.loads(done.stdout)
        statuses = collections.Counter(item["status"] for item in report["items"])
        errors = collections.Counter(item.get("error", "")[:90] for item in report["items"])
    except ValueError:
        statuses, errors = collections.Counter({"no report": 1}), collections.Counter()
    worst_wall, worst_rss = max(worst_wall, wall), max(worst_rss, rss)
    lines.append(f"| {run + 1} | {wall:.2f} | {rss / 1024:.1f} | {exit_code} | "
                 + ", ".join(f"{k} {v}" for k, v in sorted(statuses.items())) + " |")
    if run == 0:
        error_lines = [f"  - {count} × {text}" for text, count in errors.most_common(4) if text]
    shutil.rmtree(directory, ignore_errors=True)
lines += ["", f"Worst: {worst_wall:.2f} s (budget + 0.5 = {args.budget + 0.5:g} s), {worst_rss / 1024:.1f} MiB.",
          "First run's errors:"] + error_lines + [""]

# --- 2. the listener -----------------------------------------------------------------------------
def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def vm(pid, field):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


udp_port = free_udp_port()
listener = subprocess.Popen([args.vodapp, "listen", "--udp", f"127.0.0.1:{udp_port}", "--no-http", "--dir",
                             os.path.join(work, "listen"), "--budget", str(args.budget), "--no-notify", "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment)
ready, reports = threading.Event(), []


def read_stdout():
    for line in listener.stdout:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if "listening" in event:
            ready.set()
        elif "delivery" in event:
            reports.append(event.get("report") or {})


threading.Thread(target=read_stdout, daemon=True).start()
if not ready.wait(20):
    raise SystemExit("the listener did not start")
time.sleep(2)
idle, idle_anon = vm(listener.pid, "VmRSS"), vm(listener.pid, "RssAnon")
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
lines += [f"## `vodapp listen`, {args.rounds} rounds of {args.datagrams} datagrams at once", "",
          f"Idle: VmRSS {idle / 1024:.1f} MiB, of which RssAnon {idle_anon / 1024:.1f} MiB.", "",
          "| round | peak VmRSS MiB | VmRSS MiB {:g} s after its last report | after − idle MiB | RssAnon after − idle MiB | deliveries | elapsed s, slowest | all reported after s |".format(args.settle),
          "| --- | --- | --- | --- | --- | --- | --- | --- |"]
for round in range(1, args.rounds + 1):
    before = len(reports)
    for n in range(args.datagrams):
        sender.sendto(payload(f"r{round}u{n}x").encode(), ("127.0.0.1", udp_port))
    peak, started = 0, time.monotonic()
    while len(reports) < before + args.datagrams and time.monotonic() - started < 20 * args.budget:
        peak = max(peak, vm(listener.pid, "VmRSS"))
        time.sleep(0.05)
    ended = time.monotonic() - started
    time.sleep(args.settle)
    after, anon = vm(listener.pid, "VmRSS"), vm(listener.pid, "RssAnon")
    elapsed = [report.get("elapsedSeconds", 0) for report in reports[before:]]
    lines.append(f"| {round} | {peak / 1024:.1f} | {after / 1024:.1f} | {(after - idle) / 1024:.1f} | {(anon - idle_anon) / 1024:.1f} | "
                 f"{len(elapsed)} | {max(elapsed, default=0):.2f} | {ended:.1f} |")
listener.terminate()
listener.wait(10)
shutil.rmtree(work, ignore_errors=True)
print("\n".join(lines))
