import CFileShims
import Foundation
import NIOConcurrencyHelpers
import VODAppBase
import VODAppHLS
import VODAppModel
import VODAppTransfer
import VODAppTransferPolicy

/// The HLS items of one delivery: when an item's URL answers with an HLS playlist, its
/// variant's playlist, keys, init sections and segments join the delivery's transfer run
/// (`TransferFollowUp`), under the same deadline, `--jobs` and size limit as every other item.
package final class StreamDownloads: TransferFollowUp {
    /// The items, and the segments the delivery has left for them.
    private struct State {
        var items: [String: StreamItemDownload] = [:]
        var limits: HLSSegmentLimits
        /// Items whose parts are in and whose subtitles are waited for, until a time.
        var waitingForSubtitles: Set<String> = []
        /// The run is over: what is left is finished by the delivery, not by a timer.
        var closed = false
        /// Requests given up between outcomes, for the run to drop (`withdrawn`), and what wakes
        /// the run to hear it.
        var withdrawn: Set<String> = []
        var wake: (@Sendable () -> Void)?
    }

    private let state: NIOLockedValueBox<State>
    private let segmentFolder: @Sendable (_ key: String) -> String
    private let maximumSize: Int64
    private let room: TransferRequest.Room?
    private let itemURLs: [String: MediaURL]
    /// The run's deadline, past which no playlist is read on.
    private let deadline: ContinuousClock.Instant?
    /// Past it, a file still being muxed is given up and its parts kept.
    private let placingDeadline: ContinuousClock.Instant?
    private let ready: (@Sendable (StreamDownloads, _ key: String) -> Void)?
    /// The viewer's audio languages, in order of preference, and the system's.
    private let audioLanguages: [String]
    private let systemLanguage: String?
    /// The tallest picture wanted, if capped.
    private let maximumHeight: Int?
    /// A signal's request to stop, which a mux under way heeds.
    private let stop: StopRequest?
    /// Where earlier deliveries saw each item's variants pass the size limit, by key.
    private let ceilings: [String: VariantCeiling]
    /// The subtitles wanted (`--subtitles`).
    private let subtitles: SubtitleSelection

    /// - Parameters:
    ///   - segmentFolder: the folder of its own where an item's segments are kept (the media
    ///     directory names it; this target knows nothing of DIR).
    ///   - itemURLs: each item's URL in the payload, by key: the scope of the user's headers and
    ///     cookies for everything the item's playlists name.
    ///   - ready: called on the transfer thread when an item's last part has arrived, so that it
    ///     can be muxed (`finish`) and placed while the rest of the run goes on.
    ///   - room: the bytes the delivery's requests share on the disk, if limited.
    ///   - limits: how many segments an item, and the delivery's items together, may fetch.
    ///   - deadline: past it, no playlist is read on.
    ///   - placingDeadline: past it, a file still being muxed is given up, its parts kept.
    ///   - audioLanguages: the audio renditions wanted, in order of preference (`HLSAudioChoice`).
    ///   - systemLanguage: the system's language (`$LANG`), for a choice nobody made.
    ///   - maximumHeight: the tallest variant wanted (`HLSVariantChoice`).
    ///   - ceilings: where earlier deliveries saw an item's variants pass this size limit
    ///     (`VariantCeiling`), by key: those are not tried again.
    ///   - subtitles: the WebVTT renditions wanted beside each file (`SubtitleChoice`).
    package init(segmentFolder: @escaping @Sendable (_ key: String) -> String, maximumSize: Int64, room: TransferRequest.Room? = nil,
                 itemURLs: [String: MediaURL], limits: HLSSegmentLimits = HLSSegmentLimits(),
                 deadline: ContinuousClock.Instant? = nil, placingDeadline: ContinuousClock.Instant? = nil,
                 audioLanguages: [String] = [], systemLanguage: String? = nil, maximumHeight: Int? = nil,
                 stop: StopRequest? = nil, ceilings: [String: VariantCeiling] = [:], subtitles: SubtitleSelection = .none,
                 ready: (@Sendable (StreamDownloads, _ key: String) -> Void)? = nil) {
        self.ceilings = ceilings
        self.subtitles = subtitles
        self.audioLanguages = audioLanguages
        self.systemLanguage = systemLanguage
        self.maximumHeight = maximumHeight
        self.stop = stop
        self.deadline = deadline
        self.placingDeadline = placingDeadline
        state = NIOLockedValueBox(State(limits: limits))
        self.segmentFolder = segmentFolder
        self.maximumSize = maximumSize
        self.room = room
        self.itemURLs = itemURLs
        self.ready = ready
    }

    deinit {
        // An item's parts are tens of thousands of small allocations freed together, and glibc
        // keeps freed pages in the arena of the thread that used them: a listener would hold
        // them for good after a delivery of long playlists. Giving them back costs milliseconds.
        vod_release_free_heap()
    }

    /// How long a file whose parts are all in waits for its subtitles: a subtitle that drips
    /// held a stream of 600 segments until the budget's last half second, too late to mux it,
    /// on every delivery (eleventh attacker trial).
    static let subtitleGrace: Duration = .seconds(5)

    package func next(after outcome: TransferOutcome) -> (add: [TransferRequest], cancel: Set<String>) {
        // Item keys have no "/"; the requests an item adds are named "KEY/…".
        let key = outcome.id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? outcome.id
        var complete = false
        var waitUntil: ContinuousClock.Instant?
        defer {
            if complete { ready?(self, key) }
            if let waitUntil { stopWaitingForSubtitles(of: key, at: waitUntil) }
        }
        return state.withLockedValue { state in
            if key == outcome.id {
                guard case .captured(let data) = outcome.result, let url = outcome.finalURL else { return ([], []) }
                var download = StreamItemDownload(key: key, itemURL: itemURLs[key] ?? url, workPath: segmentFolder(key),
                                               maximumSize: maximumSize, room: room, deadline: deadline,
                                               placingDeadline: placingDeadline, audioLanguages: audioLanguages,
                                               systemLanguage: systemLanguage, maximumHeight: maximumHeight, stop: stop,
                                               ceiling: ceilings[key], subtitles: subtitles)
                download.attempts = outcome.attempts
                let requests = download.begin(playlist: data, from: url, isDASH: outcome.isDASHManifest, limits: &state.limits)
                state.items[key] = download
                return (requests, [])
            }
            guard var download = state.items.removeValue(forKey: key) else { return ([], []) }
            let next = download.take(outcome, limits: &state.limits)
            if download.partsComplete, !download.isComplete, !state.waitingForSubtitles.contains(key) {
                // The file waits for its subtitles a little, never into the time its mux needs.
                let now = ContinuousClock.now
                let until = min(now + Self.subtitleGrace, (placingDeadline ?? now + Self.subtitleGrace) - download.muxEstimate)
                if until <= now {
                    state.withdrawn.formUnion(download.stopWaitingForSubtitles(because: "it did not arrive before its video, late in the budget"))
                } else {
                    state.waitingForSubtitles.insert(key)
                    waitUntil = until
                }
            }
            state.items[key] = download
            complete = download.isComplete
            return next
        }
    }

    /// At `time`, gives up the subtitles the item `key` still waits for, and finishes its file.
    private func stopWaitingForSubtitles(of key: String, at time: ContinuousClock.Instant) {
        let seconds = max(0, ContinuousClock.now.duration(to: time).inSeconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            let due = state.withLockedValue { state -> Bool in
                guard !state.closed, var download = state.items[key], download.partsComplete, !download.isComplete else { return false }
                let gone = download.stopWaitingForSubtitles(because: "it did not arrive within \(Int(Self.subtitleGrace.inSeconds)) s of its video")
                state.items[key] = download
                if !gone.isEmpty {
                    state.withdrawn.formUnion(gone)
                    state.wake?()
                }
                return download.isComplete
            }
            if due { ready?(self, key) }
        }
    }

    package func withdrawn() -> Set<String> {
        state.withLockedValue { state in
            defer { state.withdrawn = [] }
            return state.withdrawn
        }
    }

    package func attach(wake: (@Sendable () -> Void)?) {
        state.withLockedValue { $0.wake = wake }
    }

    /// The run is over: no timer finishes an item any more (the delivery finishes what is left).
    package func close() {
        state.withLockedValue { $0.closed = true }
    }

    /// A segment cut with bytes kept: the item records what resuming it needs.
    package func cut(_ outcome: TransferOutcome) {
        let key = outcome.id.split(separator: "/", maxSplits: 1).first.map(String.init) ?? outcome.id
        state.withLockedValue { $0.items[key]?.keep(outcome) }
    }

    package func isUnderway(_ id: String) -> Bool {
        state.withLockedValue { $0.items[id]?.isUnderway ?? false }
    }

    /// The outcome of the HLS item `key` once its last part is in or the run has ended, its file
    /// muxed into `temporaryPath`; nil when the item was not HLS or was finished already.
    package func finish(_ key: String, into temporaryPath: String, because cut: String?) -> TransferOutcome? {
        finishWithSubtitles(key, into: temporaryPath, because: cut)?.outcome
    }

    /// `finish`, with the item's subtitles as it left them: files to place beside it, or why not.
    package func finishWithSubtitles(_ key: String, into temporaryPath: String,
                                     because cut: String?) -> (outcome: TransferOutcome, subtitles: [SubtitleTrack])? {
        // Taken out, so that muxing the file (reading, decrypting, writing) holds no lock.
        guard var download = state.withLockedValue({ $0.items.removeValue(forKey: key) }) else { return nil }
        let outcome = download.finish(into: temporaryPath, because: cut)
        return (outcome, download.subtitleTracks)
    }

    /// What was chosen of the item's stream, for the log and the report; asked before `finish`.
    package func choice(of key: String) -> StreamChoice? {
        state.withLockedValue { $0.items[key]?.streamChoice }
    }
}
