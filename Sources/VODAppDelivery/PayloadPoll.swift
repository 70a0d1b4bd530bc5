import Foundation
import Logging
import VODAppBase
import VODAppModel
import VODAppPayload
import VODAppStore
import VODAppTransfer

/// `vodapp poll URL`: a payload fetched by GET, the fallback for a missed push.
public struct PayloadPoll: Sendable {
    /// Why no payload came.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// 401 or 403: the token is missing, wrong or expired.
        case tokenRejected(status: Int, host: String, sentToken: Bool)
        /// The endpoint could not be reached or answered with an error; later may work.
        case unavailable(String)
        case invalid(PayloadError)

        public var description: String {
            switch self {
            case .tokenRejected(let status, let host, true):
                "\(host) rejected the token (HTTP \(status)): check --token or VODAPP_TOKEN"
            case .tokenRejected(let status, let host, false):
                "\(host) wants a token (HTTP \(status)), and none was given: set --token or VODAPP_TOKEN"
            case .unavailable(let reason):
                reason
            case .invalid(let error):
                "invalid payload: \(error)"
            }
        }
    }

    public let url: URL
    public let token: String?

    public init(url: URL, token: String?) {
        self.url = url
        self.token = token
    }

    /// GETs and validates the payload. The token goes to `url`'s origin only: libcurl's bearer
    /// authentication is not forwarded when a redirect leads to another host or port.
    public func fetch(timeout: Duration) async throws(Failure) -> Payload {
        let answer: SingleRequest.Answer
        do {
            answer = try await SingleRequest(url: url, method: .get, headers: ["Accept: application/json"],
                                             bearerToken: token, followRedirects: true, timeout: timeout,
                                             maximumAnswer: Payload.maximumSize).perform()
        } catch .answerTooLarge {
            throw .invalid(.tooLarge(limit: Payload.maximumSize))
        } catch {
            throw .unavailable("cannot fetch \(url.absoluteString): \(error)")
        }
        switch answer.status {
        case 200..<300:
            do {
                return try Payload(data: answer.body)
            } catch {
                // A login page or a captive portal answers 200 with HTML: the network's state,
                // not the endpoint's payload, and it passes (exit 75, not 65).
                if Self.isPage(answer.body) {
                    let answered = answer.finalURL.flatMap { try? MediaURL($0) }?.redacted ?? url.absoluteString
                    throw .unavailable("\(answered) answered a web page, not a payload: a login page or a captive portal? (it will be polled again)")
                }
                throw .invalid(error)
            }
        case 401, 403:
            throw .tokenRejected(status: answer.status, host: url.host ?? url.absoluteString, sentToken: token != nil)
        default:
            // The host that answered, which a redirect may have made another than the one asked.
            let answered = answer.finalURL.flatMap { try? MediaURL($0) }?.redacted ?? url.absoluteString
            throw .unavailable("\(answered) answered HTTP \(answer.status)")
        }
    }

    /// Whether a body is an HTML page: its first non-blank character opens a tag.
    static func isPage(_ body: Data) -> Bool {
        body.first { !" \t\r\n".utf8.contains($0) } == UInt8(ascii: "<")
    }

    /// Writes a failed poll into DIR's delivery log, so that `vodapp status` shows it: a
    /// rejected token as `tokenRejected`, the rest as `failed`, with the reason.
    public func record(_ failure: Failure, in options: DeliveryOptions, logger: Logger, attention: Attention) {
        guard (try? options.prepareDirectory()) != nil,
              let ledger = DeliveryLedger(directory: options.directory, logger: logger, attention: attention) else { return }
        let result = if case .tokenRejected = failure { "tokenRejected" } else { "failed" }
        ledger.log(DeliveryLogEntry(startedAt: Date(), source: "poll", origin: url.absoluteString, result: result,
                                    items: 0, downloaded: 0, failed: 0, elapsedSeconds: 0, note: failure.description))
    }
}

extension PayloadPoll.Failure: ExitStatusProviding {
    /// 77 for credentials the endpoint refused, 75 for an endpoint that may answer later, 65
    /// for what it answered that is not a payload.
    public var exitStatus: ExitStatus {
        switch self {
        case .tokenRejected: .credentialsRejected
        case .unavailable: .temporaryFailure
        case .invalid: .invalidPayload
        }
    }
}
