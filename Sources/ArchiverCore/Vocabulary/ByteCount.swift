// One way to write a size, for the command line and the site alike.
import Foundation

enum ByteCount {
    /// Sizes as people read them: 980 B, 12.3 MB, 1.2 GB (powers of 1000, one decimal, rounded down).
    static func text(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB", "PB"]
        guard bytes >= 1000 else { return "\(bytes) B" }
        var unit = 0
        var scaled = bytes
        while scaled >= 1_000_000, unit < units.count - 2 {
            scaled /= 1000
            unit += 1
        }
        // `scaled` is now in thousands of units[unit]: print it with one decimal in units[unit + 1].
        var tenths = (scaled + 50) / 100
        if tenths >= 10_000, unit < units.count - 2 {  // 999,999 B rounds up to 1.0 MB, not 1000.0 kB
            unit += 1
            tenths = (scaled + 50_000) / 100_000
        }
        return "\(tenths / 10).\(tenths % 10) \(units[unit + 1])"
    }
}
