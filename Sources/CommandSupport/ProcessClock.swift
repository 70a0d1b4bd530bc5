import VODAppBase

/// When the process started: the budget counts from here.
///
/// From the kernel's record of the process's start (`ProcessStart`), not from when Swift code
/// first ran: a script that runs `vodapp --budget 3` counts from its own `exec`, and on a loaded
/// machine loading the binary and the runtime took tenths of a second (a run cut at its 3 s
/// budget ended 3.59 s after it was started). Where the record cannot be read, the first moment
/// Swift code sees.
public enum ProcessClock {
    public static let launch: ContinuousClock.Instant = {
        let now = ContinuousClock.now
        // A process a minute old has not just started: something is off, and `now` is safer.
        guard let age = ProcessStart.age(), age >= .zero, age < .seconds(60) else { return now }
        return now - age
    }()
}
