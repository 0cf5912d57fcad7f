// A Podcasting 2.0 chapters document as the tag writers take it, read a chunk at a time within
// `JSONLimits.chapters` (never held whole): each chapter's `startTime` and `title`, at most `limit` of them, titles
// cut to `titleLimit` bytes, times that are negative, not finite or past the audio's end left out, sorted by start.
// What was cut or left out is said (`notes`); a document that is no chapters document gives none and says why.
import Foundation

struct LibraryChapters: Equatable {
    /// The most chapters kept: a CTOC frame counts its entries in one byte.
    static let limit = 255
    /// The most bytes of a chapter's title kept.
    static let titleLimit = 256

    var chapters: [LibraryChapter] = []
    /// What was cut or left out, or why none were read: one phrase each.
    var notes: [String] = []

    /// The chapters of the document at `path`, clamped to `duration` milliseconds where known.
    static func read(atPath path: String, files: any FileReading, duration: UInt32?) -> LibraryChapters {
        var reader = BoundedJSON(limits: .chapters)
        var collector = Collector(duration: duration)
        do {
            let readable = try files.forEachChunk(ofFileAtPath: path, size: 64 << 10) { chunk in
                try reader.read(chunk) { collector.take($0) }
            }
            guard readable else { return LibraryChapters(notes: ["the chapters could not be read"]) }
            try reader.finish { collector.take($0) }
        } catch let refusal as JSONRefusal {
            return LibraryChapters(notes: ["the chapters were refused: \(refusal.description)"])
        } catch {
            return LibraryChapters(notes: ["the chapters could not be read"])
        }
        return collector.result()
    }

    /// Follows the document's events: objects in the top object's `chapters` list, their `startTime` and `title`.
    private struct Collector {
        let duration: UInt32?
        var depth = 0
        var topKey: String?
        var inChapters = false
        var chapterKey: String?
        var start: Double?
        var title: String?
        var found: [(start: Double, title: String)] = []
        var dropped = 0
        var pastEnd = 0
        var kept = 0

        mutating func take(_ event: JSONEvent) {
            switch (depth, event) {
            case (1, .key(let key)): topKey = key
            case (1, .beginArray) where topKey == "chapters": inChapters = true
            case (2, .beginObject) where inChapters: (start, title, chapterKey) = (nil, nil, nil)
            case (3, .key(let key)) where inChapters: chapterKey = key
            case (3, .number(let text)) where inChapters && chapterKey == "startTime": start = Double(text)
            case (3, .string(let text)) where inChapters && chapterKey == "title": title = text
            default: break
            }
            switch event {
            case .beginObject, .beginArray: depth += 1
            case .endObject, .endArray:
                depth -= 1
                if depth == 2, inChapters, event == .endObject { close() }
                if depth == 1 { inChapters = false }
            default: break
            }
        }

        private mutating func close() {
            guard let start, start.isFinite, start >= 0, start < 4_000_000 else {
                dropped += 1
                return
            }
            if let duration, start * 1000 >= Double(duration) {
                pastEnd += 1
                return
            }
            kept += 1
            // Only the earliest are kept while reading, in whatever order they come: memory stays small for a million.
            found.append((start, title ?? ""))
            if found.count >= 4 * LibraryChapters.limit {
                found.sort { $0.start < $1.start }
                found.removeLast(found.count - LibraryChapters.limit)
            }
        }

        func result() -> LibraryChapters {
            var notes: [String] = []
            if dropped > 0 { notes.append("\(dropped) chapters without a usable start time left out") }
            if pastEnd > 0 { notes.append("\(pastEnd) chapters past the audio's end left out") }
            var kept = found.sorted { $0.start < $1.start }.map {
                LibraryChapter(startMilliseconds: UInt32($0.start * 1000), title: $0.title)
            }
            if self.kept > LibraryChapters.limit {
                notes.append("\(self.kept) chapters: only \(LibraryChapters.limit) kept")
                kept = Array(kept.prefix(LibraryChapters.limit))
            }
            var cut = 0
            for index in kept.indices where kept[index].title.utf8.count > LibraryChapters.titleLimit {
                kept[index].title = ID3Tag.cut(kept[index].title, toBytes: LibraryChapters.titleLimit)
                cut += 1
            }
            if cut > 0 { notes.append("\(cut) chapter titles cut to \(LibraryChapters.titleLimit) bytes") }
            return LibraryChapters(chapters: kept, notes: notes)
        }
    }
}
