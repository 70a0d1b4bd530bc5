/// When the process started, as near as Swift code can see it: the budget counts from here.
public enum ProcessClock {
    public static let launch = ContinuousClock.now
}
