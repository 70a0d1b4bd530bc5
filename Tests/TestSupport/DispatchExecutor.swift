import Dispatch

/// Where the harness's process plumbing runs: swift-subprocess's reads, writes and waits for a
/// child, on Dispatch's threads rather than the cooperative pool.
///
/// Tests block pool threads (synchronous socket calls) and the suite keeps the pool busy; what a
/// child printed, and its exit, must still be seen at once, as they were with Foundation's
/// Process, whose handlers ran on Dispatch. A task that prefers this executor, and every child
/// task it starts, runs here.
final class DispatchExecutor: TaskExecutor {
    static let shared = DispatchExecutor()

    private let queue = DispatchQueue(label: "vodapp.test.child-processes", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
