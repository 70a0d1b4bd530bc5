/// Why a transfer's callback stopped it; libcurl itself only reports CURLE_WRITE_ERROR.
package enum TransferAbort: Sendable, Equatable {
    /// An error status, found when its body began.
    case httpStatus(Int)
    case tooLarge
    case fileError(String)
    /// A 206 that does not answer the range asked.
    case badRange(String)
    /// The body is not what was asked for: a page instead of media, a DASH manifest; `final`
    /// when fetching it again cannot help.
    case rejected(String, final: Bool)
    /// Writing it would leave less disk space than the delivery may use (`room`).
    case noRoom
    /// Its declared length does not fit on the disk (`needed` bytes; `free` as the disk stood,
    /// of `capacity` in all), found when reserving it before its body.
    case noSpace(needed: Int64, free: Int64?, capacity: Int64?)
}
