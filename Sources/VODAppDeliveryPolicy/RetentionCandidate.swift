import VODAppMediaDirectory
import VODAppStore

/// What retention may remove: a file an earlier delivery placed, or the partial body (or HLS
/// segments) an earlier delivery kept for resuming, with what `RetentionPlan` weighs of it.
package struct RetentionCandidate {
    package enum Kind {
        case file(MediaDirectory.PlacedFile)
        case partial(MediaDirectory.KeptPartial)
    }

    package let item: StoredItem
    package let kind: Kind
    package let entry: RetentionPlan.Entry

    package init(item: StoredItem, kind: Kind, entry: RetentionPlan.Entry) {
        self.item = item
        self.kind = kind
        self.entry = entry
    }
}
