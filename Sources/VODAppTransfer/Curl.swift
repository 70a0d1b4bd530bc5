import CCurl
import VODAppBase
import VODAppTransferPolicy

/// Process-wide libcurl set-up.
public enum Curl {
    /// Why libcurl cannot be used, or nil when it can. The first read loads and initialises it,
    /// once per process, under a lock (CCurl's loader): any thread may be first. A libcurl call
    /// does the same, and ends the process when it fails; what checks this first can fail one
    /// request instead.
    public static let unavailable: String? = String(failureOf: { vod_curl_load($0, $1) }).map { "libcurl cannot be used: " + $0 }

    /// The libcurl version string, for the User-Agent and for logs.
    public static var version: String {
        String(cString: curl_version_info(CURLVERSION_TENTH).pointee.version)
    }
}
