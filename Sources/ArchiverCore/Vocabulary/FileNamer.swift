// File and folder names that are safe on every platform, whatever a feed's titles contain.
//
// A name is one path component: no separators, no NUL or control characters, none of the characters Windows
// or macOS refuse, no leading dot or dash (so never `.` or `..`, never hidden, never read as an option), no
// trailing dot or space, no Windows
// device name, Unicode NFC, and at most 255 bytes of UTF-8 with the extension kept.
import Foundation

/// Turns titles into safe file and folder names.
public enum FileNamer {
    /// The longest name most file systems accept, in bytes of UTF-8.
    public static let maximumNameBytes = 255

    /// Cleans `text` into a single safe name component. Returns an empty string when nothing usable is left.
    public static func sanitize(_ text: String, maximumBytes: Int = maximumNameBytes) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var lastWasSpace = true  // drops leading white space and collapses runs
        // ASCII is its own canonical composition: most names skip the Unicode normaliser.
        let composed = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
        let scalars = Array(composed.unicodeScalars)
        for (position, scalar) in scalars.enumerated() {
            let replacement: String
            switch scalar {
            // "Episode 3: Title" reads best as "Episode 3 - Title"; "10:30" as "10-30".
            case ":" where position + 1 < scalars.count && scalars[position + 1] == " ": replacement = " -"
            case "/", "\\", "|", ":": replacement = "-"
            case "\"": replacement = "'"
            case "*", "?", "<", ">": continue
            case "\u{09}", "\u{0A}", "\u{0D}", " ", "\u{A0}", "\u{2028}", "\u{2029}": replacement = " "
            default:
                // C0 and C1 controls, DEL, and the Unicode format/private characters a terminal would hide.
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFEFF
                    || scalar.value == 0xFFFD
                    || (0x200B...0x200F).contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                    || (0x2066...0x2069).contains(scalar.value)
                {
                    continue
                }
                replacement = String(scalar)
            }
            if replacement == " " {
                if lastWasSpace { continue }
                lastWasSpace = true
            } else {
                lastWasSpace = false
                if replacement == " -" && result.hasSuffix(" ") { result.removeLast() }
            }
            result += replacement
        }
        var trimmed = Substring(result)
        // No hidden names, no "." or "..", and no leading "-" that shell tools would read as an option.
        while let first = trimmed.first, first == "." || first == " " || first == "-" { trimmed = trimmed.dropFirst() }
        // Windows drops trailing dots and spaces silently, which would make two names collide there.
        while let last = trimmed.last, last == "." || last == " " { trimmed = trimmed.dropLast() }
        var name = truncate(String(trimmed), toBytes: maximumBytes)
        while let last = name.last, last == "." || last == " " { name.removeLast() }
        // Windows reads the part before the first dot ("nul.txt" is NUL): the mark goes right after that part, so
        // an extension added later keeps it reserved-free, and sanitizing again changes nothing.
        if isWindowsDeviceName(name) {
            let base = name.prefix(while: { $0 != "." && $0 != " " })
            name = truncate(base + "_" + name.dropFirst(base.count), toBytes: maximumBytes)
        }
        return name
    }

    /// A file name from a stem and an extension, with ` (n)` before the extension when `counter` > 1,
    /// shortened to fit `maximumNameBytes` by cutting the stem, never the extension or the counter.
    public static func fileName(stem: String, extension ext: String?, counter: Int = 1) -> String {
        let suffix = counter > 1 ? " (\(counter))" : ""
        let tail = suffix + (ext.map { "." + $0 } ?? "")
        var cut = truncate(stem, toBytes: maximumNameBytes - tail.utf8.count)
        while let last = cut.last, last == "." || last == " " { cut.removeLast() }
        return cut + tail
    }

    /// The extension for an episode file: from the enclosure URL's path, else from its MIME type; followed by
    /// `.txt` when a static server would serve it as live content (`LiveContent`).
    public static func fileExtension(url: String, mimeType: String?) -> String? {
        declaredExtension(url: url, mimeType: mimeType).map(LiveContent.defusedExtension)
    }

    private static func declaredExtension(url: String, mimeType: String?) -> String? {
        let fromType = mimeType.flatMap { MediaTypes.fileExtension(forMIMEType: $0) }
        if let path = URLComponents(string: url)?.path ?? URL(string: url)?.path {
            let last = path.split(separator: "/").last.map(String.init) ?? ""
            if let dot = last.lastIndex(of: "."), dot != last.startIndex {
                let ext = last[last.index(after: dot)...].lowercased()
                let plausible =
                    (1...5).contains(ext.count) && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                // Script endings ("download.php?id=3") say nothing about the file; the MIME type does.
                if plausible, fromType == nil || !MediaTypes.scriptExtensions.contains(ext) { return ext }
            }
        }
        return fromType
    }

    /// Cuts `text` to at most `limit` bytes of UTF-8 without splitting a character.
    static func truncate(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > limit { break }
            result.append(character)
            used += size
        }
        return result
    }

    private static func isWindowsDeviceName(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1).first ?? ""
        // The longest device name is CONOUT$: an ASCII stem of more than 7 characters besides spaces and tabs is
        // none (most names stop here, before Foundation's trimming and upper-casing).
        if stem.utf8.allSatisfy({ $0 < 0x80 }), stem.utf8.count(where: { $0 != 0x20 && $0 != 0x09 }) > 7 {
            return false
        }
        let trimmedStem = stem.trimmingCharacters(in: .whitespaces).uppercased()
        if ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].contains(trimmedStem) { return true }
        if trimmedStem.count == 4, trimmedStem.hasPrefix("COM") || trimmedStem.hasPrefix("LPT"),
            let digit = trimmedStem.last, "123456789¹²³".contains(digit)
        {
            return true
        }
        return false
    }
}
