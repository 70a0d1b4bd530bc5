import Foundation
import NIOConcurrencyHelpers
import VODAppBase
import VODAppHLS
import VODAppMediaDirectory
import VODAppModel
import VODAppReport
import VODAppStore
import VODAppStreams
import VODAppTransfer
import VODAppTransferPolicy

/// The transfer phase, with each item placed and recorded the moment its body is in.
extension Delivery {
    /// Transfers the items this delivery holds the locks of. Each is placed, recorded and let go
    /// as soon as its body is whole and durable, while the others are still arriving: a small
    /// item is never hidden behind a large one, and a process killed mid-playlist keeps every
    /// file it finished.
    func transfer(_ plan: DeliveryPlan, budget: Budget, stop: StopRequest?) async -> [String: ItemReport] {
        let mine = plan.mine
        guard let locks = plan.locks, !mine.isEmpty else { return [:] }
        let directory = plan.directory
        let ledger = plan.ledger
        let known = plan.known
        let targets = Dictionary(mine.map { ($0.item.key, $0) }, uniquingKeysWith: { first, _ in first })
        let requests = mine.map { request(for: $0, known: known[$0.item.key], directory: directory, room: plan.room) }
        let jobs = OpenFileLimit.transfersThatFit(options.jobs)
        if jobs < options.jobs {
            attention.warn("the limit of \(OpenFileLimit.current) open files leaves room for \(jobs) transfer(s) at once, not \(options.jobs); raise it with ulimit -n")
        }
        let engine = TransferEngine(configuration: .init(jobs: jobs, userAgent: options.userAgent,
                                                       budgetAware: options.budgetAware,
                                                       certificateAuthorities: options.certificateAuthorities,
                                                       headers: options.headers, cookieFile: options.cookieFile,
                                                       headerHosts: options.headerHosts, rateLimit: options.rateLimit),
                                    logger: logger)
        let syncer = FileSyncer(width: jobs)
        // Items that end close together are made known together: one fsync of DIR makes every
        // new name in the batch durable, then one transaction records them all, before any of
        // their locks goes. A file per fsync was most of a small-file playlist's time.
        let commits = GroupCommit<(record: StoredItem, placed: Bool)> { batch in
            // The new names are durable before the store says the files are there.
            if batch.contains(where: \.placed) { directory.sync() }
            ledger?.record(batch.map(\.record), until: budget.end)
        }
        let finished = NIOLockedValueBox<[String: ItemReport]>([:])
        // What was chosen of each HLS master playlist, for its report.
        let choices = NIOLockedValueBox<[String: StreamChoice]>([:])
        // Runs on a syncer thread once the body is on disk.
        // `tracks`: a stream's subtitles, to place beside its file.
        let finish: @Sendable (DeliveryTarget, TransferOutcome, String?, [SubtitleTrack]) -> Void = { target, outcome, unsynced, tracks in
            let key = target.item.key
            var outcome = outcome
            if let unsynced {
                SafeFile.remove(target.temporary)
                outcome = TransferOutcome(id: key, result: .failed(reason: "cannot write the file: \(unsynced)"),
                                          httpStatus: outcome.httpStatus, bodyBytesReceived: outcome.bodyBytesReceived)
            }
            var itemReport = place(outcome, target: target, directory: directory)
            itemReport.variant = choices.withLockedValue { $0[key] }
            if itemReport.status == .downloaded, let path = itemReport.path, !tracks.isEmpty {
                itemReport.subtitles = placeSubtitles(tracks, beside: path, key: key, known: known[key], directory: directory, until: budget.end)
            }
            commits.commit((StoredItem(outcome: outcome, report: itemReport, of: target.item, known: known[key], vouched: options.vouched),
                            itemReport.status == .downloaded))
            finished.withLockedValue { $0[key] = itemReport }
            locks.release(key)
        }

        progress?.begin(titles: targets.mapValues { $0.item.title ?? $0.item.key }, budget: budget)
        var show: (@Sendable (TransferSnapshot) -> Void)?
        if let progress { show = { progress.update($0) } }
        // An HLS item is muxed and placed as soon as its last segment is in, on a syncer thread,
        // not on the transfer thread, which serves every other transfer.
        // Joins an HLS item's parts (`cut` is nil when its last segment is in, or why the run
        // ended) and finishes the file as any other; another outcome is kept for the report.
        let muxedOtherwise = NIOLockedValueBox<[String: TransferOutcome]>([:])
        let mux: @Sendable (StreamDownloads, DeliveryTarget, String?) -> Void = { hls, target, cut in
            let key = target.item.key
            let choice = hls.choice(of: key)
            if let choice { choices.withLockedValue { $0[key] = choice } }
            // Nil when the other way in took it first.
            let began = ContinuousClock.now
            guard let (muxed, tracks) = hls.finishWithSubtitles(key, into: target.temporary, because: cut) else { return }
            // What the mux costs, for --verbose and Benchmarks/mux.py.
            logger.info("HLS", metadata: ["key": "\(key)", "variant": "\(choice?.description ?? "the only one")",
                                          "result": "\(muxed.result)",
                                          "muxSeconds": "\(String(format: "%.3f", (ContinuousClock.now - began).inSeconds))"])
            if case .completed = muxed.result {
                syncer.submit(target.temporary) { unsynced in finish(target, muxed, unsynced, tracks) }
            } else {
                muxedOtherwise.withLockedValue { $0[key] = muxed }
            }
        }
        let hls = StreamDownloads(segmentFolder: directory.segmentFolder(key:), maximumSize: options.maximumSize, room: plan.room,
                               itemURLs: targets.mapValues(\.url), deadline: budget.transferDeadline,
                               placingDeadline: budget.end - budget.reserve / 2,
                               audioLanguages: options.audioLanguages, systemLanguage: ProcessInfo.processInfo.environment["LANG"],
                               maximumHeight: options.maximumHeight, stop: stop,
                               ceilings: known.compactMapValues { $0.knownCeiling(under: options.maximumSize) },
                               subtitles: options.subtitles) { hls, key in
            guard let target = targets[key] else { return }
            syncer.perform { mux(hls, target, nil) }
        }
        let vouched = options.vouched
        let outcomes = await engine.run(
            requests, deadline: budget.transferDeadline, stop: stop,
            completed: { request, outcome in
                guard let target = targets[request.id], request.temporaryPath == target.temporary else {
                    // An HLS segment: durable before it is muxed, so that a segment kept for the
                    // next delivery is whole after a power cut. The follow-up renames it to its
                    // name on this thread right after this.
                    let path = request.temporaryPath
                    syncer.submit(path, renamedTo: path.hasSuffix(".part") ? String(path.dropLast(".part".count)) : nil)
                    return
                }
                syncer.submit(target.temporary) { unsynced in finish(target, outcome, unsynced, []) }
            },
            checkpoint: { id, partial in
                guard let target = targets[id], let ledger else { return }
                ledger.checkpoint(StoredItem(resumable: partial, of: target.item, vouched: vouched || known[id]?.vouched == true,
                                             known: known[id]), until: budget.end)
            },
            progress: show, followUp: hls)
        progress?.end()
        // What is left is finished here, not by a timer waiting for subtitles.
        hls.close()

        var byKey: [String: TransferOutcome] = Dictionary(outcomes.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        for target in mine {
            guard let outcome = byKey[target.item.key], case .captured = outcome.result else { continue }
            mux(hls, target, stop?.reason ?? "the budget ran out")
        }
        syncer.finish()
        let batches = commits.statistics
        logger.debug("group commits", metadata: ["flushes": "\(batches.flushes)", "items": "\(batches.entries)", "largest": "\(batches.largest)"])
        for (key, muxed) in muxedOtherwise.withLockedValue({ $0 }) { byKey[key] = muxed }

        // What did not complete is recorded in one transaction, before its locks go, so that a
        // delivery waiting for one of these items finds how it ended.
        var reports = finished.withLockedValue { $0 }
        var records: [StoredItem] = []
        for target in mine where reports[target.item.key] == nil {
            let key = target.item.key
            // The engine answers for every request; should it ever not, the item still gets a
            // report, and its lock is still released.
            let outcome = byKey[key] ?? TransferOutcome(id: key, result: .failed(reason: "the transfer ended without an outcome"))
            var itemReport = place(outcome, target: target, directory: directory)
            itemReport.variant = choices.withLockedValue { $0[key] }
            reports[key] = itemReport
            records.append(StoredItem(outcome: outcome, report: itemReport, of: target.item, known: known[key], vouched: options.vouched))
        }
        ledger?.record(records, until: budget.end)
        // The placed ones were let go as they were placed.
        let placed = finished.withLockedValue { Set($0.keys) }
        locks.release(mine.lazy.map(\.item.key).filter { !placed.contains($0) })
        return reports
    }

    /// The request for an item: resuming the kept partial body when the store knows the validator
    /// it was fetched under, from the start otherwise.
    func request(for target: DeliveryTarget, known: StoredItem?, directory: MediaDirectory, room: TransferRequest.Room?) -> TransferRequest {
        let key = target.item.key
        var resume: TransferRequest.Resume?
        if let offset = directory.partialBytes(key: key), offset > 0 {
            // The same file whatever the query: a signed URL's token changes on every push.
            // `If-Range` with the recorded validator makes a changed file come whole.
            // A resume needs the whole file's size too (`Resume.total`).
            if let known, known.state == .partial, (try? MediaURL(known.url))?.resource == target.url.resource,
               let validator = known.validator, let total = known.total {
                resume = TransferRequest.Resume(offset: offset, validator: validator, total: total)
                logger.info("resuming", metadata: ["key": "\(key)", "offset": "\(offset)"])
            } else {
                // Bytes of unknown origin (a crash before they were recorded): not worth the risk.
                SafeFile.remove(target.temporary)
            }
        }
        return TransferRequest(id: key, url: target.url, temporaryPath: target.temporary,
                               maximumSize: options.maximumSize, resume: resume, room: room)
    }
}
