/// The version both tools print for `--version`, and the one `scripts/package-deb` puts in the
/// Debian package's name and control file (it asks the built `vodapp --version`).
public enum ReleaseVersion {
    public static let current = "0.1.0"
}
