// ASCII-only names (`--ascii-names`, as yt-dlp's `--restrict-filenames`): for players, file systems and sync tools
// that mangle anything else. Other scripts are transliterated (ICU's Any-Latin), accents stripped, the common
// letters and signs with no decomposition spelled out, and anything left becomes `_`; then the name is made safe as
// every name is (`FileNamer.sanitize`).
import Foundation

extension FileNamer {
    /// Letters and signs that neither transliteration nor stripping accents turns into ASCII.
    private static let spelled: [Character: String] = [
        "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "đ": "d",
        "Đ": "D", "þ": "th", "Þ": "Th", "ð": "d", "Ð": "D", "ı": "i", "—": "-", "–": "-", "‐": "-", "‘": "'",
        "’": "'", "“": "'", "”": "'", "…": "...", "«": "'", "»": "'", "€": "EUR", "£": "GBP", "×": "x",
    ]

    /// `text` in ASCII: transliterated, its accents stripped, what is left that is not ASCII each run made `_`.
    public static func ascii(_ text: String) -> String {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return text }
        let compatible = text.precomposedStringWithCompatibilityMapping  // "ﬁ" is "fi", "①" is "1"
        let latin = compatible.applyingTransform(.toLatin, reverse: false) ?? compatible
        let stripped = latin.applyingTransform(.stripDiacritics, reverse: false) ?? latin
        var out = ""
        var replaced = false
        for character in stripped {
            if character.unicodeScalars.allSatisfy(\.isASCII) {
                out.append(character)
                replaced = false
            } else if let spelled = spelled[character] {
                out += spelled
                replaced = false
            } else if !replaced {
                out.append("_")
                replaced = true
            }
        }
        return out
    }
}
