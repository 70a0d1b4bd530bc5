import CAVFormat
import Foundation
import Logging
import NIOConcurrencyHelpers
import VODAppBase

/// FFmpeg's own log lines ("Packet corrupt", "Non-monotonous DTS", "Found duplicated MOOV
/// Atom") through swift-log, where `-v` shows them, instead of nowhere. A mux's failure already
/// comes back as a code, which `StreamMuxer` words for the report: these lines are the detail
/// behind it, for whoever debugs a stream.
///
/// Errors are info, warnings debug; FFmpeg's chatter below that is not formatted at all. FFmpeg
/// writes some lines in pieces (`Packet corrupt (…)`, then `.\n`): pieces are joined until a
/// newline, as its own callback joins them. Lines come from the media's bytes at times (a tag, a
/// name): the log handler sanitizes them.
enum FFmpegLog {
    /// Made at the first mux, after swift-log's bootstrap.
    static let logger = Logger(label: "vodapp")

    /// The pieces of a line not ended yet, its level, and whether the next piece starts a line
    /// (FFmpeg's `print_prefix`).
    private struct Pending {
        var text = ""
        var level = AV_LOG_WARNING
        var printPrefix: Int32 = 1
    }

    private static let pending = NIOLockedValueBox(Pending())

    /// Routes the log, once per process.
    static let routed: Void = {
        _ = logger
        vod_av_log_set_level(AV_LOG_WARNING)
        vod_av_log_set_callback { context, level, format, arguments in
            guard level <= AV_LOG_WARNING, let format, let arguments else { return }
            let line: (text: String, level: Int32)? = FFmpegLog.pending.withLockedValue { pending in
                var buffer = [CChar](repeating: 0, count: 512)
                _ = vod_av_log_format_line2(context, level, format, arguments, &buffer, Int32(buffer.count), &pending.printPrefix)
                pending.text += String(writtenInto: buffer)
                pending.level = min(pending.level, level)
                guard pending.text.hasSuffix("\n") || pending.text.utf8.count > 4096 else { return nil }
                defer { pending = Pending() }
                return (pending.text, pending.level)
            }
            guard let line else { return }
            let text = line.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            FFmpegLog.logger.log(level: line.level <= AV_LOG_ERROR ? .info : .debug, "\(text)", source: "libavformat")
        }
    }()
}
