import NIOConcurrencyHelpers

/// Every request the sample server has seen, shared between its event loops and its owner.
final class SampleRequestLog: Sendable {
    private let records = NIOLockedValueBox<[SampleRequestRecord]>([])

    func begin(_ record: SampleRequestRecord) -> Int {
        records.withLockedValue { records in
            records.append(record)
            return records.count - 1
        }
    }

    func addBody(_ count: Int, at index: Int) {
        records.withLockedValue { $0[index].bodyBytesSent += Int64(count) }
    }

    func end(at index: Int) {
        records.withLockedValue { records in
            if records[index].ended == nil { records[index].ended = .now }
        }
    }

    /// How many requests for `target` have begun, this one included.
    func count(target: String) -> Int {
        records.withLockedValue { $0.count { $0.target == target } }
    }

    var all: [SampleRequestRecord] {
        records.withLockedValue { $0 }
    }
}
