import Testing
import VODAppModel
import VODAppTransferPolicy

/// The transfer loop's waiting line as a pure value: which request starts next, with the
/// per-host limit, requests put in front, cancelled ones, and hosts that will not be tried.
@Suite struct TransferQueueTests {
    private func entry(_ id: String, host: String = "a", attempt: Int = 1) throws -> TransferQueue.Entry {
        let url = try MediaURL("http://\(host).test/\(id)")
        return TransferQueue.Entry(request: TransferRequest(id: id, url: url, temporaryPath: "/nonexistent/\(id)", maximumSize: 1),
                                   attempt: attempt)
    }

    private func url(_ host: String) throws -> MediaURL { try MediaURL("http://\(host).test/") }

    /// Takes every entry `next` hands out now.
    private func drain(_ queue: inout TransferQueue) -> [String] {
        var ids: [String] = []
        while let next = queue.next() { ids.append(next.request.id) }
        return ids
    }

    @Test func requestsStartInOrderUpToThePerHostLimit() throws {
        var queue = TransferQueue(perHost: 2)
        for id in ["a1", "a2", "a3"] { queue.append(try entry(id, host: "a")) }
        queue.append(try entry("b1", host: "b"))
        // a3 waits for a slot of its host; b1, after it in line, starts meanwhile.
        #expect(drain(&queue) == ["a1", "a2", "b1"])
        #expect(queue.count == 1)
        let blocked = !queue.canStart()
        #expect(blocked)
        queue.ended(try url("a"))
        let free = queue.canStart()
        #expect(free)
        #expect(drain(&queue) == ["a3"])
        #expect(queue.isEmpty)
    }

    @Test func whenSeveralHostsHaveRoomTheEarliestInLineStarts() throws {
        var queue = TransferQueue(perHost: 1)
        for (id, host) in [("a1", "a"), ("a2", "a"), ("b1", "b"), ("b2", "b"), ("c1", "c")] { queue.append(try entry(id, host: host)) }
        #expect(drain(&queue) == ["a1", "b1", "c1"])
        // b's slot frees before a's: b2 starts, though a2 was in line first.
        queue.ended(try url("b"))
        #expect(drain(&queue) == ["b2"])
        queue.ended(try url("a"))
        #expect(drain(&queue) == ["a2"])
    }

    @Test func aRequestPutInFrontStartsBeforeTheOthersOfItsHostAndOfOtherHosts() throws {
        var queue = TransferQueue(perHost: 4)
        queue.append(try entry("a1", host: "a"))
        queue.append(try entry("b1", host: "b"))
        queue.prepend(try entry("retry", host: "b", attempt: 2))
        queue.prepend(try entry("redirect", host: "c"))
        let started = [queue.next(), queue.next(), queue.next(), queue.next()].compactMap { $0 }
        #expect(started.map(\.request.id) == ["redirect", "retry", "a1", "b1"])
        #expect(started[1].attempt == 2)
    }

    @Test func cancelledRequestsNeverStartAndOthersAreNotAffected() throws {
        var queue = TransferQueue(perHost: 1)
        for id in ["a1", "a2", "a3", "a4"] { queue.append(try entry(id, host: "a")) }
        queue.append(try entry("b1", host: "b"))
        let a1 = queue.next()?.request.id
        #expect(a1 == "a1")
        // a1 is running, not waiting: cancelling it here does nothing to the line.
        queue.cancel(["a1", "a2", "a3", "b1"])
        #expect(queue.count == 1)
        let none = queue.next()
        #expect(none == nil)
        queue.ended(try url("a"))
        #expect(drain(&queue) == ["a4"])
        #expect(queue.isEmpty)
    }

    @Test func aHostsRequestsCanBeTakenOutTogetherInOrder() throws {
        var queue = TransferQueue(perHost: 1)
        for (id, host) in [("a1", "a"), ("b1", "b"), ("a2", "a"), ("a3", "a")] { queue.append(try entry(id, host: host)) }
        queue.cancel(["a2"])
        let taken = queue.removeAll(host: "a.test:80").map(\.request.id)
        #expect(taken == ["a1", "a3"])
        #expect(drain(&queue) == ["b1"])
        #expect(queue.isEmpty)
    }

    @Test func everythingLeftComesOutInTheOrderItWouldHaveStarted() throws {
        var queue = TransferQueue(perHost: 1)
        for (id, host) in [("a1", "a"), ("a2", "a"), ("b1", "b"), ("b2", "b")] { queue.append(try entry(id, host: host)) }
        queue.prepend(try entry("first", host: "b"))
        let first = queue.next()?.request.id
        #expect(first == "first")
        let rest = queue.removeAll().map(\.request.id)
        #expect(rest == ["a1", "a2", "b1", "b2"])
        let none = queue.next()
        #expect(queue.isEmpty && none == nil)
    }

    /// Tens of thousands waiting behind one busy host: what starts next is found without a walk
    /// through all of them, and in the same order as before.
    @Test func aLongLineBehindABusyHostKeepsItsOrder() throws {
        var queue = TransferQueue(perHost: 6)
        for number in 0..<20_000 { queue.append(try entry("s\(number)", host: "busy")) }
        queue.append(try entry("other", host: "quiet"))
        #expect(drain(&queue) == ["s0", "s1", "s2", "s3", "s4", "s5", "other"])
        var order: [String] = []
        for _ in 0..<19_994 {
            queue.ended(try url("busy"))
            guard let next = queue.next() else { break }
            order.append(next.request.id)
        }
        #expect(order == (6..<20_000).map { "s\($0)" })
        #expect(queue.isEmpty)
    }
}
