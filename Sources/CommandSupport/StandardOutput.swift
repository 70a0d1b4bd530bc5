import Foundation

/// What the executables write on stdout themselves, line by line: the listener's reports, a
/// receiver's answer, the sample payload.
///
/// A full disk or a closed stream loses the line, never the process: FileHandle's `write(_:)`
/// would trap on the error.
public enum StandardOutput {
    /// `text` on stdout, unbuffered, with a newline after it unless it ends in one.
    public static func write(_ text: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
