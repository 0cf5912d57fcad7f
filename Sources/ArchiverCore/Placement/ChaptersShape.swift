// Whether a downloaded chapters document is one to keep, judged as it is read a chunk at a time within
// `JSONLimits.chapters`: an object whose `chapters` is a list of objects, each with a numeric `startTime`.
import Foundation

/// Follows a chapters document's events and stops at the first thing that makes it none.
struct ChaptersShape {
    private var depth = 0
    private var topKey: String?
    private var chapterKey: String?
    private var sawChapters = false
    private var inChapters = false
    private var chapterHasStart = false

    /// Why the file at `path` is no chapters document to keep, or nil. Never holds the file whole.
    static func problem(atPath path: String, in files: any FileReading) -> String? {
        var reader = BoundedJSON(limits: .chapters)
        var shape = ChaptersShape()
        do {
            let readable = try files.forEachChunk(ofFileAtPath: path, size: 64 << 10) { chunk in
                try reader.read(chunk) { try shape.take($0) }
            }
            guard readable else { return "it could not be read" }
            try reader.finish { try shape.take($0) }
            return shape.sawChapters ? nil : "it has no list of chapters"
        } catch let refusal as JSONRefusal {
            return refusal.description
        } catch {
            return "\(error)"
        }
    }

    private mutating func take(_ event: JSONEvent) throws {
        switch depth {
        case 0:
            guard event == .beginObject else { throw JSONRefusal(description: "it is not a JSON object") }
        case 1:
            if case .key(let key) = event { topKey = key }
            if topKey == "chapters", !isKeyOrEnd(event) {
                guard event == .beginArray else { throw JSONRefusal(description: "it has no list of chapters") }
                (sawChapters, inChapters) = (true, true)
                topKey = nil
            }
        case 2 where inChapters:
            guard event == .beginObject || event == .endArray else {
                throw JSONRefusal(description: "it has no list of chapters")
            }
            chapterHasStart = false
        case 3 where inChapters:
            if case .key(let key) = event {
                chapterKey = key
            } else if chapterKey == "startTime" {
                if case .number = event { chapterHasStart = true }
                chapterKey = nil
            } else if event == .endObject, !chapterHasStart {
                throw JSONRefusal(description: "a chapter has no start time")
            }
        default: break
        }
        switch event {
        case .beginObject, .beginArray: depth += 1
        case .endObject, .endArray:
            depth -= 1
            if depth == 1 { inChapters = false }
        default: break
        }
    }

    private func isKeyOrEnd(_ event: JSONEvent) -> Bool {
        if case .key = event { return true }
        return event == .endObject
    }
}
