// Short, stable, file-name-safe names for keys and URLs.
import Foundation

/// Short, stable file-name-safe names for keys and URLs (the first 16 hex digits of their SHA-256).
enum StableName {
    static func of(_ text: String) -> String {
        String(SHA256.hex(Array(text.utf8)).prefix(16))
    }
}
