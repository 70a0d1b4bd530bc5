import Foundation

/// Settings the commands read from the environment (`VODAPP_TOKEN`, `VODAPP_WEBHOOK_SECRET`),
/// which keep secrets out of `ps`. An empty value counts as unset.
public enum Environment {
    public static func value(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
