#!/usr/bin/env python3
"""`vodapp listen` under load: 10,000 UDP datagrams and 2,000 HTTP posts in bursts, a mix of
valid pushes, duplicates, garbage, pushes that are not background pushes, and oversized bodies.

Checks what the listener promises and writes Benchmarks/LISTEN-LOAD.md:
- it never crashes, and exits 143 on SIGTERM (after the deliveries are done: it waits for them);
- GET /health answers 200 throughout (polled every 50 ms);
- its memory stays bounded (VmRSS sampled every 50 ms; VmHWM at the end);
- every media URL is fetched at most once (duplicates cost nothing);
- every distinct valid HTTP push answered 202 is delivered, exactly once; one answered only 429
  was refused and the sender knows it;
- every UDP datagram is accounted for: delivered, refused by the full queue (logged), dropped as
  invalid (logged), or lost in the kernel's receive buffer before vodapp saw it (UDP has no
  delivery guarantee; the kernel's own counter says how many).

Standard library only. Run through Benchmarks/run-listen-stress, which builds first:

    Benchmarks/listen-stress.py [--vodapp .build/release/vodapp] [--udp 10000] [--http 2000]
"""
import argparse, collections, datetime, http.client, http.server, json, os, platform, random, shutil
import signal, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser()
parser.add_argument("--vodapp", default=os.path.join(ROOT, ".build/release/vodapp"))
parser.add_argument("--udp", type=int, default=10000)
parser.add_argument("--http", type=int, default=2000)
parser.add_argument("--output", default=os.path.join(ROOT, "Benchmarks/LISTEN-LOAD.md"))
parser.add_argument("--time-limit", type=float, default=300, help="seconds the whole run may take")
args = parser.parse_args()
started = time.monotonic()
rng = random.Random(9930)


def free_port(kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- the media server: 1 KiB per path, every request counted --------------------------------
fetches = collections.Counter()
fetch_lock = threading.Lock()
MEDIA = bytes(range(256)) * 4


class Media(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        with fetch_lock:
            fetches[self.path] += 1
        self.send_response(200)
        self.send_header("Content-Length", str(len(MEDIA)))
        self.send_header("ETag", '"m"')
        self.end_headers()
        self.wfile.write(MEDIA)

    def log_message(self, *a):
        pass


http.server.ThreadingHTTPServer.request_queue_size = 256
media = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Media)
media.daemon_threads = True
threading.Thread(target=media.serve_forever, daemon=True).start()
media_base = f"http://127.0.0.1:{media.server_address[1]}"


def push(key, padding=0):
    body = {"aps": {"content-available": 1},
            "playlist": {key: {"title": f"Item {key}", "url": f"{media_base}/m/{key}.mp4"}}}
    if padding:
        body["padding"] = "x" * padding
    return json.dumps(body, separators=(",", ":")).encode()


# --- the listener ------------------------------------------------------------------------------
work = tempfile.mkdtemp(prefix="vodapp-stress-")
media_dir = os.path.join(work, "media")
udp_port, http_port = free_port(socket.SOCK_DGRAM), free_port()
listener = subprocess.Popen(
    [args.vodapp, "listen", "--udp", f"127.0.0.1:{udp_port}", "--http", f"127.0.0.1:{http_port}",
     "--dir", media_dir, "--no-notify", "--json", "--budget", "10"],
    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent"))
deliveries = []          # (from, [keys delivered or present])
log = collections.Counter()
ready = threading.Event()


def read_stdout():
    for line in listener.stdout:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if "listening" in event:
            ready.set()
        elif "delivery" in event:
            report = event.get("report") or {}
            deliveries.append((event.get("from", ""), [(i["key"], i["status"]) for i in report.get("items", [])]))


def read_stderr():
    for line in listener.stderr:
        text = line.decode(errors="replace")
        if "queue is full" in text:
            log["udp refused: queue full" if "from=udp" in text or "udp " in text else "http refused: queue full"] += 1
        elif "dropped a datagram" in text:
            log["udp dropped: invalid"] += 1
        elif "dropped a push" in text:
            log["udp dropped: other"] += 1
        elif "refused a push" in text:
            log["http refused (logged)"] += 1


threading.Thread(target=read_stdout, daemon=True).start()
threading.Thread(target=read_stderr, daemon=True).start()
if not ready.wait(20):
    raise SystemExit("the listener did not start")
pid = listener.pid


def udp_drops():
    """The kernel's drop counter for the listener's UDP socket (/proc/net/udp, last column)."""
    port_hex = f"{udp_port:04X}"
    for line in open("/proc/net/udp").read().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(":" + port_hex):
            return int(fields[-1])
    return 0


# --- watchers: memory and health ---------------------------------------------------------------
running = threading.Event()
running.set()
rss_peak = [0]
health = {"asked": 0, "ok": 0, "failed": 0, "slowest": 0.0}


def watch_memory():
    while running.is_set():
        try:
            for line in open(f"/proc/{pid}/status"):
                if line.startswith("VmRSS:"):
                    rss_peak[0] = max(rss_peak[0], int(line.split()[1]))
        except OSError:
            return
        time.sleep(0.05)


def watch_health():
    while running.is_set():
        asked = time.monotonic()
        health["asked"] += 1
        try:
            connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=2)
            connection.request("GET", "/health")
            response = connection.getresponse()
            response.read()
            connection.close()
            health["ok" if response.status == 200 else "failed"] += 1
        except OSError:
            health["failed"] += 1
        health["slowest"] = max(health["slowest"], time.monotonic() - asked)
        time.sleep(0.05)


threading.Thread(target=watch_memory, daemon=True).start()
threading.Thread(target=watch_health, daemon=True).start()

# --- UDP: bursts of 250 ------------------------------------------------------------------------
udp_kinds = collections.Counter()
udp_valid_keys = []
datagrams = []
for i in range(args.udp):
    roll = rng.random()
    if roll < 0.40 or not udp_valid_keys:
        key = f"u{i:05d}"
        udp_valid_keys.append(key)
        datagrams.append(("valid", push(key)))
    elif roll < 0.60:
        datagrams.append(("duplicate", push(rng.choice(udp_valid_keys))))
    elif roll < 0.80:
        datagrams.append(("garbage", bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 2000)))))
    elif roll < 0.90:
        datagrams.append(("not a push", b'{"aps":{"alert":"hello"},"playlist":{}}'))
    else:
        key = f"u{i:05d}"
        udp_valid_keys.append(key)
        datagrams.append(("valid, 60 KiB", push(key, padding=60 * 1024)))
drops_before = udp_drops()
sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp_started = time.monotonic()
for index, (kind, data) in enumerate(datagrams):
    sender.sendto(data, ("127.0.0.1", udp_port))
    udp_kinds[kind] += 1
    if index % 250 == 249:
        time.sleep(0.1)
udp_seconds = time.monotonic() - udp_started

# --- HTTP: 8 keep-alive connections, bursts ----------------------------------------------------
http_answers = collections.Counter()
http_by_key = collections.defaultdict(list)   # key -> statuses
http_kinds = collections.Counter()
posts = []
http_valid_keys = []
for i in range(args.http):
    roll = rng.random()
    if roll < 0.50 or not http_valid_keys:
        key = f"h{i:05d}"
        http_valid_keys.append(key)
        posts.append(("valid", key, push(key)))
    elif roll < 0.70:
        key = rng.choice(http_valid_keys)
        posts.append(("duplicate", key, push(key)))
    elif roll < 0.85:
        posts.append(("garbage", None, bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 2000)))))
    else:
        posts.append(("oversized", None, b'{"aps":{"content-available":1},"playlist":{},"pad":"' + b"x" * (3 << 19) + b'"}'))
post_lock = threading.Lock()
next_post = [0]


def post_worker():
    connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
    while True:
        with post_lock:
            if next_post[0] >= len(posts):
                return
            kind, key, body = posts[next_post[0]]
            next_post[0] += 1
            burst_end = next_post[0] % 100 == 0
        try:
            connection.request("POST", "/push", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            status = response.status
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
        except OSError:
            status = "error"
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
        with post_lock:
            http_answers[(kind, status)] += 1
            http_kinds[kind] += 1
            if key:
                http_by_key[key].append(status)
        if burst_end:
            time.sleep(0.05)


http_started = time.monotonic()
workers = [threading.Thread(target=post_worker) for _ in range(8)]
for w in workers:
    w.start()
for w in workers:
    w.join()
http_seconds = time.monotonic() - http_started

# --- wait for the queue to drain, then stop ----------------------------------------------------
def idle():
    try:
        connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=2)
        connection.request("GET", "/health")
        state = json.loads(connection.getresponse().read())
        return state.get("waiting") == 0 and state.get("running") == 0
    except (OSError, ValueError):
        return False


while not idle():
    if time.monotonic() - started > args.time_limit:
        raise SystemExit("the listener did not drain within the time limit")
    time.sleep(0.2)
time.sleep(0.5)
kernel_drops = udp_drops() - drops_before
running.clear()
listener.send_signal(signal.SIGTERM)
exit_code = listener.wait(timeout=30)
elapsed = time.monotonic() - started

# --- accounting --------------------------------------------------------------------------------
problems = []
twice = {path: n for path, n in fetches.items() if n > 1}
if twice:
    problems.append(f"{len(twice)} media URLs fetched more than once, e.g. {list(twice.items())[:3]}")
on_disk = {name.rsplit(".", 1)[0] for name in os.listdir(media_dir) if not name.startswith(".")} if os.path.isdir(media_dir) else set()

udp_from = [keys for origin, keys in deliveries if origin.startswith("udp")]
http_from = [keys for origin, keys in deliveries if origin.startswith("http")]
udp_delivered_keys = {k for keys in udp_from for k, status in keys if status in ("downloaded", "alreadyPresent")}
udp_distinct = set(udp_valid_keys)
udp_valid_sent = udp_kinds["valid"] + udp_kinds["duplicate"] + udp_kinds["valid, 60 KiB"]
udp_invalid_sent = udp_kinds["garbage"] + udp_kinds["not a push"]
accounted = len(udp_from) + log["udp refused: queue full"] + log["udp dropped: invalid"] + log["udp dropped: other"] + kernel_drops
if accounted != args.udp:
    problems.append(f"UDP: {args.udp} sent but {accounted} accounted for")
missing_udp = [k for k in udp_delivered_keys if k not in on_disk]
if missing_udp:
    problems.append(f"UDP: {len(missing_udp)} delivered keys have no file")

http_accepted = {k for k, statuses in http_by_key.items() if 202 in statuses}
http_refused_only = {k for k, statuses in http_by_key.items() if 202 not in statuses and statuses and all(s == 429 for s in statuses)}
http_other = set(http_by_key) - http_accepted - http_refused_only
if http_other:
    problems.append(f"HTTP: {len(http_other)} valid pushes got neither 202 nor 429: {[http_by_key[k] for k in list(http_other)[:3]]}")
not_fetched = [k for k in http_accepted if fetches.get(f"/m/{k}.mp4", 0) != 1 or k not in on_disk]
if not_fetched:
    problems.append(f"HTTP: {len(not_fetched)} pushes answered 202 were not delivered exactly once")
wrong = {kind: n for (kind, status), n in http_answers.items()
         if (kind == "garbage" and status != 400) or (kind == "oversized" and status != 413)}
if wrong:
    problems.append(f"HTTP: unexpected answers {wrong}")
if health["failed"]:
    problems.append(f"/health failed {health['failed']} of {health['asked']} times")
if exit_code != 128 + signal.SIGTERM:
    problems.append(f"the listener exited {exit_code}, not 143")
if elapsed > args.time_limit:
    problems.append(f"the run took {elapsed:.0f} s, over the {args.time_limit:.0f} s limit")

# --- report --------------------------------------------------------------------------------------
cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
lines = [
    "# `vodapp listen` under load",
    "",
    "Written by `Benchmarks/run-listen-stress`; rerun it to refresh. One listener (`--budget 10`, the default queue of 16 "
    "waiting and 4 running), a media server answering 1 KiB per URL, every URL distinct per push.",
    "",
    f"- Date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}, vodapp at commit `{commit}`, `{os.path.relpath(args.vodapp, ROOT)}` ({'debug' if '/debug/' in args.vodapp else 'release'} build)",
    f"- Machine: {os.cpu_count()} × {cpu}, {platform.platform()}",
    f"- Whole run: {elapsed:.1f} s; listener exit after SIGTERM: {exit_code}",
    f"- Peak memory (VmRSS, sampled every 50 ms): {rss_peak[0] / 1024:.1f} MiB",
    f"- `/health`: {health['ok']} of {health['asked']} answered 200 during the run; slowest {health['slowest'] * 1000:.0f} ms",
    f"- Media fetched: {sum(fetches.values())} requests for {len(fetches)} URLs; fetched more than once: {len(twice)}",
    "",
    f"## UDP: {args.udp} datagrams in bursts of 250 every 0.1 s ({udp_seconds:.1f} s)",
    "",
    "| sent | count |", "| --- | --- |",
] + [f"| {kind} | {n} |" for kind, n in sorted(udp_kinds.items())] + [
    "",
    "| what became of them | count |", "| --- | --- |",
    f"| delivered (one delivery each) | {len(udp_from)} |",
    f"| refused: the queue was full (logged) | {log['udp refused: queue full']} |",
    f"| dropped as invalid (logged) | {log['udp dropped: invalid'] + log['udp dropped: other']} |",
    f"| lost in the kernel's receive buffer before vodapp read them | {kernel_drops} |",
    f"| **accounted for** | **{accounted}** |",
    "",
    f"Distinct valid pushes: {len(udp_distinct)}; delivered: {len(udp_delivered_keys)}; the rest were refused or lost (UDP tells the sender nothing).",
    "",
    f"## HTTP: {args.http} posts from 8 keep-alive connections, bursts of 100 ({http_seconds:.1f} s)",
    "",
    "| sent | answer | count |", "| --- | --- | --- |",
] + [f"| {kind} | {status} | {n} |" for (kind, status), n in sorted(http_answers.items(), key=lambda x: (x[0][0], str(x[0][1])))] + [
    "",
    f"Distinct valid pushes: {len(http_by_key)}; answered 202 and delivered exactly once: {len(http_accepted) - len(not_fetched)} of {len(http_accepted)}; "
    f"answered only 429 (refused, and the sender knows): {len(http_refused_only)}.",
    "",
    "## Verdict",
    "",
    ("All checks held." if not problems else "Problems:\n" + "\n".join(f"- {p}" for p in problems)),
]
open(args.output, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if problems else 0)
