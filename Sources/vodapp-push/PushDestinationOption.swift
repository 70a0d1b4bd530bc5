import ArgumentParser
import CommandSupport
import VODAppPush

extension OptionValue {
    /// Where `vodapp-push send` delivers: `udp://HOST:PORT` or an http(s) URL.
    @Sendable static func pushDestination(_ text: String) throws -> PushDestination {
        do {
            if let broker = try PushDestination.broker(text) { return .mqtt(broker) }
        } catch {
            throw ValidationError(error.description)
        }
        guard let destination = PushDestination(text) else {
            throw ValidationError("must be udp://HOST:PORT, an http:// or https:// URL, or mqtt[s]://[user[:password]@]HOST[:PORT]/TOPIC")
        }
        return destination
    }
}
