import Foundation
import SystemPackage
import VODAppBase
import VODAppDASH
import VODAppHLS
import VODAppModel
import VODAppMux
import VODAppTransfer
import VODAppTransferPolicy

/// One stream item (HLS or DASH) on its way to being one file: its playlists or manifest, keys,
/// segment indexes, init sections and segments, fetched through the delivery's own transfer run,
/// then muxed in play order into one MP4 (`StreamMuxer`).
///
/// - A master playlist's variant is chosen by `HLSVariantChoice`: the duration comes from the
///   first media playlist fetched (the highest variant's), and another is fetched only when the
///   choice differs.
/// - A DASH manifest is read as a master playlist is (`DASHPresentation`): its representations
///   chosen by the same rules, each chosen track's segments listed as a media playlist
///   (`DASHTrackSegments`), after its segment index for a `SegmentBase` one.
/// - Segments and init sections land in `DIR/.vodapp/partial/KEY.hls/`, each under a name made
///   of its place and its URL's path (not its query, which a signed URL changes every time), and
///   renamed from `.part` to `.seg` once whole: a delivery cut by the budget leaves the whole
///   ones, and the next delivery fetches only the rest.
/// - A segment the cut caught with bytes its server can resume (a validator and a size) keeps
///   them, with a `.resume` record beside (`ResumeRecord`): the next delivery asks for the rest
///   of it. On a slow link, a segment longer than a delivery's budget would otherwise never
///   arrive (new-user trial: 18 of 33 segments, however many deliveries).
/// - Keys stay in memory. AES-128 segments are decrypted as the muxer reads them.
/// - At most `window` of its requests are queued or running at once; each one that ends makes
///   room for the next in play order. The transfer run never holds thousands of an item's
///   requests, and what is cut by the deadline is a handful.
/// - A playlist listing more segments than `HLSSegmentLimits` leaves it fails the item at once.
/// - What cannot be downloaded is an item-level failure that says why: a live playlist, SAMPLE-AES,
///   a mix of MPEG-TS and fMP4.
/// - The WebVTT renditions `--subtitles` asks for are fetched beside the parts
///   (`SubtitleDownload`) and joined once the file is muxed; the item waits for them until the
///   run ends, and is placed without those that failed.
package struct StreamItemDownload: Sendable {
    /// A segment or an init section to fetch, in play order.
    /// Small, as there may be thousands: its id and file name are made when asked for.
    struct Part: Sendable {
        enum Kind: Sendable { case initSection, segment }
        let kind: Kind
        /// Whether it is the audio rendition's, not the variant's.
        var isAudio = false
        /// The segment's place in the playlist, or the init section's among init sections, from 1.
        let number: Int
        let url: MediaURL
        /// The bytes of `url` that hold it (`#EXT-X-BYTERANGE`, a map's BYTERANGE), when not all.
        var range: HLSByteRange?
        let key: HLSKey?
        /// Which init section a segment follows, by index into `parts`.
        var initSection: Int?
        /// Whether an `#EXT-X-DISCONTINUITY` comes before the segment: its timestamps start anew.
        var followsDiscontinuity = false
        var bytes: Int64?

        /// Its request's id in the run: `KEY/segmentN`, `KEY/initN`.
        /// `generation` counts the variants given up before this one (`over`): a request of one
        /// given up may still end after its successor asked for the part of the same number.
        func id(of item: String, generation: Int = 0) -> String {
            (generation > 0 ? "\(item)/v\(generation)-" : "\(item)/") + (isAudio ? "audio-" : "")
                + (kind == .segment ? "segment\(number)" : "init\(number)")
        }

        /// The name of the whole file in the work area: it changes when the resource or the range
        /// it is taken from does.
        var name: String {
            (isAudio ? "a" : "") + (kind == .segment ? "s" : "i") + "\(number)-"
                + StreamItemDownload.fingerprint(url.resource + (range.map { "@\($0)" } ?? "")) + ".seg"
        }
    }

    /// The most requests of one item queued or running at once: more than the per-host limit
    /// lets run (`TransferEngine.Configuration.defaultPerHost`), so an item's host is never idle
    /// for want of one.
    static let window = 16

    private enum State: Sendable {
        case playlist
        case parts
        case failed(String, final: Bool)
        case tooLarge
    }

    let key: String
    /// The item's URL in the payload: the user's headers and cookies go only to its origin.
    let itemURL: MediaURL
    let workPath: String
    let maximumSize: Int64
    private var state = State.playlist
    private var master: HLSMasterPlaylist?
    private var choice: HLSVariantChoice?
    /// The variants of a lower expected rate than the one chosen, the highest first, and the
    /// master's renditions: when the chosen variant passes the size limit as it arrives (its
    /// BANDWIDTH said less than it is), the next one down is fetched instead.
    private var fallbacks: [HLSVariant] = []
    private var renditions: [HLSRendition] = []
    /// Variants given up in this delivery as larger than the limit.
    private var variantsTooLarge = 0
    /// Variants given up in this delivery as their playlist or a part failed for good.
    private var variantsFailed = 0
    /// Where variants are known to pass the limit: an earlier delivery's, lowered by each one
    /// given up in this one; and how many the earlier one's left out of the choice.
    private var ceiling: VariantCeiling?
    private var knownTooLarge = 0
    private var variantCount = 1
    /// How the chosen playlist's segments are packaged, and the audio rendition's: the
    /// playlists themselves are not kept.
    private var segmentFormat: HLSMediaPlaylist.SegmentFormat?
    private var audioSegmentFormat: HLSMediaPlaylist.SegmentFormat?
    /// The audio rendition played with the chosen variant, when its audio is not in the
    /// variant's own segments (`HLSAudioChoice`).
    private var audio: HLSRendition?
    /// The audio rendition's playlist request, and the media playlists that have arrived, until
    /// both are in and the parts are listed.
    private var audioPlaylistRequest: String?
    private var videoPlaylist: HLSMediaPlaylist?
    private var audioPlaylist: HLSMediaPlaylist?
    /// The viewer's languages, in order of preference, and the system's (`$LANG`).
    let audioLanguages: [String]
    let systemLanguage: String?
    /// The tallest picture wanted (`--max-height`), if capped.
    let maximumHeight: Int?
    /// The subtitles wanted (`--subtitles`), and those of the chosen variant on their way.
    let subtitleSelection: SubtitleSelection
    private var subtitles: SubtitleDownload?
    /// The subtitles as they ended, once the file is muxed.
    private(set) var subtitleTracks: [SubtitleTrack] = []
    /// A signal's request to stop: a mux under way gives up, its parts kept.
    let stop: StopRequest?
    private var playlistsFetched = 0
    /// Playlist requests made, for their ids and names: two may be under way at once.
    private var playlistsAsked = 0
    /// Each init section before the first segment that follows it, and the segments, in play
    /// order.
    private var parts: [Part] = []
    private var segmentCount = 0
    /// Bytes of cut segments kept to resume.
    private var resumedBytes: Int64 = 0
    /// What the playlists list of the variant's and the audio rendition's lengths, seconds: a
    /// file much shorter was cut short by a part the demuxer could not read.
    private var listedSeconds: [Double] = []
    /// The audio rendition's segments, counted in `segmentCount` too.
    private var audioSegmentCount = 0
    /// The DASH manifest's variants and renditions, when the item is DASH.
    private var dash: DASHPresentation?
    /// The chosen DASH tracks' segments as they become known, and the segment indexes asked for.
    private var dashVideo: DASHTrackSegments?
    private var dashAudio: DASHTrackSegments?
    private var indexRequests: [String: (isAudio: Bool, needed: DASHTrackSegments.IndexNeeded)] = [:]
    /// What the item is, for messages.
    private var kind: String { dash == nil ? "HLS" : "DASH" }
    /// The next part to ask for (or to pass, when it is whole already).
    private var cursor = 0
    /// Parts asked for and not ended, by request id.
    private var requested: [String: Int] = [:]
    /// Where parts cut by an earlier delivery resume, by index into `parts`.
    private var resumes: [Int: TransferRequest.Resume] = [:]
    /// Parts whole, and their bytes.
    private var wholeParts = 0
    /// Bytes of cut segments kept to resume (`keep`): a stream whose segments each outlast a budget
    /// has no whole one yet, and is still partial, not failed (new-user trial: a listener waited
    /// out a failure's backoff before each step).
    private var cutPartBytes: Int64 = 0
    private var total: Int64 = 0
    private var keys: [String: [UInt8]] = [:]
    private var keyRequests: [String: MediaURL] = [:]
    /// The keys asked for, by URL.
    private var keysAsked: Set<String> = []
    private var pending: Set<String> = []
    /// What the segments still to come may write between them: the limit is the item's whole.
    private var allowance: ByteAllowance?

    /// Whether requests of this item are still queued or running.
    var isUnderway: Bool {
        switch state {
        case .playlist, .parts: !pending.isEmpty || cursor < parts.count
        case .failed, .tooLarge: false
        }
    }
    /// The attempts the item's own URL took, for its outcome.
    var attempts = 1

    /// Whether every part and key is in and nothing is queued, the subtitles included: the item
    /// can be muxed now.
    var isComplete: Bool { partsComplete && subtitles?.isSettled ?? true }

    /// Whether every part and key is in: the file can be muxed, with what subtitles there are.
    var partsComplete: Bool {
        guard case .parts = state, pending.isEmpty, cursor == parts.count else { return false }
        return wholeParts == parts.count && keys.count == keysAsked.count
    }
    private var finalURL: MediaURL?

    /// The bytes the delivery's requests share on the disk, if limited: segments take from it.
    let room: TransferRequest.Room?

    /// The run's deadline: a playlist still being read then is given up, as a transfer is.
    let deadline: ContinuousClock.Instant?

    /// When a file still being made is given up, its parts kept: the run's end, less a margin
    /// for the report.
    let placingDeadline: ContinuousClock.Instant?

    /// - Parameter ceiling: where an earlier delivery saw variants pass the size limit, when it
    ///   holds under this one's (`VariantCeiling.applies(under:)`).
    init(key: String, itemURL: MediaURL, workPath: String, maximumSize: Int64, room: TransferRequest.Room? = nil,
         deadline: ContinuousClock.Instant? = nil, placingDeadline: ContinuousClock.Instant? = nil,
         audioLanguages: [String] = [], systemLanguage: String? = nil, maximumHeight: Int? = nil, stop: StopRequest? = nil,
         ceiling: VariantCeiling? = nil, subtitles: SubtitleSelection = .none) {
        subtitleSelection = subtitles
        self.ceiling = ceiling
        self.stop = stop
        self.audioLanguages = audioLanguages
        self.maximumHeight = maximumHeight
        self.systemLanguage = systemLanguage
        self.room = room
        self.deadline = deadline
        self.placingDeadline = placingDeadline
        self.key = key
        self.itemURL = itemURL
        self.workPath = workPath
        self.maximumSize = maximumSize
    }

    /// The most bytes a playlist may have.
    static let playlistLimit = HLSPlaylist.maximumBytes

    /// What was chosen, for the log and the report; nil for a media playlist, which offers no
    /// choice.
    var streamChoice: StreamChoice? {
        choice.map { StreamChoice(variant: $0.variant, of: variantCount, audio: audio ?? dash?.soundRendition, tooLarge: variantsTooLarge, failed: variantsFailed,
                                  knownTooLarge: knownTooLarge, ceiling: ceiling) }
    }

    /// A generous guess at how long muxing the parts takes: a second of the budget kept for it
    /// was too little for 1,800 parts behind discontinuities, which took 2.9 s (attacker trial).
    var muxEstimate: Duration {
        .milliseconds(500) + .milliseconds(5 * parts.count) + .seconds(Double(total) / Double(20 << 20))
    }

    /// Gives up the subtitles still coming, for `why`: the file is not held for them any longer.
    /// - Returns: the ids of their requests, for the run to drop.
    mutating func stopWaitingForSubtitles(because why: String) -> Set<String> {
        subtitles?.cancel(because: why) ?? []
    }

    /// Takes an HLS playlist or a DASH manifest the item's own URL answered with; returns the
    /// requests that follow.
    /// - Parameter limits: the delivery's segments: the item takes its own from them.
    /// - Parameter isDASH: the transfer engine's sniffer took it for a DASH manifest
    ///   (`TransferOutcome.isDASHManifest`): by its type, or its `MPD` root.
    mutating func begin(playlist data: [UInt8], from url: MediaURL, isDASH: Bool = false,
                        limits: inout HLSSegmentLimits) -> [TransferRequest] {
        finalURL = url
        let requests = isDASH ? take(manifest: data, from: url, limits: &limits) : take(playlist: data, from: url, limits: &limits)
        return withSubtitles((requests, []), limits: &limits).add
    }

    /// Takes how one of this item's requests ended.
    /// - Returns: the requests that follow, and the ids of those no longer wanted.
    mutating func take(_ outcome: TransferOutcome, limits: inout HLSSegmentLimits) -> (add: [TransferRequest], cancel: Set<String>) {
        if subtitles?.owns(outcome.id) == true {
            let deadline = deadline
            return (subtitles?.take(outcome, limits: &limits, deadline: deadline) ?? [], [])
        }
        return withSubtitles(takeOwn(outcome, limits: &limits), limits: &limits)
    }

    /// The subtitles' next requests beside the item's own; or, once the item has given up, the
    /// subtitles' requests cancelled with its own.
    private mutating func withSubtitles(_ next: (add: [TransferRequest], cancel: Set<String>),
                                        limits: inout HLSSegmentLimits) -> (add: [TransferRequest], cancel: Set<String>) {
        guard subtitles != nil else { return next }
        switch state {
        case .failed, .tooLarge:
            return (next.add, next.cancel.union(subtitles?.cancel(because: "the item was not fetched") ?? []))
        case .playlist, .parts:
            return (next.add + (subtitles?.askForMore(limits: &limits) ?? []), next.cancel)
        }
    }

    /// Takes how one of the item's own requests (not a subtitle's) ended.
    private mutating func takeOwn(_ outcome: TransferOutcome, limits: inout HLSSegmentLimits) -> (add: [TransferRequest], cancel: Set<String>) {
        let wasPending = pending.remove(outcome.id) != nil
        switch state {
        case .playlist:
            // A request of a variant given up for a smaller one may end now: not the playlist.
            guard wasPending else { return ([], []) }
            if let index = indexRequests.removeValue(forKey: outcome.id) {
                guard case .captured(let data) = outcome.result else {
                    return failing(because: outcome, limits: &limits, what: index.isAudio ? "the audio's segment index" : "the video's segment index")
                }
                return (take(index: data, for: index.needed, isAudio: index.isAudio, limits: &limits), [])
            }
            let isAudio = outcome.id == audioPlaylistRequest
            guard case .captured(let data) = outcome.result, let url = outcome.finalURL else {
                return failing(because: outcome, limits: &limits, what: isAudio ? "the audio rendition's playlist" : "the variant's playlist")
            }
            return (take(playlist: data, from: url, limits: &limits, isAudio: isAudio), [])
        case .failed, .tooLarge:
            // Requests still running when the item gave up: what they bring is not wanted.
            return ([], [])
        case .parts:
            break
        }
        if let keyURL = keyRequests[outcome.id] {
            guard case .captured(let data) = outcome.result else { return failing(because: outcome, limits: &limits, what: "the key") }
            guard data.count == 16 else {
                // A page where the key should be (a portal, a login) may go away; 16 bytes of
                // something else will not change.
                let page = MediaSniffer.isText(data)
                state = .failed("the key at \(keyURL.redacted) is \(data.count) bytes, not 16\(page ? ": a page, not a key" : "")", final: !page)
                return ([], cancelAll())
            }
            keys[keyURL.absoluteString] = data
            return (askForMore(), [])
        }
        guard let index = requested.removeValue(forKey: outcome.id) else { return ([], []) }
        guard case .completed(let bytes) = outcome.result else {
            if case .tooLarge = outcome.result { return over(limits: &limits) }
            let part = parts[index]
            let what = (part.isAudio ? "the audio rendition's " : "")
                + (part.kind == .initSection ? "init section" : "segment \(part.number) of \(part.isAudio ? audioSegmentCount : segmentCount - audioSegmentCount)")
            return failing(because: outcome, limits: &limits, what: what)
        }
        let temporary = workPath + "/" + parts[index].name + ".part"
        let renamed = SafeFile.rename(temporary, to: workPath + "/" + parts[index].name)
        if resumes.removeValue(forKey: index) != nil { SafeFile.remove(workPath + "/" + parts[index].name + ResumeRecord.suffix) }
        guard renamed == 0 else {
            state = .failed("cannot keep a segment: \(Errno(rawValue: renamed).description)", final: false)
            return ([], cancelAll())
        }
        parts[index].bytes = bytes
        wholeParts += 1
        total += bytes
        return total > maximumSize ? over(limits: &limits) : (askForMore(), [])
    }

    /// The item's outcome once its run has ended: its file muxed into the item's temporary file,
    /// or why not.
    mutating func finish(into temporaryPath: String, because cut: String?) -> TransferOutcome {
        func outcome(_ result: TransferOutcome.Result, final: Bool = false, contentType: String? = nil,
                     partial: TransferOutcome.Partial? = nil) -> TransferOutcome {
            TransferOutcome(id: key, result: result, httpStatus: 200, bodyBytesReceived: total, contentType: contentType,
                            partial: partial, attempts: attempts, isFinal: final, finalURL: finalURL)
        }
        switch state {
        case .failed(let reason, let final):
            if final { removeWorkArea() }
            // A failure that may pass keeps the segments in: partial, as a cut item is.
            return outcome(.failed(reason: reason), final: final,
                           partial: !final && wholeParts > 0 ? TransferOutcome.Partial(bytes: total, etag: nil, lastModified: nil) : nil)
        case .tooLarge:
            removeWorkArea()
            return outcome(.tooLarge(declaredSize: nil))
        case .playlist:
            return outcome(.timedOut(reason: "\(cut ?? "the run ended") before " + (dash == nil ? "the HLS playlists" : "the DASH segment indexes")
                                     + " arrived"))
        case .parts:
            break
        }
        guard partsComplete else {
            removeLeftovers()
            // Counted as a person reads the playlist: its segments, not the init sections.
            let segments = parts.count { $0.kind == .segment && $0.bytes != nil }
            // "0 of 33 segments; they are kept" read as nonsense (new-user trial): init sections
            // alone are kept, but not worth a word.
            let kept = segments > 0 ? "; they are kept for the next delivery"
                : cutPartBytes > 0 ? "; \(ByteSize.format(cutPartBytes)) of the segments it was fetching are kept for the next delivery" : ""
            // Segments kept, whole or cut, make the item partial, as a cut body does: the store
            // and status say it resumes, and a listener goes on at once, not after a backoff.
            let keptBytes = total + cutPartBytes
            return outcome(.timedOut(reason: "\(cut ?? "the run ended") with \(segments) of \(segmentCount) \(kind) segments\(kept)"),
                           partial: keptBytes > 0 ? TransferOutcome.Partial(bytes: keptBytes, etag: nil, lastModified: nil) : nil)
        }
        do throws(MuxFailure) {
            let made = try mux(into: temporaryPath)
            // A part the demuxer could not read (garbage, another container, a cut segment) ends
            // its track there, and the file plays a fraction of the stream: placed, it would
            // never be fetched again (tenth attacker trial). The server may yet mend it.
            // Its segments are fetched again: those kept made this file.
            for (index, (seconds, listed)) in zip(made.seconds, listedSeconds).enumerated() where seconds < listed - max(2, listed / 10) {
                SafeFile.remove(temporaryPath)
                removeWorkArea()
                let what = index == 0 ? "its \(kind) segments" : "its audio's segments"
                return outcome(.failed(reason: "\(what) make \(String(format: "%.1f", seconds)) s of the \(String(format: "%.1f", listed)) s "
                                       + "the playlist lists: a segment is damaged or not what it says"))
            }
            removeWorkArea()
            let (stopAt, stop) = (placingDeadline, stop)
            subtitleTracks = subtitles?.tracks(zero: made.start) {
                stop?.reason != nil || stopAt.map { ContinuousClock.now >= $0 } ?? false
            } ?? []
            return outcome(.completed(bytes: made.bytes), contentType: made.hasVideo ? "video/mp4" : "audio/mp4")
        } catch {
            SafeFile.remove(temporaryPath)
            let kept = TransferOutcome.Partial(bytes: total, etag: nil, lastModified: nil)
            switch error.kind {
            case .stopped:
                return outcome(.timedOut(reason: "\(cut ?? "the budget ran out") while its file was made; its \(segmentCount) \(kind) segments "
                                         + "are kept for the next delivery"), partial: kept)
            case .passing:
                return outcome(.failed(reason: "cannot make its file: \(error)"), partial: kept)
            case .tooLarge:
                removeWorkArea()
                return outcome(.tooLarge(declaredSize: nil))
            case .unusable:
                removeWorkArea()
                return outcome(.failed(reason: "its \(kind) segments do not make a file: \(error)"), final: true)
            }
        }
    }

    // MARK: - Playlists

    private mutating func take(playlist data: [UInt8], from url: MediaURL, limits: inout HLSSegmentLimits,
                               isAudio: Bool = false) -> [TransferRequest] {
        playlistsFetched += 1
        // A playlist that arrived while the thread was busy with another is not read past the
        // deadline: counting its tags alone takes tenths of a second in a debug build.
        if let deadline, ContinuousClock.now >= deadline { return [] }
        if let refusal = limits.refusal(segments: HLSSegmentLimits.segmentTags(in: data)) {
            state = .failed(refusal.reason, final: refusal.isFinal)
            return []
        }
        let playlist: HLSPlaylist
        do {
            // No more segments than tags: the limit only makes sure.
            playlist = try HLSPlaylist.parse(data, url: url, maximumSegments: limits.available, deadline: deadline)
        } catch .outOfTime {
            // As a transfer the deadline cut: the item is still waiting for its playlists, and
            // reports itself timed out as the run ends; the next delivery reads them again.
            return []
        } catch {
            state = .failed("the HLS playlist cannot be read: \(error)", final: true)
            return []
        }
        if let plain = playlist.plainHTTPURL(fetchedFrom: url) {
            state = .failed(HLSPlaylist.insecure(plain, named: "the HLS playlist", at: url), final: true)
            return []
        }
        switch playlist {
        case .master where isAudio:
            state = .failed("the HLS audio rendition's playlist is a master playlist", final: true)
            return []
        case .media(let found) where isAudio:
            audioPlaylist = found
            return videoPlaylist.map { plan($0, audio: found, limits: &limits) } ?? []
        case .master(let found):
            guard master == nil, choice == nil, !found.variants.isEmpty else {
                state = .failed(master == nil && choice == nil ? "the HLS master playlist lists no variant"
                                              : "the HLS variant's playlist is another master playlist", final: true)
                return []
            }
            variantCount = found.variants.count
            // Variants an earlier delivery saw pass the limit are not tried again.
            let offered = ceiling?.filter(found.variants) ?? found.variants
            knownTooLarge = found.variants.count - offered.count
            master = HLSMasterPlaylist(url: found.url, variants: offered, renditions: found.renditions)
            // The highest variant first: with room to spare, it is the one chosen, and any
            // variant's playlist tells the duration the choice needs.
            let highest = offered.max { $0.expectedBitsPerSecond < $1.expectedBitsPerSecond } ?? offered[0]
            return [playlistRequest(highest.url)]
        case .media(let found):
            if let master, choice == nil {
                guard let chosen = HLSVariantChoice.choose(among: master.variants, duration: found.duration, sizeLimit: maximumSize,
                                                             maximumHeight: maximumHeight) else {
                    state = .failed("the HLS master playlist lists no variant", final: true)
                    return []
                }
                choice = chosen
                audio = HLSAudioChoice.choose(for: chosen.variant, among: master.renditions, preferred: audioLanguages,
                                              systemLanguage: systemLanguage)
                let wanted = SubtitleChoice.decide(for: chosen.variant, among: master.renditions, selection: subtitleSelection)
                if !wanted.chosen.isEmpty || !wanted.unmet.isEmpty {
                    subtitles = SubtitleDownload(key: key, itemURL: itemURL, workPath: workPath, secure: master.url.isHTTPS,
                                                 hls: wanted.chosen, unmet: wanted.unmet)
                }
                renditions = master.renditions
                fallbacks = fallbacks(among: master.variants, below: chosen.variant)
                // Only the choice is needed from here on.
                self.master = nil
                var requests: [TransferRequest] = []
                if let audioURL = audio?.url {
                    let request = playlistRequest(audioURL)
                    audioPlaylistRequest = request.id
                    requests.append(request)
                }
                if chosen.variant.url != url {
                    return requests + [playlistRequest(chosen.variant.url)]
                }
                if !requests.isEmpty {
                    videoPlaylist = found
                    return requests
                }
            }
            if audio != nil {
                // The variant's playlist; the audio rendition's may be in already.
                videoPlaylist = found
                return audioPlaylist.map { plan(found, audio: $0, limits: &limits) } ?? []
            }
            return plan(found, limits: &limits)
        }
    }

    // MARK: - DASH

    /// Takes the DASH manifest the item's URL answered with: reads it, chooses a video and an
    /// audio track by the rules HLS's are chosen by, and lists their segments.
    private mutating func take(manifest data: [UInt8], from url: MediaURL, limits: inout HLSSegmentLimits) -> [TransferRequest] {
        let manifest: DASHManifest
        do {
            manifest = try DASHManifestParser.parse(data, url: url)
        } catch {
            state = .failed("the DASH manifest cannot be read: \(error)", final: true)
            return []
        }
        let presentation: DASHPresentation
        switch DASHPresentation.make(manifest, preferred: audioLanguages, systemLanguage: systemLanguage) {
        case .success(let made): presentation = made
        case .failure(let refusal):
            state = .failed(refusal.reason, final: true)
            return []
        }
        // Variants an earlier delivery saw pass the limit are not tried again.
        let offered = ceiling?.filter(presentation.variants) ?? presentation.variants
        knownTooLarge = presentation.variants.count - offered.count
        guard let chosen = HLSVariantChoice.choose(among: offered, duration: presentation.duration, sizeLimit: maximumSize,
                                                     maximumHeight: maximumHeight) else {
            state = .failed("the DASH manifest offers no representation", final: true)
            return []
        }
        dash = presentation
        variantCount = presentation.variants.count
        renditions = presentation.renditions
        choice = chosen
        audio = HLSAudioChoice.choose(for: chosen.variant, among: renditions, preferred: audioLanguages, systemLanguage: systemLanguage)
        fallbacks = fallbacks(among: offered, below: chosen.variant)
        let wanted = SubtitleChoice.decide(for: chosen.variant, among: presentation.subtitles, selection: subtitleSelection)
        if !wanted.chosen.isEmpty || !wanted.unmet.isEmpty {
            let listed = wanted.chosen.map { rendition in
                (rendition, presentation.subtitlePlaylist(for: rendition, url: url, limit: SubtitleDownload.itemSegmentLimit))
            }
            subtitles = SubtitleDownload(key: key, itemURL: itemURL, workPath: workPath, secure: url.isHTTPS, dash: listed,
                                         unmet: wanted.unmet, limits: &limits)
        }
        return startDASH(chosen.variant, limits: &limits)
    }

    /// Lists the chosen tracks' segments, and asks for the segment indexes that list the rest.
    private mutating func startDASH(_ variant: HLSVariant, limits: inout HLSSegmentLimits) -> [TransferRequest] {
        guard let dash, let videoTrack = dash.track(for: variant) else {
            state = .failed("the DASH manifest offers no representation", final: true)
            return []
        }
        do throws(DASHManifestError) {
            let video = try DASHTrackSegments(videoTrack, limit: limits.available)
            dashVideo = video
            if let rendition = audio, let audioTrack = dash.track(for: rendition) {
                dashAudio = try DASHTrackSegments(audioTrack, limit: max(0, limits.available - video.listed))
            } else {
                dashAudio = nil
            }
        } catch {
            state = .failed("the DASH manifest cannot be read: \(error)", final: true)
            return []
        }
        var requests: [TransferRequest] = []
        for (isAudio, track) in [(false, dashVideo), (true, dashAudio)] {
            for needed in track?.needed ?? [] {
                // Checked before the index is asked for, as every part is before it is: an https
                // manifest's index fetched over http first (tenth attacker trial).
                if let manifestURL = finalURL, manifestURL.isHTTPS, !needed.url.isHTTPS {
                    state = .failed(HLSPlaylist.insecure(needed.url, named: "the DASH manifest", at: manifestURL), final: true)
                    return []
                }
                guard needed.range.length <= Int64(DASHManifestParser.maximumBytes) else {
                    state = .failed("the DASH segment index is \(needed.range.length) bytes, more than vodapp reads", final: true)
                    return []
                }
                playlistsAsked += 1
                let id = "\(key)/index\(playlistsAsked)"
                indexRequests[id] = (isAudio, needed)
                pending.insert(id)
                requests.append(TransferRequest(id: id, url: needed.url, temporaryPath: workPath + "/index\(playlistsAsked).part",
                                                maximumSize: needed.range.length, expectation: .document(limit: Int(needed.range.length)),
                                                credentialScope: itemURL,
                                                slice: TransferRequest.Slice(offset: needed.range.offset, length: needed.range.length)))
            }
        }
        return requests.isEmpty ? planDASH(limits: &limits) : requests
    }

    /// Takes a segment index's bytes; plans the item once every index is in.
    private mutating func take(index data: [UInt8], for needed: DASHTrackSegments.IndexNeeded, isAudio: Bool,
                               limits: inout HLSSegmentLimits) -> [TransferRequest] {
        do throws(DASHSegmentIndex.Failure) {
            if isAudio { try dashAudio?.take(index: data, for: needed) } else { try dashVideo?.take(index: data, for: needed) }
        } catch {
            state = .failed("the DASH \(isAudio ? "audio" : "video") at \(needed.url.redacted): \(error)", final: true)
            return []
        }
        return indexRequests.isEmpty ? planDASH(limits: &limits) : []
    }

    /// The chosen tracks as media playlists, planned as HLS's are.
    private mutating func planDASH(limits: inout HLSSegmentLimits) -> [TransferRequest] {
        guard let video = dashVideo, video.isComplete, dashAudio?.isComplete ?? true, let manifestURL = finalURL else { return [] }
        let videoPlaylist = video.playlist(url: manifestURL)
        let audioPlaylist = dashAudio?.playlist(url: manifestURL)
        (dashVideo, dashAudio) = (nil, nil)
        for playlist in [videoPlaylist, audioPlaylist].compactMap({ $0 }) {
            if playlist.segments.isEmpty {
                state = .failed("the DASH representation lists no segment", final: true)
                return []
            }
            if let plain = HLSPlaylist.media(playlist).plainHTTPURL(fetchedFrom: manifestURL) {
                state = .failed(HLSPlaylist.insecure(plain, named: "the DASH manifest", at: manifestURL), final: true)
                return []
            }
        }
        let requests = plan(videoPlaylist, audio: audioPlaylist, limits: &limits)
        // DASH segments are ISO BMFF (or WebM), however they are addressed: none is checked as
        // MPEG-TS before the mux (`bytes(of:)`).
        (segmentFormat, audioSegmentFormat) = (nil, nil)
        return requests
    }

    private mutating func playlistRequest(_ url: MediaURL) -> TransferRequest {
        playlistsAsked += 1
        let request = TransferRequest(id: "\(key)/playlist\(playlistsAsked)", url: url,
                                      temporaryPath: workPath + "/playlist\(playlistsAsked).part",
                                      maximumSize: Int64(Self.playlistLimit), expectation: .document(limit: Self.playlistLimit),
                                      credentialScope: itemURL)
        pending.insert(request.id)
        return request
    }

    /// Checks a media playlist (and the audio rendition's, when there is one) can become one
    /// file, and lists their parts, whole ones found in the work area; asks for the first of the
    /// rest.
    private mutating func plan(_ playlist: HLSMediaPlaylist, audio audioPlaylist: HLSMediaPlaylist? = nil,
                               limits: inout HLSSegmentLimits) -> [TransferRequest] {
        if let problem = Self.problem(with: playlist) {
            state = .failed(problem, final: true)
            return []
        }
        if let audioPlaylist, let problem = Self.problem(with: audioPlaylist) {
            state = .failed("its audio rendition: \(problem)", final: true)
            return []
        }
        videoPlaylist = nil
        self.audioPlaylist = nil
        // Past the deadline (the parse took the rest of it), nothing could be fetched: the parts
        // are not listed, and the next delivery reads the playlist again.
        if let deadline, ContinuousClock.now >= deadline { return [] }
        let count = playlist.segments.count + (audioPlaylist?.segments.count ?? 0)
        guard limits.take(count) else {
            let refusal = limits.refusal(segments: count)
            state = .failed(refusal?.reason ?? "the HLS playlist lists more segments than vodapp fetches", final: refusal?.isFinal ?? false)
            return []
        }
        segmentFormat = playlist.segmentFormat
        audioSegmentFormat = audioPlaylist?.segmentFormat
        listedSeconds = [playlist.duration] + (audioPlaylist.map { [$0.duration] } ?? [])
        guard prepareWorkArea() else { return [] }
        // One listing, not a look at each of thousands of names: a new item's folder is empty.
        let folder = (try? SafeFile.holder(of: workPath)).flatMap { try? $0.folder.folder($0.name) }
        let present = Set(folder?.entries().map(\.name) ?? [])
        parts.reserveCapacity(count)
        // Fetched in play order, the audio beside the video it plays with: a delivery cut short
        // keeps the start of both.
        let video = Self.parts(of: playlist, isAudio: false)
        let sound = audioPlaylist.map { Self.parts(of: $0, isAudio: true) } ?? []
        var (nextVideo, nextSound) = (0, 0)
        // Each list's parts by their index in `parts`, for the init sections segments follow.
        var placed: [[Int]] = [[], []]
        while nextVideo < video.count || nextSound < sound.count {
            let isSound = nextSound < sound.count && (nextVideo == video.count || sound[nextSound].at < video[nextVideo].at)
            var part = isSound ? sound[nextSound].part : video[nextVideo].part
            let list = isSound ? 1 : 0
            part.initSection = part.initSection.map { placed[list][$0] }
            placed[list].append(parts.count)
            add(part, present: present)
            if isSound { nextSound += 1 } else { nextVideo += 1 }
        }
        segmentCount = count
        audioSegmentCount = sound.count { $0.part.kind == .segment }
        state = .parts
        // Segments kept by an earlier delivery (under a larger --max-size, perhaps) may already
        // be too much.
        guard total <= maximumSize else {
            state = .tooLarge
            pending = []
            return []
        }
        // Bytes of cut segments kept to resume count against the limit too.
        allowance = ByteAllowance(maximumSize - total - resumedBytes)
        return askForMore()
    }

    /// A playlist's init sections and segments in play order, each with the time it starts at.
    /// A segment's `initSection` is an index into this list (`plan` makes it one into `parts`).
    private static func parts(of playlist: HLSMediaPlaylist, isAudio: Bool) -> [(part: Part, at: Double)] {
        var list: [(part: Part, at: Double)] = []
        list.reserveCapacity(playlist.segments.count)
        var initIndex: [String: Int] = [:]
        var at = 0.0
        for (number, segment) in playlist.segments.enumerated() {
            var initSection: Int?
            if let map = segment.map {
                let identity = map.url.absoluteString + (map.byteRange.map { "@\($0)" } ?? "")
                if initIndex[identity] == nil {
                    initIndex[identity] = list.count
                    list.append((Part(kind: .initSection, isAudio: isAudio, number: initIndex.count, url: map.url, range: map.byteRange,
                                      key: map.key, initSection: nil), at))
                }
                initSection = initIndex[identity]
            }
            list.append((Part(kind: .segment, isAudio: isAudio, number: number + 1, url: segment.url, range: segment.byteRange,
                              key: segment.key, initSection: initSection, followsDiscontinuity: segment.followsDiscontinuity), at))
            at += segment.duration
        }
        return list
    }

    /// Adds a part, whole when an earlier delivery fetched it (`present` lists the work area),
    /// or to resume where an earlier delivery's cut left it.
    private mutating func add(_ part: Part, present: Set<String>) {
        var part = part
        let name = part.name
        let path = workPath + "/" + name
        switch present.contains(name) ? SafeFile.inspect(path) : .absent {
        case .absent: break
        case .file(let size): part.bytes = size
        // A FIFO or a link where a segment was kept is removed and the segment fetched again.
        case .unsafe: SafeFile.remove(path)
        }
        if let bytes = part.bytes {
            wholeParts += 1
            total += bytes
        } else if part.range == nil, present.contains(name + ".part"), present.contains(name + ResumeRecord.suffix),
                  case .file(let kept) = SafeFile.inspect(path + ".part"),
                  let record = ResumeRecord.read(path + ResumeRecord.suffix), kept > 0, kept < record.total {
            resumes[parts.count] = TransferRequest.Resume(offset: kept, validator: record.validator, total: record.total)
            resumedBytes += kept
        }
        parts.append(part)
    }

    /// Records what resuming a segment the run's cut caught needs, when its server allows it.
    mutating func keep(_ outcome: TransferOutcome) {
        guard case .parts = state, let index = requested[outcome.id], parts[index].range == nil, let partial = outcome.partial,
              let record = ResumeRecord(partial) else { return }
        record.write(to: workPath + "/" + parts[index].name + ResumeRecord.suffix)
        cutPartBytes += partial.bytes
    }

    /// The next requests in play order, up to `window` pending: the parts not whole yet, and each
    /// key the first time a part needs it (whole ones too: the mux decrypts them).
    private mutating func askForMore() -> [TransferRequest] {
        guard case .parts = state else { return [] }
        var requests: [TransferRequest] = []
        while pending.count < Self.window, cursor < parts.count {
            let index = cursor
            cursor += 1
            let part = parts[index]
            if let url = part.key?.url, keysAsked.insert(url.absoluteString).inserted {
                let id = "\(key)/key\(keysAsked.count)"
                keyRequests[id] = url
                pending.insert(id)
                requests.append(TransferRequest(id: id, url: url, temporaryPath: workPath + "/key.part", maximumSize: 64,
                                                expectation: .document(limit: 64), credentialScope: itemURL))
            }
            guard part.bytes == nil else { continue }
            let id = part.id(of: key, generation: variantsTooLarge + variantsFailed)
            let resume = resumes[index]
            requested[id] = index
            pending.insert(id)
            requests.append(TransferRequest(id: id, url: part.url, temporaryPath: workPath + "/" + part.name + ".part",
                                            maximumSize: maximumSize, resume: resume,
                                            expectation: part.key?.method == .aes128 ? .encryptedSegment : .segment,
                                            credentialScope: itemURL,
                                            allowance: allowance, room: room,
                                            slice: part.range.map { TransferRequest.Slice(offset: $0.offset, length: $0.length) }))
        }
        return requests
    }

    /// The variants to fall back on from `chosen`, the highest first: those of a lower expected
    /// rate, within `--max-height`.
    private func fallbacks(among variants: [HLSVariant], below chosen: HLSVariant) -> [HLSVariant] {
        variants.filter { $0.expectedBitsPerSecond < chosen.expectedBitsPerSecond }
            .filter { variant in maximumHeight.map { cap in variant.resolution.map { $0.height <= cap } ?? true } ?? true }
            .sorted { $0.expectedBitsPerSecond > $1.expectedBitsPerSecond }
    }

    /// Why a media playlist cannot become one file, if it cannot.
    static func problem(with playlist: HLSMediaPlaylist) -> String? {
        if playlist.isLive {
            return "the HLS playlist is live (no #EXT-X-ENDLIST): only finished videos (VOD) can be downloaded"
        }
        if playlist.isIFramesOnly { return "the HLS playlist lists I-frames only, not a video to watch" }
        if playlist.segments.isEmpty { return "the HLS playlist lists no segment" }
        if playlist.usesSampleAES {
            return "the HLS segments are encrypted with SAMPLE-AES (DRM), which vodapp cannot decrypt"
        }
        if playlist.usesUnsupportedEncryption { return "the HLS segments are encrypted with a key format vodapp cannot use" }
        if playlist.segmentFormat == .mixed { return "the HLS playlist mixes MPEG-TS and fMP4 segments" }
        return nil
    }

    /// A hash of `text`, in hex: a segment's name must change when its path does, not when the
    /// token in its query does.
    static func fingerprint(_ text: String) -> String {
        String(FNV1a.hash(text), radix: 16)
    }

    // MARK: - Ends

    /// The item passed the size limit: the next variant down is fetched instead, when there is
    /// one; otherwise the item is too large. The parts of the variant given up stay in the item's
    /// folder until it is discarded: removing thousands here would hold the transfer thread.
    private mutating func over(limits: inout HLSSegmentLimits) -> (add: [TransferRequest], cancel: Set<String>) {
        let cancelled = cancelAll()
        // Remembered, so that the next delivery under this limit does not fetch it again.
        if let given = choice?.variant { ceiling = VariantCeiling.lowering(ceiling, to: given, under: maximumSize) }
        guard !fallbacks.isEmpty else {
            state = .tooLarge
            return ([], cancelled)
        }
        variantsTooLarge += 1
        return switchDown(cancelling: cancelled, limits: &limits)
    }

    /// Fetches the next variant down instead of the one given up, from its playlist (or its
    /// DASH tracks); `cancelled` are the given-up one's requests.
    private mutating func switchDown(cancelling cancelled: Set<String>,
                                     limits: inout HLSSegmentLimits) -> (add: [TransferRequest], cancel: Set<String>) {
        let next = fallbacks.removeFirst()
        choice = HLSVariantChoice(variant: next, expectedBytes: nil, reason: .fits)
        audio = HLSAudioChoice.choose(for: next, among: renditions, preferred: audioLanguages, systemLanguage: systemLanguage)
        (parts, cursor, requested, wholeParts, total, allowance, cutPartBytes) = ([], 0, [:], 0, 0, nil, 0)
        (resumes, resumedBytes) = ([:], 0)
        (segmentCount, audioSegmentCount, segmentFormat, audioSegmentFormat) = (0, 0, nil, nil)
        (videoPlaylist, audioPlaylist, audioPlaylistRequest) = (nil, nil, nil)
        state = .playlist
        if dash != nil {
            indexRequests = [:]
            return (startDASH(next, limits: &limits), cancelled)
        }
        var requests: [TransferRequest] = []
        if let audioURL = audio?.url {
            let request = playlistRequest(audioURL)
            audioPlaylistRequest = request.id
            requests.append(request)
        }
        return (requests + [playlistRequest(next.url)], cancelled)
    }

    /// Gives the item up because one of its requests failed, and cancels the others; or, when
    /// the failure is for good (a 404: the variant is broken) and a smaller variant is left,
    /// fetches that one instead, as players switch.
    private mutating func failing(because outcome: TransferOutcome, limits: inout HLSSegmentLimits,
                                  what: String) -> (add: [TransferRequest], cancel: Set<String>) {
        if outcome.isFinal, case .failed = outcome.result, !fallbacks.isEmpty {
            variantsFailed += 1
            return switchDown(cancelling: cancelAll(), limits: &limits)
        }
        let reason: String
        switch outcome.result {
        case .failed(let text), .timedOut(let text): reason = text
        case .tooLarge: reason = "it is larger than allowed"
        case .completed, .captured: reason = "it is not what was expected"
        }
        if case .timedOut = outcome.result {
            state = .failed("\(what) did not arrive: \(reason)", final: false)
        } else {
            state = .failed("\(what) failed: \(reason)", final: outcome.isFinal)
        }
        return ([], cancelAll())
    }

    private mutating func cancelAll() -> Set<String> {
        defer { pending = [] }
        return pending
    }

    /// Makes the item's folder, from DIR without following a link (`SafeFile.holder(of:)`).
    private mutating func prepareWorkArea() -> Bool {
        var made = SafeFile.makeFolder(workPath)
        if made == EEXIST {
            guard let (parent, name) = try? SafeFile.holder(of: workPath), let info = parent.status(name) else {
                state = .failed("cannot create \(workPath): it cannot be opened from \(SafeFile.workAreaName) without following a link", final: false)
                return false
            }
            if (info.st_mode & S_IFMT) == S_IFDIR { return true }
            // A link, a FIFO or a file planted at the item's folder: the name is vodapp's, and
            // what is there is removed (a link, not its target), or the item would fail for good.
            made = parent.removeFile(name)
            if made == 0 { made = SafeFile.makeFolder(workPath) }
        }
        guard made == 0 else {
            state = .failed("cannot create \(workPath): \(Errno(rawValue: made).description)", final: false)
            return false
        }
        return true
    }

    /// Removes what is not a segment, or a cut segment with its resume record, from the item's
    /// folder, through its descriptor, reached from DIR without following a link: neither a link
    /// planted at the folder's name nor one at `.vodapp` or `partial` on the way is listed through.
    private func removeLeftovers() {
        guard let (parent, name) = try? SafeFile.holder(of: workPath), let folder = try? parent.folder(name) else { return }
        let names = Set(folder.entries().map(\.name))
        folder.removeFiles { name in
            if name.hasSuffix(".seg") { return true }
            if name.hasSuffix(".seg.part") { return names.contains(String(name.dropLast(".part".count)) + ResumeRecord.suffix) }
            if name.hasSuffix(".seg" + ResumeRecord.suffix) { return names.contains(String(name.dropLast(ResumeRecord.suffix.count)) + ".part") }
            return false
        }
    }

    /// Frees the item's folder at once, its segments removed when a delivery has time
    /// (`Folder.discard`): done with after the deadline, 20,000 of them took 3 s to remove.
    private func removeWorkArea() {
        SafeFile.discardFolder(workPath)
    }

    // MARK: - Muxing

    /// The variant's parts (or the audio rendition's) as the runs the muxer reads: a new one at
    /// each discontinuity and at each change of init section, the init section first.
    private func runs(audio: Bool) -> [[Int]] {
        var runs: [[Int]] = []
        var lastInit: Int?
        for (index, part) in parts.enumerated() where part.kind == .segment && part.isAudio == audio {
            let newInit = part.initSection != nil && part.initSection != lastInit
            if runs.isEmpty || part.followsDiscontinuity || newInit {
                runs.append(part.initSection.map { [$0] } ?? [])
                lastInit = part.initSection
            }
            runs[runs.count - 1].append(index)
        }
        return runs
    }

    /// Muxes the init sections and segments, decrypted, into one MP4 at `path` (`StreamMuxer`).
    private func mux(into path: String) throws(MuxFailure) -> StreamMuxer.Made {
        let fd: Int32
        do {
            fd = try SafeFile.create(path)
        } catch {
            throw MuxFailure(.passing, error.description)
        }
        defer { close(fd) }
        // The item's folder, walked to once: each part is opened in it (a walk from DIR for each
        // of 40,000 segments took seconds: fourth attacker trial).
        guard let (parent, name) = try? SafeFile.holder(of: workPath), let folder = try? parent.folder(name) else {
            throw MuxFailure(.passing, "the item's segments cannot be reached from \(SafeFile.workAreaName) without following a link")
        }
        let (parts, keys) = (parts, keys)
        let limit = Int(maximumSize) + 1
        func track(audio: Bool) -> [MuxRun] {
            let format = audio ? audioSegmentFormat : segmentFormat
            return runs(audio: audio).map { indices in
                MuxRun(count: indices.count) { (position: Int) throws(MuxFailure) -> [UInt8] in
                    try Self.bytes(of: parts[indices[position]], in: folder, keys: keys, format: format, limit: limit)
                }
            }
        }
        // With an audio rendition, the variant's own audio (if any) is not the one chosen.
        // A DASH manifest of sound alone: its set's language is the file's.
        var tracks = [MuxTrack(runs: track(audio: false), takesAudio: audio == nil, audioLanguage: audio == nil ? dash?.soundRendition?.language : nil)]
        if audio != nil {
            tracks.append(MuxTrack(runs: track(audio: true), takesVideo: false, name: "the audio rendition", audioLanguage: audio?.language))
        }
        let (stopAt, stop) = (placingDeadline, stop)
        // The placing deadline, or a signal: SIGTERM during a mux of a large stream waited for it
        // and printed no report (sixth attacker trial).
        return try StreamMuxer.mux(tracks, into: fd, maximumSize: maximumSize) {
            stop?.reason != nil || stopAt.map { ContinuousClock.now >= $0 } ?? false
        }
    }

    /// A part's bytes as the muxer reads them: from the work area, decrypted.
    private static func bytes(of part: Part, in folder: Folder, keys: [String: [UInt8]], format: HLSMediaPlaylist.SegmentFormat?,
                              limit: Int) throws(MuxFailure) -> [UInt8] {
        let what = (part.isAudio ? "the audio rendition's " : "") + (part.kind == .segment ? "segment \(part.number)" : "init section")
        guard var bytes = try? SafeFile.contents(of: part.name, in: folder, limit: limit) else {
            throw MuxFailure(.passing, "a downloaded HLS segment went missing")
        }
        if let key = part.key {
            guard let keyURL = key.url, let keyBytes = keys[keyURL.absoluteString] else {
                throw MuxFailure(.passing, "the key of an HLS segment is missing")
            }
            do {
                bytes = try HLSSegmentDecryption.decrypt(bytes, key: keyBytes, iv: key.iv)
            } catch {
                throw MuxFailure(.unusable, "\(what): \(error)")
            }
        }
        if part.kind == .segment, format == .mpegTS, let first = bytes.first,
           first != 0x47, first != 0xFF, !bytes.starts(with: Array("ID3".utf8)) {
            // Segments that are not MPEG-TS (or packed audio) make no file: fMP4 fragments without
            // their #EXT-X-MAP, or a segment decrypted with the wrong key or IV.
            let why = part.key != nil ? "decrypted, it is not MPEG-TS: wrong key or IV?"
                                      : "it is not MPEG-TS, and the playlist names no init section (#EXT-X-MAP) for it"
            throw MuxFailure(.unusable, "\(what): \(why)")
        }
        return bytes
    }
}
