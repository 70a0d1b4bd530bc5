import ArgumentParser
import Foundation
import VODAppBase
import VODAppListen
import VODAppMQTT

/// Option values parsed once, into the types the libraries take, for `@Option(transform:)` and
/// `@Argument(transform:)`. What cannot be parsed is refused with what is wrong with it, which
/// ArgumentParser prints as "The value 'X' is invalid for '--option <value>': why", exit 64.
public enum OptionValue {
    /// A number of seconds above 0 and at most `maximum`, as a duration.
    public static func seconds(atMost maximum: Double) -> @Sendable (String) throws -> Duration {
        { text in
            // Decimal digits only: Double(_:) would also take hex ("0x10"), signs and exponents.
            guard text.wholeMatch(of: /[0-9]*\.?[0-9]+|[0-9]+\./) != nil, let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= maximum else {
                throw ValidationError("must be a number of seconds above 0, at most \(Int(maximum))")
            }
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
    }

    /// A whole number of `unit` within `range` (`--keep-days 7`).
    public static func wholeNumber(of unit: String, in range: ClosedRange<Int>) -> @Sendable (String) throws -> Int {
        { text in
            guard let number = Int(text), range.contains(number) else {
                throw ValidationError("must be a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }

    /// A byte count, optionally with K, M or G for KiB, MiB or GiB (`20M`), or KB, MB, GB for
    /// powers of 1000.
    @Sendable public static func byteCount(_ text: String) throws -> Int64 {
        guard let bytes = ByteSize.parse(text) else {
            throw ValidationError("must be a byte count, optionally with K, M or G (KiB, MiB, GiB) or KB, MB, GB (powers of 1000)")
        }
        return bytes
    }

    /// `HOST:PORT`, or `[IPv6]:PORT`, to bind a receiver to.
    @Sendable public static func listenAddress(_ text: String) throws -> ListenAddress {
        guard let address = ListenAddress(text) else {
            if let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), !(0...65_535).contains(port) {
                throw ValidationError("the port must be from 0 to 65535, not \(port)")
            }
            throw ValidationError("must be HOST:PORT")
        }
        return address
    }

    /// A broker and a topic filter to subscribe to: `mqtt[s]://[user[:password]@]host[:port]/filter`.
    @Sendable public static func brokerSubscription(_ text: String) throws -> BrokerURL {
        do {
            return try BrokerURL(text, for: .subscribe)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// An absolute http or https URL with a host.
    @Sendable public static func webURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw ValidationError("must be an absolute http or https URL")
        }
        if let port = url.port, !(1...65535).contains(port) {
            throw ValidationError("its port must be between 1 and 65535")
        }
        return url
    }
}
