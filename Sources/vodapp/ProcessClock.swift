/// When the process started, as near as Swift code can see it: the budget counts from here.
enum ProcessClock {
    static let launch = ContinuousClock.now
}
