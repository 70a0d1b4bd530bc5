import Synchronization

/// Every request the sample server has seen, shared between its event loops and its owner.
final class SampleRequestLog: Sendable {
    private let records = Mutex<[SampleRequestRecord]>([])

    func begin(_ record: SampleRequestRecord) -> Int {
        records.withLock { records in
            records.append(record)
            return records.count - 1
        }
    }

    func addBody(_ count: Int, at index: Int) {
        records.withLock { $0[index].bodyBytesSent += Int64(count) }
    }

    func end(at index: Int) {
        records.withLock { records in
            if records[index].ended == nil { records[index].ended = .now }
        }
    }

    /// How many requests for `target` have begun, this one included.
    func count(target: String) -> Int {
        records.withLock { $0.count { $0.target == target } }
    }

    var all: [SampleRequestRecord] {
        records.withLock { $0 }
    }
}
