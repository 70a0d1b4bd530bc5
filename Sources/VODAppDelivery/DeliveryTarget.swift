import VODAppModel
import VODAppPayload
import VODAppReport

/// One item to fetch: streamed out of sight, then placed under a name made when its response
/// has said what it is (`MediaFileName`).
struct DeliveryTarget: Sendable {
    let item: PlaylistItem
    let url: MediaURL
    let temporary: String

    func report(_ status: ItemReport.Status, bytes: Int64? = nil, path: String? = nil,
                httpStatus: Int? = nil, error: String? = nil, final: Bool? = nil) -> ItemReport {
        ItemReport(key: item.key, title: item.title, url: item.urlString, status: status,
                   bytes: bytes, path: path, httpStatus: httpStatus, error: error, final: final)
    }
}
