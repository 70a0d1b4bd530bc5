#!/usr/bin/env python3
"""What joining an HLS item's segments into one MP4 costs (issue 27): time and peak memory.

Makes a clip of about 20 MiB with ffmpeg (1280x720 H.264 at 5 Mb/s and AAC, SECONDS long), cuts it
into an HLS VOD of 6-second MPEG-TS segments, and serves both (the clip as a plain file, the HLS
playlist and segments) from nginx on loopback. Then runs `vodapp` RUNS times on each, alternating,
every run into a new DIR, under `/usr/bin/time -v`:

- the mux's own time: the `muxSeconds` of the `HLS` log line `--verbose` prints (libavformat
  reading every segment, writing the MP4, and its +faststart rewrite);
- peak RSS of the HLS run, and of the plain file's run, whose difference is what fetching segments
  and muxing them adds to a delivery of the same bytes.

Standard library, ffmpeg and nginx only. Prints a Markdown summary.

    Benchmarks/mux.py [--vodapp .build/release/vodapp] [--runs 7] [--seconds 30]
"""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("--vodapp", default=".build/release/vodapp")
parser.add_argument("--runs", type=int, default=7)
parser.add_argument("--seconds", type=int, default=30)
args = parser.parse_args()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_nginx(prefix, root, port):
    os.makedirs(os.path.join(prefix, "tmp"), exist_ok=True)
    conf = os.path.join(prefix, "nginx.conf")
    with open(conf, "w") as file:
        file.write(f"""
worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{ worker_connections 1024; }}
http {{
    types {{ application/vnd.apple.mpegurl m3u8; video/mp2t ts; video/mp4 mp4; }}
    access_log off;
    client_body_temp_path {prefix}/tmp;
    sendfile on;
    server {{ listen 127.0.0.1:{port}; root {root}; location / {{ }} }}
}}
""")
    process = subprocess.Popen(["nginx", "-c", conf, "-p", prefix, "-g", "daemon off;"])
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process
        except OSError:
            time.sleep(0.05)
    raise SystemExit("nginx did not start")


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-v", "error", "-y", *arguments], check=True)


work = tempfile.mkdtemp(prefix="vodapp-mux-")
root = os.path.join(work, "www")
os.makedirs(os.path.join(root, "hls"))
os.chmod(work, 0o755)
clip = os.path.join(root, "clip.mp4")
ffmpeg("-f", "lavfi", "-i", f"testsrc2=size=1280x720:rate=25:duration={args.seconds}",
       "-f", "lavfi", "-i", f"sine=frequency=440:duration={args.seconds}",
       "-c:v", "libx264", "-preset", "ultrafast", "-b:v", "5200k", "-maxrate", "5200k", "-bufsize", "2M", "-g", "50",
       "-c:a", "aac", "-b:a", "128k", "-shortest", "-movflags", "+faststart", clip)
ffmpeg("-i", clip, "-c", "copy", "-f", "hls", "-hls_time", "6", "-hls_playlist_type", "vod",
       "-hls_segment_filename", os.path.join(root, "hls", "s%03d.ts"), os.path.join(root, "hls", "index.m3u8"))
segments = [name for name in os.listdir(os.path.join(root, "hls")) if name.endswith(".ts")]
segment_bytes = sum(os.path.getsize(os.path.join(root, "hls", name)) for name in segments)
for folder, _, files in os.walk(work):
    os.chmod(folder, 0o755)
    for name in files:
        os.chmod(os.path.join(folder, name), 0o644)
port = free_port()
nginx = start_nginx(os.path.join(work, "nginx"), root, port)
environment = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent")


def deliver(kind, run):
    url = f"http://127.0.0.1:{port}/" + ("hls/index.m3u8" if kind == "hls" else "clip.mp4")
    payload = os.path.join(work, f"{kind}{run}.json")
    with open(payload, "w") as file:
        json.dump({"aps": {"content-available": 1}, "playlist": {"item": {"title": "Clip", "url": url}}}, file)
    directory = os.path.join(work, f"dir-{kind}{run}")
    done = subprocess.run(["/usr/bin/time", "-v", args.vodapp, payload, "--dir", directory, "--no-notify", "--json", "--verbose"],
                          capture_output=True, env=environment)
    report = json.loads(done.stdout)
    item = report["items"][0]
    if item["status"] != "downloaded":
        raise SystemExit(f"{kind} run {run}: {item}")
    rss = int(re.search(rb"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    mux = re.search(rb"muxSeconds=([0-9.]+)", done.stderr)
    placed = item["bytes"]
    shutil.rmtree(directory, ignore_errors=True)
    return rss, (float(mux.group(1)) if mux else None), placed


try:
    hls, plain = [], []
    for run in range(args.runs):
        hls.append(deliver("hls", run))
        plain.append(deliver("plain", run))
finally:
    nginx.send_signal(signal.SIGQUIT)
    nginx.wait()
    shutil.rmtree(work, ignore_errors=True)

mux_ms = [m * 1000 for _, m, _ in hls]
hls_rss = [r / 1024 for r, _, _ in hls]
plain_rss = [r / 1024 for r, _, _ in plain]
added = [h - p for h, p in zip(hls_rss, plain_rss)]
MiB = 1 << 20
lines = [f"# Muxing an HLS item of {segment_bytes / MiB:.1f} MiB ({len(segments)} MPEG-TS segments) into one MP4", "",
         f"vodapp: `{args.vodapp}`; {args.runs} runs of each, alternating; the placed MP4 is "
         f"{hls[0][2] / MiB:.1f} MiB, the plain clip {plain[0][2] / MiB:.1f} MiB.", "",
         "| | median | min | max |", "| --- | --- | --- | --- |",
         f"| mux ms (`muxSeconds`) | {statistics.median(mux_ms):.0f} | {min(mux_ms):.0f} | {max(mux_ms):.0f} |",
         f"| peak RSS MiB, HLS item | {statistics.median(hls_rss):.1f} | {min(hls_rss):.1f} | {max(hls_rss):.1f} |",
         f"| peak RSS MiB, the same clip as a plain file | {statistics.median(plain_rss):.1f} | {min(plain_rss):.1f} | {max(plain_rss):.1f} |",
         f"| what the HLS item adds, MiB (run by run) | {statistics.median(added):.1f} | {min(added):.1f} | {max(added):.1f} |"]
print("\n".join(lines))
