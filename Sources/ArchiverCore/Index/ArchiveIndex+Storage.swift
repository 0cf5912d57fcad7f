// The check that refuses an index whose files are not names inside the show's folder (an index podarchive never
// wrote). How the index is written and read: `IndexFormat`; where it lives: `ArchiveLayout`.
import Foundation

extension ArchiveIndex {
    /// Why an entry's file could not be used as it is: a path that is empty, absolute, or climbs out (`..`). Nil
    /// when every file is fine. Such an index was not written by podarchive (names written by older versions,
    /// under other naming rules, stay valid: only what could leave the folder is refused).
    public func unsafeFile() -> String? {
        for entry in episodes where !Self.isInside(entry.file) {
            return "the file \"\(entry.file)\" of \"\(entry.title ?? entry.key)\" is not a name inside the folder"
        }
        for entry in episodes {
            for companion in entry.companions ?? [] where !Self.isInside(companion.file) {
                return "the file \"\(companion.file)\" kept with \"\(entry.title ?? entry.key)\" is not a name inside "
                    + "the folder"
            }
        }
        return nil
    }

    /// A relative path of non-empty parts, none `.` or `..`, no NUL: read a byte at a time (it runs for every
    /// entry of every index read, 10,000 of them for a long show).
    static func isInside(_ path: String) -> Bool {
        var part = 0  // bytes in the current part
        var dots = 0  // of which dots, while only dots
        for byte in path.utf8 {
            switch byte {
            case 0: return false
            case UInt8(ascii: "/"):
                if part == 0 || (part == dots && dots <= 2) { return false }
                part = 0
                dots = 0
            case UInt8(ascii: "."):
                if part == dots { dots += 1 }
                part += 1
            default:
                part += 1
            }
        }
        return part > 0 && !(part == dots && dots <= 2)
    }
}
