import Dispatch

/// Where the harness's process plumbing runs: swift-subprocess's reads, writes and waits for a
/// child, on threads of their own rather than the cooperative pool.
///
/// On Linux the cooperative pool is Dispatch's default root queue, as wide as there are cores,
/// and the tests block its threads (synchronous socket calls, fsync); what a child printed, and
/// its exit, must still be seen at once, as they were with Foundation's Process. So every job
/// goes to a serial queue of its own: a serial queue targets Dispatch's overcommit root queue,
/// which starts a thread whenever none is free, where a concurrent queue shares the cooperative
/// pool's few threads and gains more about once a second. A task that prefers this executor, and
/// every child task it starts, runs here.
package final class DispatchExecutor: TaskExecutor {
    package static let shared = DispatchExecutor()

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue(label: "vodapp.test.child-process").async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
