// The effects of an episode's files going away on purpose, or coming back, done after their intent (an
// `AwayRecord` with `pending` set, saved in the index) and settled after them: by `offload` itself, and by whichever
// command next takes the show's lock when one was killed part way (`FeedFolders.read`). Each step can be done again:
// a file is copied only where no whole copy is, deleted only once a whole copy is elsewhere (or deletion was asked),
// so an offload or a restore killed anywhere converges, and no byte is ever the only copy while it moves.
import Foundation

/// Finishes the pending offloads, deletions and restores of a show (see `AwayRecord.Pending`).
struct AwayFinisher: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting
    let hasher: any FileHashing
    let indexes: IndexStore

    /// What became of one episode's pending record.
    enum Result: Equatable, Sendable {
        /// Done: its files went (or came back); `bytes` of them.
        case done(bytes: Int64)
        /// Not done, and undone: the files stay (or stay away) as they were; why, in words.
        case failed(String)
    }

    /// Finishes every pending record of `show` (its lock held), stopping at the first episode whose copy fails (a
    /// full disk, an unreachable folder): that one and those not begun are taken back to where their files are, so
    /// nothing is left half moved. The index is saved (folding the journal) once, at the end.
    /// - Returns: what became of each, by key, in index order.
    /// - Throws: `ArchiveError.storage` when the index cannot be saved.
    @discardableResult
    func finish(_ show: inout FeedFolder) throws -> [(key: String, result: Result)] {
        var results: [(key: String, result: Result)] = []
        var stopped: String?
        for entry in show.index.episodes {
            guard let away = entry.away, let pending = away.pending else { continue }
            var updated = entry.away
            if let stopped {
                updated = Self.undone(away)
                results.append((entry.key, .failed(stopped)))
            } else {
                do {
                    let bytes = try perform(pending, of: entry, away: away, in: show.folder)
                    updated = pending == .restore ? nil : settled(away)
                    results.append((entry.key, .done(bytes: bytes)))
                } catch {
                    let reason = Self.reason(error)
                    stopped = reason
                    updated = Self.undone(away)
                    results.append((entry.key, .failed(reason)))
                }
            }
            show.index.setAway(updated, forKey: entry.key)
        }
        if !results.isEmpty { try indexes.save(&show) }
        return results
    }

    /// The record once its effects are done.
    private func settled(_ away: AwayRecord) -> AwayRecord {
        var away = away
        away.pending = nil
        return away
    }

    /// The record for files that did not move: none for an offload or a deletion (the files are here), the
    /// settled offload for a restore (they are still there).
    private static func undone(_ away: AwayRecord) -> AwayRecord? {
        guard away.pending == .restore else { return nil }
        var away = away
        away.pending = nil
        return away
    }

    /// Does what `pending` asks of `entry`'s files.
    /// - Returns: the bytes moved, deleted or brought back.
    private func perform(_ pending: AwayRecord.Pending, of entry: ArchiveIndex.Entry, away: AwayRecord, in folder: URL)
        throws -> Int64
    {
        var bytes: Int64 = 0
        switch pending {
        case .offload:
            guard let into = away.into else { throw Refusal("the record names no folder to offload into") }
            let target = URL(fileURLWithPath: into, isDirectory: true)
            // What a killed copy left there (a temporary file whose process has ended) goes first.
            TemporaryFiles.sweep(target, files: files)
            // Every copy first, each checked; the archive's files deleted only once all are whole elsewhere.
            for name in away.files where IndexFormat.isInside(name) {
                let here = folder.appendingPathComponent(name)
                let there = target.appendingPathComponent(name)
                guard let size = regularSize(here) else {
                    guard whole(there, as: entry, name: name, like: here) else {
                        throw Refusal("\(name) is neither in the show's folder nor in \(into)")
                    }
                    continue
                }
                bytes += size
                try copy(name, of: entry, from: here, to: there, into: into)
            }
            for name in away.files where IndexFormat.isInside(name) { try deleteHere(name, in: folder) }
        case .delete:
            for name in away.files where IndexFormat.isInside(name) {
                bytes += regularSize(folder.appendingPathComponent(name)) ?? 0
                try deleteHere(name, in: folder)
            }
        case .restore:
            guard let into = away.into else { throw Refusal("the record names no folder to restore from") }
            let source = URL(fileURLWithPath: into, isDirectory: true)
            for name in away.files where IndexFormat.isInside(name) {
                let here = folder.appendingPathComponent(name)
                let there = source.appendingPathComponent(name)
                let size = regularSize(there)
                if whole(here, as: entry, name: name, like: there) {
                    bytes += size ?? regularSize(here) ?? 0
                    continue
                }
                guard let size else { throw Refusal("\(name) is not in \(into)") }
                try copy(name, of: entry, from: there, to: here, into: into)
                bytes += size
            }
            // Back and whole here: the copies there go (a folder that cannot be written keeps them, harmlessly).
            for name in away.files where IndexFormat.isInside(name) {
                try? files.removeItem(at: source.appendingPathComponent(name))
            }
        }
        return bytes
    }

    /// The size of the regular file at `url` (not a link), or nil.
    private func regularSize(_ url: URL) -> Int64? {
        guard let found = attributes.typeAndSize(atPath: url.path), found.type == .typeRegular else { return nil }
        return found.size
    }

    /// Whether `url` holds the file `name` of `entry` whole: its recorded SHA-256 where the index keeps one (the
    /// episode's, a companion's), else the same bytes as `source` (a sidecar), else (no source left) any file.
    private func whole(_ url: URL, as entry: ArchiveIndex.Entry, name: String, like source: URL) -> Bool {
        guard regularSize(url) != nil, let digest = try? hasher.sha256(ofFileAtPath: url.path) else { return false }
        let recorded =
            name == entry.file ? entry.sha256 : entry.companions?.first(where: { $0.file == name })?.sha256
        if let recorded, !recorded.isEmpty { return digest.digest == recorded }
        guard regularSize(source) != nil else { return true }
        return (try? hasher.sha256(ofFileAtPath: source.path))?.digest == digest.digest
    }

    /// Copies the file `name` of `entry` from `source` to `target`, unless a whole copy is there already: never over
    /// another file, and checked once written (a copy that does not match goes, and the step is refused).
    private func copy(
        _ name: String, of entry: ArchiveIndex.Entry, from source: URL, to target: URL, into: String
    ) throws {
        if whole(target, as: entry, name: name, like: source) { return }
        try refuseAnother(at: target)
        try FolderContents.createFolder(target.deletingLastPathComponent(), with: files)
        try writer.copyDurably(source, to: target)
        guard whole(target, as: entry, name: name, like: source) else {
            try? files.removeItem(at: target)
            throw Refusal("the copy of \(name) (\(into)) does not match its record")
        }
    }

    /// Refuses to put a copy where another file is: nothing is ever replaced (two archives offloading one show's
    /// name into one folder keep each other's files).
    private func refuseAnother(at url: URL) throws {
        guard attributes.typeAndSize(atPath: url.path) == nil else {
            throw Refusal("\(url.path) is another file, and is never replaced")
        }
    }

    /// Deletes the file `name` of the show's folder, if it is there and a deletion may remove it
    /// (`FolderContents.removable`).
    private func deleteHere(_ name: String, in folder: URL) throws {
        guard let url = FolderContents.removable(name, in: folder, attributes: attributes) else { return }
        try files.removeItem(at: url)
    }

    /// Why the work stopped, in words for the user.
    private static func reason(_ error: Error) -> String {
        (error as? Refusal)?.reason ?? error.reasonText
    }

    /// A step refused, with the reason in words.
    struct Refusal: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
