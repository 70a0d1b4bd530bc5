import Crypto
import Foundation

/// The client id a listener's persistent session lives under.
///
/// The broker keeps a session, and queues QoS 1 messages for it, under the client id; the id must
/// therefore be the same at every start of the same listener, and different for every other
/// device and every other DIR on the same device (two DIRs are two sets of videos, each needing
/// every push). It is made from the machine's id (`/etc/machine-id`, systemd's, stable for the
/// life of the installation) and DIR's absolute path, hashed so that neither is shown to the
/// broker: `vodapp-` and 16 hex digits, 23 characters, the length every MQTT 3.1.1 broker must
/// accept.
public enum BrokerClientID {
    /// Where the machine's id is read, first that exists first.
    static let machineIDFiles = ["/etc/machine-id", "/var/lib/dbus/machine-id"]

    public static func standard(directory: String) -> String {
        let machine = machineIDFiles.lazy
            .compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty }
            ?? ProcessInfo.processInfo.hostName
        return derived(machine: machine, directory: directory)
    }

    static func derived(machine: String, directory: String) -> String {
        let path = URL(fileURLWithPath: directory).standardizedFileURL.path
        let digest = SHA256.hash(data: Data("\(machine)\n\(path)".utf8))
        return "vodapp-" + digest.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// Why a client id given by hand cannot be used, if it cannot.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "the client id must not be empty" }
        if id.utf8.count > 256 { return "the client id is longer than 256 bytes" }
        if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "the client id must not hold control characters"
        }
        return nil
    }
}
