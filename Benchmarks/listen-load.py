#!/usr/bin/env python3
"""Drives `vodapp listen` with COUNT signed or unsigned HTTP pushes (POST /push?wait=1, so each
answer means a finished delivery) from CONCURRENCY keep-alive connections, and prints the
deliveries per second and the answers' status codes. Standard library only.

    Benchmarks/listen-load.py --port 9931 --payload push.json --count 10000 --concurrency 4
"""
import argparse, collections, hashlib, hmac, http.client, threading, time

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=9931)
parser.add_argument("--payload", required=True)
parser.add_argument("--count", type=int, default=10000)
parser.add_argument("--concurrency", type=int, default=4)
parser.add_argument("--secret")
args = parser.parse_args()

body = open(args.payload, "rb").read()
headers = {"Content-Type": "application/json"}
if args.secret:
    headers["X-Hub-Signature-256"] = "sha256=" + hmac.new(args.secret.encode(), body, hashlib.sha256).hexdigest()

statuses = collections.Counter()
lock = threading.Lock()
remaining = [args.count]

def worker():
    connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
    while True:
        with lock:
            if remaining[0] == 0:
                return
            remaining[0] -= 1
        connection.request("POST", "/push?wait=1", body, headers)
        response = connection.getresponse()
        response.read()
        with lock:
            statuses[response.status] += 1

started = time.monotonic()
threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
for thread in threads: thread.start()
for thread in threads: thread.join()
elapsed = time.monotonic() - started
print(f"{args.count} pushes in {elapsed:.2f} s: {args.count / elapsed:.0f} deliveries/s; statuses {dict(statuses)}")
