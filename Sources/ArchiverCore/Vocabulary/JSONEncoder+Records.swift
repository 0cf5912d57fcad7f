// How podarchive's small JSON records are encoded, whichever part keeps them.
import Foundation

extension JSONEncoder {
    /// Records are small and read by podarchive: compact, keys sorted.
    static let records: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
