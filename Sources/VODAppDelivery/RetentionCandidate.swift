import VODAppMediaDirectory
import VODAppStore

/// What retention may remove: a file an earlier delivery placed, or the partial body (or HLS
/// segments) an earlier delivery kept for resuming, with what `RetentionPlan` weighs of it.
struct RetentionCandidate {
    enum Kind {
        case file(MediaDirectory.PlacedFile)
        case partial(MediaDirectory.KeptPartial)
    }

    let item: StoredItem
    let kind: Kind
    let entry: RetentionPlan.Entry
}
