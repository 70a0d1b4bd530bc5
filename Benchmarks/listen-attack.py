#!/usr/bin/env python3
"""`vodapp listen` against the attack that grew the release binary to 2 GB (issue 14), and its stop.

1. The listener starts under a descriptor limit of 1,024 (soft and hard, as `ulimit -n 1024` sets
   them) with a webhook secret. N connections (1,500 by default) each declare a signed
   `Content-Length: 1048576` body, send all of it but one byte, and wait.
2. Meanwhile: its VmRSS is sampled every 50 ms, `GET /health` is timed every 100 ms from fresh
   connections, and one correctly signed push is sent (retrying on 503 as Retry-After says) and
   must be delivered.
3. Then a push whose media trickles; once its transfer is under way, SIGINT. The time to the
   listener's exit and its exit code (130) are measured, and what it kept to resume.

Standard library only; the media server is Python's. Prints a Markdown summary.

    Benchmarks/listen-attack.py [--vodapp .build/release/vodapp] [--connections 1500] [--nofile 1024]
"""
import argparse, hashlib, hmac, http.client, http.server, json, os, resource, select, signal, socket
import shutil, statistics, subprocess, sys, tempfile, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--vodapp", default=".build/release/vodapp")
parser.add_argument("--connections", type=int, default=1500)
parser.add_argument("--nofile", type=int, default=1024)
parser.add_argument("--hold", type=float, default=15, help="seconds the attack is watched")
args = parser.parse_args()

# The attacker's own descriptors: one per connection.
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

SECRET = b"bench-secret"
MEDIA = bytes(range(256)) * 4096  # 1 MiB


class Media(http.server.BaseHTTPRequestHandler):
    """/fast: 1 MiB at once; /slow: 8 MiB trickled at 256 KiB/s, honouring a Range."""

    def do_GET(self):
        slow = self.path.startswith("/slow")
        body = MEDIA * (8 if slow else 1)
        start = 0
        if slow and self.headers.get("Range", "").startswith("bytes="):
            start = int(self.headers["Range"][6:].split("-")[0])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", "video/mp4")
        self.send_header("Content-Length", str(len(body) - start))
        self.send_header("ETag", '"bench"')
        self.send_header("Last-Modified", "Mon, 02 Nov 2026 10:00:00 GMT")
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        try:
            for offset in range(start, len(body), 16384):
                self.wfile.write(body[offset:offset + 16384])
                if slow:
                    time.sleep(16384 / (256 * 1024))
        except OSError:
            pass

    def log_message(self, *_):
        pass


media = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Media)
threading.Thread(target=media.serve_forever, daemon=True).start()
media_url = f"http://127.0.0.1:{media.server_address[1]}"


def payload(key, path):
    return json.dumps({"aps": {"content-available": 1},
                       "playlist": {key: {"title": key, "url": media_url + path}}}).encode()


def rss(pid, field="VmRSS"):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None


def post(port, body, secret=SECRET):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    signature = "sha256=" + hmac.new(secret, body, hashlib.sha256).hexdigest()
    connection.request("POST", "/push", body, {"X-Hub-Signature-256": signature, "Content-Type": "application/json"})
    answer = connection.getresponse()
    data = answer.read()
    connection.close()
    return answer.status, data


def start_listener(directory):
    command = ["prlimit", f"--nofile={args.nofile}:{args.nofile}", "--", args.vodapp, "listen", "--no-udp",
               "--http", "127.0.0.1:0", "--dir", directory, "--json", "--no-notify"]
    environment = dict(os.environ, VODAPP_WEBHOOK_SECRET=SECRET.decode())
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=environment, text=True)
    ready = json.loads(process.stdout.readline())
    port = int(ready["listening"][0].rsplit(":", 1)[1].split("/")[0])
    return process, port


def wait_for_delivery(process, timeout=30):
    readable, _, _ = select.select([process.stdout], [], [], timeout)
    return json.loads(process.stdout.readline()) if readable else None


scratch = tempfile.mkdtemp(prefix="listen-attack-")
listener, port = start_listener(os.path.join(scratch, "media"))
idle_rss = rss(listener.pid)

# --- the attack ---------------------------------------------------------------------------------
samples, health = [], []
running = threading.Event()
running.set()


def sample():
    while running.is_set():
        value = rss(listener.pid)
        if value:
            samples.append(value)
        time.sleep(0.05)


def poll_health():
    while running.is_set():
        began = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/health")
            status = connection.getresponse().status
            connection.close()
        except OSError:
            status = 0
        health.append((status, time.monotonic() - began))
        time.sleep(0.1)


threading.Thread(target=sample, daemon=True).start()
threading.Thread(target=poll_health, daemon=True).start()

head = (b"POST /push HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048576\r\n"
        b"X-Hub-Signature-256: sha256=" + b"0" * 64 + b"\r\n\r\n")
attackers, refused_at_connect = [], 0
attack_started = time.monotonic()
for _ in range(args.connections):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.setblocking(False)
        attackers.append([s, head + b"{" * 1048575])
    except OSError:
        refused_at_connect += 1
# Feed the bodies without blocking on any one connection.
deadline = time.monotonic() + 10
while time.monotonic() < deadline and any(data for _, data in attackers):
    for entry in attackers:
        s, data = entry
        if data:
            try:
                sent = s.send(data[:65536])
                entry[1] = data[sent:]
            except BlockingIOError:
                pass
            except OSError:
                entry[1] = b""
attack_sent = time.monotonic() - attack_started

push_began = time.monotonic()
status, _ = post(port, payload("fast", "/fast"))
while status == 503 and time.monotonic() - push_began < 30:
    time.sleep(1)
    status, _ = post(port, payload("fast", "/fast"))
push_accepted = time.monotonic() - push_began
delivery = wait_for_delivery(listener)
push_delivered = time.monotonic() - push_began

time.sleep(max(0.0, args.hold - (time.monotonic() - attack_started)))
running.clear()
time.sleep(0.2)
closed_by_listener = 0
answered_503 = 0
for s, _ in attackers:
    answer = b""
    try:
        while True:
            data = s.recv(65536)
            if not data:
                closed_by_listener += 1
                break
            answer += data
    except BlockingIOError:
        pass
    except OSError:
        closed_by_listener += 1
    answered_503 += answer.startswith(b"HTTP/1.1 503")
    s.close()
peak_rss = rss(listener.pid, "VmHWM")
after_rss = rss(listener.pid)
alive = listener.poll() is None

# --- the stop -------------------------------------------------------------------------------------
status, _ = post(port, payload("slow", "/slow"))
time.sleep(1.5)  # the transfer is under way: about 384 KiB of 8 MiB
stop_sent = time.monotonic()
listener.send_signal(signal.SIGINT)
try:
    stop_code = listener.wait(timeout=40)
except subprocess.TimeoutExpired:
    listener.kill()
    stop_code = f"none within 40 s (killed, {listener.wait()})"
stop_time = time.monotonic() - stop_sent
partials = []
for root, _, files in os.walk(os.path.join(scratch, "media", ".vodapp")):
    partials += [os.path.getsize(os.path.join(root, name)) for name in files if "partial" in root]

latencies = sorted(seconds for status, seconds in health if status == 200)
failures = sum(1 for status, _ in health if status != 200)
mib = lambda value: f"{value / (1 << 20):.0f} MiB" if value else "?"
ms = lambda value: f"{value * 1000:.1f} ms"
print(f"""## vodapp listen under {args.connections} slow 1 MiB bodies, descriptors limited to {args.nofile}

- binary: `{args.vodapp}`; attack: {len(attackers)} connections opened ({refused_at_connect} refused at connect), bodies sent in {attack_sent:.1f} s, watched {args.hold:.0f} s
- RSS: {mib(idle_rss)} idle, peak (VmHWM) {mib(peak_rss)}, {mib(after_rss)} after; sampled max {mib(max(samples) if samples else 0)}
- listener alive throughout: {alive}; attacker connections answered 503 at once: {answered_503}; closed by the listener by the end: {closed_by_listener} of {len(attackers)}
- `/health`: {len(health)} polls, {failures} failed; latency p50 {ms(statistics.median(latencies)) if latencies else '?'}, p95 {ms(latencies[int(len(latencies) * 0.95) - 1]) if latencies else '?'}, max {ms(latencies[-1]) if latencies else '?'}
- a signed push during the attack: accepted after {push_accepted:.2f} s, delivered after {push_delivered:.2f} s ({(delivery or {}).get('report', {}).get('result')})
- SIGINT mid-transfer: exit {stop_code} after {ms(stop_time)}; partial kept: {sum(partials)} bytes in {len(partials)} file(s)
""")
media.shutdown()
shutil.rmtree(scratch, ignore_errors=True)
