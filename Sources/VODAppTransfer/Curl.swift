import CCurl
import VODAppTransferPolicy

/// Process-wide libcurl set-up.
public enum Curl {
    /// libcurl's global state. `curl_global_init` is not thread-safe, so executables touch this
    /// first thing, before any thread starts; a Swift global is initialised exactly once.
    private static let initialization: CURLcode = vod_global_init()

    /// Initialises libcurl once per process. Call before starting threads.
    @discardableResult
    public static func initialize() -> Bool {
        initialization == CURLE_OK
    }

    /// The libcurl version string, for the User-Agent and for logs.
    public static var version: String {
        String(cString: curl_version_info(CURLVERSION_TENTH).pointee.version)
    }
}
