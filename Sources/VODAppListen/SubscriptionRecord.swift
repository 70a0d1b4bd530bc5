import Foundation
import VODAppBase
import VODAppMediaDirectory

/// What a listener of DIR last subscribed to, and under which client id:
/// `DIR/.vodapp/mqtt-subscription`, two lines.
///
/// The broker keeps a persistent session's subscriptions: a device moved to another topic (the
/// same DIR, so the same client id) must unsubscribe from the old one, which only this record
/// still knows.
struct SubscriptionRecord: Sendable {
    let path: String
    private let directory: MediaDirectory

    init(directory: String) {
        self.directory = MediaDirectory(path: directory)
        path = directory + "/.vodapp/mqtt-subscription"
    }

    /// The filter subscribed to last under `clientID`; nil when it was under another id, or never.
    func filter(clientID: String) -> String? {
        guard let bytes = try? SafeFile.contents(of: path, limit: 64 * 1024),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let fields = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard fields.count >= 2, fields[0] == clientID, !fields[1].isEmpty else { return nil }
        return String(fields[1])
    }

    /// Records `filter` as subscribed to under `clientID`, for the next start. A record that
    /// cannot be written costs only the unsubscription a later move of topic would make.
    func record(clientID: String, filter: String) {
        // DIR's work area must still be a directory of its own: a link planted there since the
        // listener started (the attacker trial) would have the record written outside DIR.
        guard (try? directory.checkWorkArea()) == true else { return }
        try? SafeFile.replace(path, with: Array("\(clientID)\n\(filter)\n".utf8), writingFirst: path + ".new")
    }
}
