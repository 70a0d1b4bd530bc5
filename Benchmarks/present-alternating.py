#!/usr/bin/env python3
"""Compares vodapp binaries on a delivery whose items are all already present, alternating them
run by run, because on a shared machine hyperfine's back-to-back batches drift more than the
difference being measured.

  Benchmarks/present-alternating.py OLD_VODAPP NEW_VODAPP [--items 1000] [--runs 150] [--no-work-area]

It makes a DIR of N `kNNNN.mp4` files and a payload naming them, delivers once with the last binary
(so the store and the playlist exist, unless --no-work-area), then prints each binary's median
wall and CPU time (user + system) per run.
"""
import argparse, json, os, shutil, statistics, tempfile, time

parser = argparse.ArgumentParser()
parser.add_argument("binaries", nargs="+")
parser.add_argument("--items", type=int, default=1000)
parser.add_argument("--runs", type=int, default=150)
parser.add_argument("--no-work-area", action="store_true")
options = parser.parse_args()

scratch = tempfile.mkdtemp(prefix="vodapp-present-")
directory = os.path.join(scratch, "dir")
os.mkdir(directory)
playlist = {}
for index in range(options.items):
    key = "k%04d" % index
    playlist[key] = {"title": "Video %d" % index, "url": "http://127.0.0.1:9/%s.mp4" % key}
    with open(os.path.join(directory, key + ".mp4"), "w") as file:
        file.write("x")
payload = os.path.join(scratch, "payload.json")
with open(payload, "w") as file:
    json.dump({"aps": {"content-available": 1}, "playlist": playlist}, file)
arguments = [payload, "--dir", directory, "--no-notify", "--json"]

def run(binary):
    started = time.perf_counter()
    pid = os.posix_spawn(binary, [binary] + arguments, os.environ,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0)])
    _, status, usage = os.wait4(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, binary
    return (time.perf_counter() - started) * 1000, (usage.ru_utime + usage.ru_stime) * 1000

if not options.no_work_area:
    os.makedirs(os.path.join(directory, ".vodapp", "partial"))
    run(options.binaries[-1])

wall = {binary: [] for binary in options.binaries}
cpu = {binary: [] for binary in options.binaries}
for round in range(options.runs):
    order = options.binaries if round % 2 == 0 else list(reversed(options.binaries))
    for binary in order:
        seconds, used = run(binary)
        wall[binary].append(seconds)
        cpu[binary].append(used)
for binary in options.binaries:
    print(f"{binary}: wall median {statistics.median(wall[binary]):.1f} ms, "
          f"cpu median {statistics.median(cpu[binary]):.1f} ms ({options.runs} runs, {options.items} items present)")
shutil.rmtree(scratch)
