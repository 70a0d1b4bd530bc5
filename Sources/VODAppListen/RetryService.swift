import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import VODAppBase
import VODAppDelivery
import VODAppDeliveryPolicy

/// A listener's retries without a push: items left unfinished (cut by the budget, failed for a
/// while, deferred on a metered connection or in power saver) are delivered again when their
/// next try is due or the condition that deferred them clears (`RetrySchedule`), through the
/// same queue as pushes, so a box on a slow link finishes what it was sent with no second push.
///
/// It looks at the store when it starts, when a delivery ends, and when the schedule says; at
/// least every `longestSleep`, for records another process made (a `vodapp handle` run on the
/// same DIR).
final class RetryService: Service, Sendable {
    /// The longest the service sleeps between looks.
    static let longestSleep: Duration = .seconds(300)
    /// How long a full queue is given before the retry is offered again.
    static let fullQueueWait: Duration = .seconds(5)

    private let options: DeliveryOptions
    private let queue: DeliveryQueue
    private let logger: Logger
    private let attention: Attention
    private let wakes: AsyncStream<Void>
    private let waker: AsyncStream<Void>.Continuation

    /// What wakes the service for a look at the store: yield to it when a delivery ends.
    static func wakeUps() -> (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) {
        AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// - Parameter wakes: from `wakeUps()`; the queue yields to its continuation as each delivery
    ///   ends, since what it left may be due.
    init(options: DeliveryOptions, queue: DeliveryQueue, wakes: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation),
         logger: Logger, attention: Attention) {
        self.options = options
        self.queue = queue
        self.logger = logger
        self.attention = attention
        (self.wakes, waker) = wakes
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            await loop()
        } onGracefulShutdown: {
            self.waker.finish()
        }
    }

    private func loop() async {
        var retried: [String: Date] = [:]
        var storeWarned = false
        var wakeUps = wakes.makeAsyncIterator()
        while true {
            var sleep = Self.longestSleep
            do throws(RetrySchedule.Unreadable) {
                let schedule = try await RetrySchedule.now(for: options, busy: queue.busyKeys, retried: retried)
                storeWarned = false
                let now = Date()
                for retry in schedule.retries {
                    do throws(DeliveryQueue.Refusal) {
                        let ticket = try queue.submit(retry.payload, from: .retry, authentication: retry.vouched ? .retry : .unauthenticated)
                        logger.info("retrying without a push", metadata: [
                            "delivery": "\(ticket.id)", "items": "\(retry.payload.items.count)",
                        ])
                        for item in retry.payload.items { retried[item.key] = now }
                    } catch {
                        // Shutting down: the graceful shutdown ends the wait below. Returning
                        // before it would be a service ending unasked, which ends the group.
                        if case .full = error { sleep = min(sleep, Self.fullQueueWait) }
                    }
                }
                // What is no longer unfinished needs no memory.
                retried = retried.filter { schedule.unfinished.contains($0.key) }
                if let next = schedule.nextLook {
                    sleep = min(sleep, .seconds(max(0, next.timeIntervalSinceNow)))
                }
            } catch {
                if !storeWarned {
                    attention.warn("unfinished items are not retried until the state store can be read: \(error)")
                    storeWarned = true
                }
            }
            let timer = Task { [waker] in
                try await Task.sleep(for: sleep)
                waker.yield(())
            }
            let woken: Void? = await wakeUps.next()
            timer.cancel()
            if woken == nil { return }
        }
    }
}
