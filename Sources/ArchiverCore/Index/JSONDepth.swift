// How deeply a JSON document nests, counted before it is parsed: a damaged or hostile index of 150,000 nested
// brackets is refused instead of overflowing the stack of a recursive decoder.
import Foundation

/// How deeply a JSON document nests, counted without parsing it (brackets inside strings are skipped).
enum JSONDepth {
    /// The deepest nesting, or `limit + 1` as soon as it is passed.
    static func maximum(of data: Data, limit: Int) -> Int {
        data.withUnsafeBytes { raw -> Int in
            var depth = 0
            var deepest = 0
            var inString = false
            var escaped = false
            for byte in raw {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    deepest = max(deepest, depth)
                    if deepest > limit { return deepest }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            return deepest
        }
    }
}
