import Foundation

/// A file of trusted CAs as libcurl and libmosquitto read one: PEM, one or more
/// `-----BEGIN CERTIFICATE-----` blocks. Anything else (a DER file, a key, a payload given by
/// mistake) makes every TLS connection fail later with OpenSSL's "no certificate or crl found",
/// which reads like a network failure and is retried for ever.
public enum CertificateFile {
    /// The most read: a bundle of every public CA is about 200 KiB.
    static let limit = 8 << 20

    /// Why `path` is no CA file, in words; nil when it holds at least one PEM certificate. Links
    /// are followed, as the TLS libraries follow them (`/etc/ssl/certs` is mostly links).
    public static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return "not a regular file" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return String(cString: strerror(errno)) }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: limit)) ?? Data()
        guard bytes.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
            return "holds no PEM certificate (-----BEGIN CERTIFICATE-----): give the CA's certificate in PEM"
        }
        return nil
    }
}
