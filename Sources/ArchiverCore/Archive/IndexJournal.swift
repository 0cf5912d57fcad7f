// The index's journal: `index.journal` beside `index.json`, one line per episode archived since the index was
// last written whole: `<CRC-32, 8 hex digits> <the entry as JSON>`. A sync appends the episodes that finished
// together and syncs the file once for all of them (group commit), so the index costs each episode a few
// hundred bytes instead of a rewrite of the whole index; the run folds the journal into `index.json` when it
// ends, or sooner when the journal passes `foldSize`. Reading applies the journal's entries to `index.json` in
// order, and stops at the first record that is torn or damaged: that is the episode a crash caught between
// its rename and its record, which the next sync adopts (its download record still names it).
import CZlib
import Foundation

/// Reads and writes the index's journal.
public enum IndexJournal {
    /// The journal's file name, beside `index.json`.
    public static let fileName = "index.journal"

    /// The journal beside the index at `index`.
    public static func url(besideIndex index: URL) -> URL {
        index.deletingLastPathComponent().appendingPathComponent(fileName, isDirectory: false)
    }
    /// A journal this large is folded into `index.json` at once (about 2,000 episodes).
    static let foldSize: Int64 = 1 << 20

    /// One record as a sync appends it: the entry's JSON after its CRC-32, on one line.
    public static func line(for entry: ArchiveIndex.Entry) throws -> Data {
        let json = try JSONEncoder.journal.encode(entry)
        var line = Data(String(format: "%08x ", checksum(json)).utf8)
        line.append(json)
        line.append(0x0A)
        return line
    }

    /// The entries of a journal, in order, up to its first torn or damaged record; and whether one was found.
    public static func entries(in data: Data) -> (entries: [ArchiveIndex.Entry], damaged: Bool) {
        var entries: [ArchiveIndex.Entry] = []
        let decoder = JSONDecoder()
        var start = data.startIndex
        while start < data.endIndex {
            guard let end = data[start...].firstIndex(of: 0x0A) else { return (entries, true) }
            let line = data[start..<end]
            start = data.index(after: end)
            guard line.count > 9, line[line.startIndex + 8] == 0x20,
                let sum = UInt32(String(decoding: line.prefix(8), as: UTF8.self), radix: 16)
            else { return (entries, true) }
            let json = Data(line.dropFirst(9))
            guard checksum(json) == sum, let entry = try? decoder.decode(ArchiveIndex.Entry.self, from: json) else {
                return (entries, true)
            }
            entries.append(entry)
        }
        return (entries, false)
    }

    /// zlib's CRC-32 of `data`.
    static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { bytes in
            UInt32(crc32(0, bytes.bindMemory(to: UInt8.self).baseAddress, uInt(bytes.count)))
        }
    }
}

extension JSONEncoder {
    /// One journal record: compact, on one line, keys in a fixed order.
    static let journal: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
