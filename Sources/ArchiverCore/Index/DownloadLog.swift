// A show's download records, as one log in its state folder (`downloads.log`) rather than a file per download: a
// first sync of many episodes then creates, and later removes, one inode for all of them, not one each, and reads
// the log once rather than looking for a file per episode. Each record is one line appended in one write(2); the
// last line of a download that decodes is its record, so a line torn by a crash leaves it as it was.
import Foundation

/// One show's download records: what its log says (and the records since appended), read once per opening.
struct DownloadLog: Sendable {
    /// Each download's record, by stem (`PartialFiles.stem`).
    var records: [String: PartialRecord] = [:]
    /// Stems whose record is a file of its own, as versions before 2026-11-27 kept them (`download-<hash>.json`):
    /// read when asked for, and removed once the log holds a newer record or the download is forgotten.
    var recordFiles: Set<String> = []
    /// Lines the log file holds (whole, torn, or of records since replaced): more than `records` is what a
    /// compaction (`ShowRecords.compactDownloadLog`) takes out.
    var lines = 0
    /// The log kept open for appends while the show is (closed before it is rewritten or removed).
    var appender: (any FileAppending)?

    /// The records `data` holds, a line each; the last line of a download that decodes counts.
    init(data: Data?, listed names: [String]) {
        if let data {
            let decoder = JSONDecoder()
            for line in data.split(separator: UInt8(ascii: "\n")) {
                lines += 1
                guard var record = try? decoder.decode(PartialRecord.self, from: Data(line)),
                    let stem = record.download
                else { continue }
                record.download = nil
                records[stem] = record
            }
        }
        for name in names where ArchiveLayout.isDownloadRecordFile(name) {
            recordFiles.insert(ArchiveLayout.downloadStem(ofRecordFile: name))
        }
    }
}

/// The download logs of the shows open now, by state folder; shared by every copy of a `ShowRecords`.
final class DownloadLogs: Sendable {
    /// Every change to a log (and the append that goes with it) is made under this lock, so the file and what is
    /// kept here agree, whichever thread records a download.
    let open = Locked<[String: DownloadLog]>([:])
}

extension ShowRecords {
    /// Reads the download records of a show just opened (under its lock), given the listing of its state folder:
    /// nothing is read when it holds neither a log nor a record file. Replaces what was kept of an earlier opening.
    func openDownloadLog(of show: ShowState, listed: [String]) {
        let log = readLog(of: show, listed: listed)
        logs.open.withLock { $0.updateValue(log, forKey: show.stateFolder.path)?.appender?.close() }
    }

    /// Lets the show's log go (its lock is about to be released): the next opening reads it again.
    func closeDownloadLog(of show: ShowState) {
        logs.open.withLock { $0.removeValue(forKey: show.stateFolder.path)?.appender?.close() }
    }

    private func readLog(of show: ShowState, listed: [String]?) -> DownloadLog {
        let names = listed ?? (try? files.contentsOfDirectory(atPath: show.stateFolder.path)) ?? []
        let hasLog = names.contains(ArchiveLayout.downloadLog)
        return DownloadLog(
            data: hasLog ? files.contents(atPath: show.downloadLog.path) : nil, listed: names)
    }

    /// Runs `body` on the log of `show` under the lock, reading it first if no opening did.
    private func withLog<Result>(
        _ show: ShowState, _ body: (inout DownloadLog) throws -> sending Result
    ) rethrows -> sending Result {
        try logs.open.withLock { open in
            let key = show.stateFolder.path
            if open[key] == nil { open[key] = readLog(of: show, listed: nil) }
            // In place: a copy taken out and put back would copy every record on each call.
            return try body(&open[key]!)
        }
    }

    /// Appends `record` to the show's download log as the record of `partial`'s download: one line, "\n{json}\n",
    /// in one write (no temporary file, no rename, no sync, no file of its own). Killed mid-append, the torn line
    /// is ignored and the record reads as it was before that write; a line starting with a newline is a line of
    /// its own after a torn one.
    func saveDownloadRecord(_ record: PartialRecord, for partial: PartialFiles) throws {
        let url = partial.state.downloadLog
        do {
            let line = record.logLine(download: partial.stem)
            try withLog(partial.state) { log in
                let appender = log.appender ?? writer.appender(for: url)
                log.appender = appender
                _ = try appender.append(line, durable: false)
                log.records[partial.stem] = record
                log.lines += 1
                // The log holds the newer record: an earlier version's file of it has had its day.
                if log.recordFiles.remove(partial.stem) != nil { try? files.removeItem(at: partial.record) }
            }
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }

    /// The record of `partial`'s download, or nil.
    func loadDownloadRecord(_ partial: PartialFiles) -> PartialRecord? {
        withLog(partial.state) { log in
            if let record = log.records[partial.stem] { return record }
            return log.recordFiles.contains(partial.stem) ? loadRecordFile(partial.record) : nil
        }
    }

    /// The last line of an earlier version's record file that decodes (one written whole, older still, is one line
    /// without a newline), or nil.
    func loadRecordFile(_ url: URL) -> PartialRecord? {
        guard let data = files.contents(atPath: url.path) else { return nil }
        let decoder = JSONDecoder()
        for line in data.split(separator: UInt8(ascii: "\n")).reversed() {
            if let record = try? decoder.decode(PartialRecord.self, from: Data(line)) { return record }
        }
        return nil
    }

    /// The bodies (`download-<hash>.part`) of `show` whose records name a validator: a resume can ask
    /// for the rest of them (`EpisodeFetcher.attemptDownload`). The others start again from their first byte.
    func resumableDownloads(of show: ShowState) -> Set<String> {
        withLog(show) { log in
            var stems = Set(log.records.filter { $0.value.validator != nil }.keys)
            for stem in log.recordFiles where log.records[stem] == nil {
                let file = show.downloadRecord(stem)
                if loadRecordFile(file)?.validator != nil { stems.insert(stem) }
            }
            return Set(stems.map(ArchiveLayout.downloadBody))
        }
    }

    /// Drops a download's hidden files: what was kept cannot be continued.
    func discard(_ partial: PartialFiles) {
        try? files.removeItem(at: partial.body)
        forget(partial)
    }

    /// Drops a download's record (its episode is in the index, or its body is gone). The log keeps its lines until
    /// it is compacted (`compactDownloadLog`); a run killed before then leaves them to the next opening
    /// (`FeedFolders.removeSettledRecords`).
    func forget(_ partial: PartialFiles) {
        withLog(partial.state) { log in
            log.records[partial.stem] = nil
            if log.recordFiles.remove(partial.stem) != nil { try? files.removeItem(at: partial.record) }
        }
    }

    /// Rewrites the show's log with only the records it still needs (atomically, not synced: each is a hint), or
    /// removes it when none is left; nothing when it holds nothing else.
    func compactDownloadLog(of show: ShowState) {
        let url = show.downloadLog
        withLog(show) { log in
            guard log.lines > log.records.count else { return }
            log.appender?.close()
            if log.records.isEmpty {
                try? files.removeItem(at: url)
                log.lines = 0
                return
            }
            var data = Data()
            for (stem, record) in log.records.sorted(by: { $0.key < $1.key }) {
                data.append(record.logLine(download: stem))
            }
            if (try? writer.writeAtomically(data, to: url, durable: false)) != nil { log.lines = log.records.count }
        }
    }
}

extension ShowRecords {
    /// Removes the bodies among `listed` (the state folder's names) that no record needs, when the show is opened
    /// under its lock, before any download of the run (so no live transfer writes one): a body without a record
    /// (the next download of it starts from an empty file), and one whose record can neither resume it (no
    /// validator) nor adopt it (not complete), with that record.
    func removeUnneededBodies(of state: ShowState, listed: [String]) {
        let bodies = listed.filter(ArchiveLayout.isDownloadBody)
        guard !bodies.isEmpty else { return }
        withLog(state) { log in
            for name in bodies {
                let stem = ArchiveLayout.downloadStem(ofBody: name)
                let file = state.downloadRecord(stem)
                let record = log.records[stem] ?? (log.recordFiles.contains(stem) ? loadRecordFile(file) : nil)
                guard record?.validator == nil, record?.sha256 == nil,
                    (try? files.removeItem(at: state.listed(name))) != nil
                else { continue }
                log.records[stem] = nil
                if log.recordFiles.remove(stem) != nil { try? files.removeItem(at: file) }
            }
        }
    }

    /// Forgets the records of the downloads of `keys` (the index's episodes) whose bodies the state folder's
    /// listing `listed` does not hold, then compacts the log.
    func forgetSettledDownloads(of show: ShowState, keys: some Sequence<String>, listed: Set<String>) {
        withLog(show) { log in
            guard !log.records.isEmpty || !log.recordFiles.isEmpty else { return }
            for key in keys {
                let stem = StableName.of(key)
                guard log.records[stem] != nil || log.recordFiles.contains(stem),
                    !listed.contains(ArchiveLayout.downloadBody(stem))
                else { continue }
                log.records[stem] = nil
                if log.recordFiles.remove(stem) != nil {
                    try? files.removeItem(at: show.downloadRecord(stem))
                }
            }
        }
        compactDownloadLog(of: show)
    }
}

extension PartialRecord {
    /// The record as a line of the log of download `stem`: "\n{json}\n", its keys (`CodingKeys`) sorted and nil ones
    /// left out (as `JSONEncoder.records` writes it), written by hand: JSONEncoder was a third of the cost of
    /// recording.
    func logLine(download stem: String) -> Data {
        var json = JSONWriter()
        json.raw("\n{")
        var first = true
        func key(_ name: CodingKeys) {
            json.raw(first ? "\"\(name.rawValue)\":" : ",\"\(name.rawValue)\":")
            first = false
        }
        if let completeSize {
            key(.completeSize)
            json.number(completeSize)
        }
        key(.download)
        json.string(stem)
        if let expectedSize {
            key(.expectedSize)
            json.number(expectedSize)
        }
        if let sha256 {
            key(.sha256)
            json.string(sha256)
        }
        if let target {
            key(.target)
            json.string(target)
        }
        key(.url)
        json.string(url)
        if let validator {
            key(.validator)
            json.string(validator)
        }
        json.raw("}\n")
        return Data(json.bytes)
    }
}
