import VODAppBase
import VODAppTransferPolicy

/// What resuming a stream segment cut mid-body needs, kept beside its `.part` file as
/// `NAME.seg.resume`: the size of the whole segment and the validator its bytes came under
/// (`If-Range`). The kept bytes themselves are the `.part` file's; its size, not a number in the
/// record, says where to resume.
///
/// Three lines of text: the bytes kept when it was written, the total, the validator. Read
/// strictly: the validator goes into a request header, so a record with anything but printable
/// ASCII in it is no record.
struct ResumeRecord: Equatable {
    static let suffix = ".resume"
    /// The most bytes a record may have.
    static let limit = 1024

    let kept: Int64
    let total: Int64
    let validator: String

    init?(kept: Int64, total: Int64, validator: String) {
        guard kept > 0, total > kept, !validator.isEmpty, validator.utf8.count <= 256,
              validator.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        self.kept = kept
        self.total = total
        self.validator = validator
    }

    /// The record of a transfer the cut caught, when its server gave what a resume needs.
    init?(_ partial: TransferOutcome.Partial) {
        guard let validator = TransferRequest.Resume.validator(etag: partial.etag, lastModified: partial.lastModified),
              let total = partial.total else { return nil }
        self.init(kept: partial.bytes, total: total, validator: validator)
    }

    init?(text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 4, lines[3].isEmpty, let kept = Int64(lines[0]), let total = Int64(lines[1]) else { return nil }
        self.init(kept: kept, total: total, validator: String(lines[2]))
    }

    var text: String { "\(kept)\n\(total)\n\(validator)\n" }

    static func read(_ path: String) -> ResumeRecord? {
        guard let bytes = try? SafeFile.contents(of: path, limit: limit) else { return nil }
        return ResumeRecord(text: String(decoding: bytes, as: UTF8.self))
    }

    /// Writes the record in one rename, so that a reader finds all of it or none; a failure
    /// leaves the segment to be fetched again whole.
    func write(to path: String) {
        try? SafeFile.replace(path, with: Array(text.utf8), writingFirst: path + ".new")
    }
}
