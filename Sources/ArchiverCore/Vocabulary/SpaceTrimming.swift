// Trimming white space from values that almost always come without it (feed addresses, media types), without
// asking Foundation when no end can be white space: Foundation trims through NSString, which copies the text and,
// the first time in a process, looks types up at run time, on the way to a one-show run's first request.
import Foundation

extension String {
    /// The text without white space at either end: `.whitespacesAndNewlines`, or `.whitespaces` when
    /// `newlines` is false. Foundation is asked only when an end byte may be white space (ASCII up to the space,
    /// or any non-ASCII byte, which may begin a non-breaking or other Unicode space).
    func trimmingSpace(newlines: Bool = true) -> String {
        let mayBeSpace: (UInt8) -> Bool = { $0 <= 0x20 || $0 >= 0x80 }
        guard let first = utf8.first, let last = utf8.last, mayBeSpace(first) || mayBeSpace(last) else {
            return self
        }
        return trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
    }
}
