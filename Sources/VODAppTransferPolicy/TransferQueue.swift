import VODAppBase
import VODAppModel

/// The requests of a run that wait for a slot, in the order they are to start, and the rule that
/// picks the next: the first one whose host (`host:port`) has fewer than `perHost` transfers
/// running, not merely the first.
///
/// Each operation costs O(log n) however many wait: an HLS item of thousands of segments on a
/// host whose slots are all taken must not make every turn of the transfer loop look at each of
/// them (a line per host, and a heap of the hosts that have room, by their first request's place).
/// A pure value: the engine tells it when a host's transfers start and end.
package struct TransferQueue {
    package struct Entry {
        package let request: TransferRequest
        /// Which attempt it will be, from 1.
        package let attempt: Int

        package init(request: TransferRequest, attempt: Int) {
            self.request = request
            self.attempt = attempt
        }
    }

    /// An entry and its place in the whole order: lower starts first.
    private struct Placed {
        let place: Int
        let entry: Entry
    }

    /// One host's waiting entries in order, and how many of its transfers run.
    private struct Line {
        /// Entries put in front, the first last.
        var front: [Placed] = []
        var back: [Placed] = []
        var backStart = 0
        var running = 0

        var first: Placed? { front.last ?? (backStart < back.count ? back[backStart] : nil) }
        var isEmpty: Bool { front.isEmpty && backStart == back.count }

        mutating func removeFirst() -> Placed? {
            if let first = front.popLast() { return first }
            guard backStart < back.count else { return nil }
            let first = back[backStart]
            backStart += 1
            if backStart == back.count {
                back = []
                backStart = 0
            } else if backStart >= 64 && backStart * 2 >= back.count {
                // What was taken is let go once it is most of the array.
                back.removeFirst(backStart)
                backStart = 0
            }
            return first
        }

        mutating func removeAll() -> [Placed] {
            defer {
                front = []
                back = []
                backStart = 0
            }
            return front.reversed() + back[backStart...]
        }
    }

    /// A host with room and a first entry at `place`, when it was put in the heap; stale once
    /// that entry has gone or the host has no room, and then passed over.
    private struct Candidate {
        let place: Int
        let host: String
    }

    package let perHost: Int
    private var lines: [String: Line] = [:]
    private var candidates = MinimumHeap<Candidate> { $0.place < $1.place }
    /// The place of each waiting request, by id: what `cancel` finds them by.
    private var places: [String: Int] = [:]
    /// Places of cancelled entries still in a line: they are dropped when they reach its front.
    private var cancelled: Set<Int> = []
    private var nextBack = 0
    private var nextFront = -1

    package init(perHost: Int) {
        self.perHost = max(1, perHost)
    }

    /// Requests waiting, cancelled ones not counted.
    package var count: Int { places.count }
    package var isEmpty: Bool { places.isEmpty }

    /// Queues `entry` after every other.
    package mutating func append(_ entry: Entry) {
        add(Placed(place: nextBack, entry: entry), inFront: false)
        nextBack += 1
    }

    /// Queues `entry` before every other: a retry, a redirect's next hop, a restored transfer.
    package mutating func prepend(_ entry: Entry) {
        add(Placed(place: nextFront, entry: entry), inFront: true)
        nextFront -= 1
    }

    private mutating func add(_ placed: Placed, inFront: Bool) {
        let host = placed.entry.request.url.endpoint
        if let earlier = places.updateValue(placed.place, forKey: placed.entry.request.id) {
            // The same id queued twice: the older one goes.
            cancelled.insert(earlier)
        }
        // Taken out and put back, not copied: a copy of a long line is a copy of its arrays.
        var line = lines.removeValue(forKey: host) ?? Line()
        if inFront { line.front.append(placed) } else { line.back.append(placed) }
        lines[host] = line
        if line.running < perHost, line.first?.place == placed.place {
            candidates.insert(Candidate(place: placed.place, host: host))
        }
    }

    /// The next entry to start, counted as running on its host until `ended` is called for it;
    /// nil when none can start now.
    package mutating func next() -> Entry? {
        guard let host = firstHostWithRoom(), var line = lines.removeValue(forKey: host) else { return nil }
        guard let first = line.removeFirst() else {
            lines[host] = line
            return nil
        }
        _ = candidates.removeFirst()
        places[first.entry.request.id] = nil
        line.running += 1
        settle(&line, host: host)
        return first.entry
    }

    /// Whether `next` would return an entry.
    package mutating func canStart() -> Bool { firstHostWithRoom() != nil }

    /// A transfer of `url`'s host that `next` handed out has ended, or was never started.
    package mutating func ended(_ url: MediaURL) {
        let host = url.endpoint
        guard var line = lines.removeValue(forKey: host) else { return }
        // A host that had room has a candidate already.
        let wasFull = line.running >= perHost
        line.running = max(0, line.running - 1)
        settle(&line, host: host, offer: wasFull)
    }

    /// Drops the waiting requests with these ids; requests not waiting are not affected.
    package mutating func cancel(_ ids: Set<String>) {
        for id in ids {
            if let place = places.removeValue(forKey: id) { cancelled.insert(place) }
        }
    }

    /// Takes every waiting request of `host` out, in order.
    package mutating func removeAll(host: String) -> [Entry] {
        guard var line = lines.removeValue(forKey: host) else { return [] }
        let taken = take(line.removeAll())
        settle(&line, host: host)
        return taken
    }

    /// Takes every waiting request out, in the order they would have started.
    package mutating func removeAll() -> [Entry] {
        var all: [Placed] = []
        for host in lines.keys {
            all += lines[host]?.removeAll() ?? []
        }
        lines = [:]
        _ = candidates.removeAll()
        return take(all.sorted { $0.place < $1.place })
    }

    private mutating func take(_ placed: [Placed]) -> [Entry] {
        placed.compactMap { placed in
            if cancelled.remove(placed.place) != nil { return nil }
            places[placed.entry.request.id] = nil
            return placed.entry
        }
    }

    /// The host whose first entry is the first of all among hosts with room; stale candidates
    /// met on the way are dropped.
    private mutating func firstHostWithRoom() -> String? {
        while let candidate = candidates.first {
            if let first = lines[candidate.host]?.first, cancelled.contains(first.place),
               var line = lines.removeValue(forKey: candidate.host) {
                // Its first entry was cancelled: the next one is its candidate now.
                _ = candidates.removeFirst()
                settle(&line, host: candidate.host)
                continue
            }
            if let line = lines[candidate.host], line.running < perHost, line.first?.place == candidate.place {
                return candidate.host
            }
            _ = candidates.removeFirst()
        }
        return nil
    }

    private mutating func dropCancelled(_ line: inout Line) {
        while let first = line.first, cancelled.contains(first.place) {
            cancelled.remove(first.place)
            _ = line.removeFirst()
        }
    }

    /// Stores `line` after a change, making its host a candidate again if it has room, and
    /// forgetting a host with nothing waiting or running.
    private mutating func settle(_ line: inout Line, host: String, offer: Bool = true) {
        let before = line.first?.place
        dropCancelled(&line)
        if line.isEmpty && line.running == 0 {
            lines[host] = nil
            return
        }
        lines[host] = line
        if offer || line.first?.place != before, line.running < perHost, let first = line.first {
            candidates.insert(Candidate(place: first.place, host: host))
        }
    }
}
