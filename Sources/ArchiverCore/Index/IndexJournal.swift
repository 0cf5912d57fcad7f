// The index's journal: `index.journal` beside `index.json`, one line per episode archived since the index was
// last written whole: `<CRC-32, 8 hex digits> <the entry as JSON>`. A sync appends the episodes that finished
// together and syncs the file once for all of them (group commit), so the index costs each episode a few
// hundred bytes instead of a rewrite of the whole index; the run folds the journal into `index.json` when it
// ends, or sooner when the journal passes `foldSize`. Reading applies the journal's intact records to
// `index.json` in order and skips a torn or damaged one. A torn last record is the episode a crash caught
// between its rename and its record, which the next sync adopts (its download record still names it); a damaged
// record before the last is damage no crash leaves: `verify` names it, and the next sync folds the journal and
// finds that episode again in the feed and the folder.
import CZlib
import Foundation

/// Records of a show's index journal that could not be read, none of them its last (a crash leaves only the last
/// one torn): reported, skipped, and what they held is found again by the next sync.
public struct JournalDamage: Sendable, Equatable {
    /// The journal file.
    public var journal: URL
    /// The damaged records' positions in it, from 1.
    public var records: [Int]
    /// How many records it holds.
    public var total: Int
}

/// Reads and writes the index's journal.
public enum IndexJournal {
    /// The journal beside the index at `index`.
    public static func url(besideIndex index: URL) -> URL {
        ShowState(index: index).journal
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

    /// What reading a journal found: the entries of its intact records, and which records are torn or damaged.
    public struct Reading: Equatable, Sendable {
        /// The entries of the intact records, in order.
        public var entries: [ArchiveIndex.Entry] = []
        /// How many records the journal holds, a torn last one included.
        public var records = 0
        /// The positions (from 1) of the records that are torn or damaged; each is skipped, and the records after
        /// it are still applied.
        public var damaged: [Int] = []

        /// The damaged records that are not the last. A crash tears only the record it was appending, always the
        /// last: any other was damaged on the disk or by an edit, and is reported.
        public var damagedBeforeLast: [Int] { damaged.filter { $0 < records } }
    }

    /// The journal's records, in order: each intact one's entry, and the positions of the torn or damaged ones.
    public static func entries(in data: Data) -> Reading {
        var reading = Reading()
        let decoder = JSONDecoder()
        var start = data.startIndex
        while start < data.endIndex {
            reading.records += 1
            // A record without its newline is torn, however whole its JSON: the next append would run on from it.
            guard let end = data[start...].firstIndex(of: 0x0A) else {
                reading.damaged.append(reading.records)
                break
            }
            let line = data[start..<end]
            start = data.index(after: end)
            // JSONDecoder refuses nesting past 512 levels by itself; a record is one entry, a few levels deep.
            guard line.count > 9, line[line.startIndex + 8] == 0x20,
                let sum = UInt32(String(decoding: line.prefix(8), as: UTF8.self), radix: 16),
                case let json = Data(line.dropFirst(9)), checksum(json) == sum,
                let entry = try? decoder.decode(ArchiveIndex.Entry.self, from: json)
            else {
                reading.damaged.append(reading.records)
                continue
            }
            reading.entries.append(entry)
        }
        return reading
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
