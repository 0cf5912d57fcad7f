// The version podarchive reports, and the User-Agent it sends.

/// podarchive's version.
public enum PodarchiveVersion {
    public static let current = "0.1.0"
    public static let userAgent = "podarchive/\(current) (+https://github.com/podarchive/podarchive)"
}
