import Foundation

/// The user's well-known folders as `xdg-user-dirs` records them in `user-dirs.dirs`.
package struct XDGUserDirectories {
    let home: String
    private let entries: [String: String]

    package init(environment: [String: String]) {
        home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
        let text = (try? String(contentsOfFile: configHome + "/user-dirs.dirs", encoding: .utf8)) ?? ""
        entries = Self.parse(text, home: home)
    }

    /// `XDG_VIDEOS_DIR`, else `~/Videos`.
    package var videos: String { entries["XDG_VIDEOS_DIR"] ?? home + "/Videos" }

    /// Lines are `XDG_NAME_DIR="$HOME/Name"` or an absolute path, as xdg-user-dirs writes them.
    static func parse(_ text: String, home: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            guard value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 else { continue }
            value = String(value.dropFirst().dropLast())
            if value.hasPrefix("$HOME") {
                value = home + value.dropFirst("$HOME".count)
            }
            guard value.hasPrefix("/") else { continue }
            result[parts[0].trimmingCharacters(in: .whitespaces)] = value
        }
        return result
    }
}
