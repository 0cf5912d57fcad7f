// Short, stable, file-name-safe names for keys and URLs.
import Foundation

/// Short, stable file-name-safe names for keys and URLs (the first 16 hex digits of their SHA-256).
enum StableName {
    static func of(_ text: String) -> String {
        String(SHA256.hex(Array(text.utf8)).prefix(16))
    }

    /// The first 64 bits of the text's SHA-256, as a number: the same on every machine and every run.
    static func number(of text: String) -> UInt64 {
        UInt64(of(text), radix: 16) ?? 0
    }
}
