// Values the options of several commands read into: sizes, the transfer settings, a shard, how much to say.
import ArchiverCore
import Foundation

/// Sizes as people write them: `1024`, `500K`, `2M`, `1G` (powers of 1024; `KB`/`MB`/`GB`/`KiB` too).
enum ByteSize {
    static func parse(_ text: String) -> Int64? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits.removeLast(suffix.count)
            break
        }
        var multiplier: Int64 = 1
        if let unit = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(unit)] {
            multiplier = Int64(1) << (10 * power)
            digits.removeLast()
        }
        guard let value = Int64(digits), value >= 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }
}

/// `--shard K/N`: this machine's share of the subscriptions.
struct Shard: Equatable, Sendable {
    var index: Int
    var count: Int
}

/// How much `sync` prints: `--quiet` only errors (on standard error), `--verbose` also what it skipped and why.
enum Verbosity: Equatable, Sendable {
    case quiet, normal, verbose
}

/// A value with the text it was read from (saved as the user wrote it).
struct Written<Value: Sendable>: Sendable {
    let text: String
    let value: Value
}

extension Written: Equatable where Value: Equatable {}
