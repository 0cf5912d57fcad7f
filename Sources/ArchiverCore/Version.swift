// The version podarchive reports, and the User-Agent it sends.

/// podarchive's version.
public enum PodarchiveVersion {
    /// The version `--version` prints.
    public static let current = "0.1.0"
    /// The User-Agent of every request.
    public static let userAgent = "podarchive/\(current) (+https://github.com/podarchive/podarchive)"
}
