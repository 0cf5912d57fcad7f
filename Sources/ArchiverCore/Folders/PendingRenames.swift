// The renames `podarchive rename` planned and has not finished: `<show>/.podarchive/renames.json`. The intent is
// written, durably, before the first file moves; then each file is renamed (never over another), the index given
// the new names, and the record removed. Each step can be done again: a file is moved only while it is at its old
// name and nothing is at its new one, and an entry takes a new name once no file is left at the old one, so a rename
// killed anywhere is finished by whichever command next takes the show's lock (`FeedFolders.read`), and no file is
// ever at a name the index does not give it once that command has run.
import Foundation

/// The renames of one show not finished yet.
struct PendingRenames: Codable, Equatable, Sendable {
    /// One file's rename, as paths inside the show's folder.
    struct Move: Codable, Equatable, Sendable {
        var from: String
        var to: String
    }

    /// The files of one episode (its own, its companions', its sidecar), by the episode's key in the index.
    struct Renamed: Codable, Equatable, Sendable {
        var key: String
        var moves: [Move]
    }

    /// In index order.
    var episodes: [Renamed] = []
}

extension ShowState {
    /// The renames planned and not finished: the intent a rename's moves follow.
    var renames: RecordFile<PendingRenames> { record(ArchiveLayout.renamesFile, .intent) }
}

/// Finishes the pending renames of a show (see `PendingRenames`).
struct RenameFinisher: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement
    let indexes: IndexStore

    /// What became of one file's rename.
    struct Outcome: Equatable, Sendable {
        var key: String
        var move: PendingRenames.Move
        /// Why the file kept its name; nil when it has the new one (or was not there: its entry names the new one).
        var failed: String?
    }

    /// Moves every file still at its old name, gives the index the new names, saves it, and removes the record.
    /// A file that cannot move (another file took its new name meanwhile, the disk refused) keeps its name and the
    /// index keeps naming it so: said in the outcome, never lost.
    /// - Throws: `ArchiveError.storage` when the index cannot be saved or the record removed.
    @discardableResult
    func finish(_ show: inout FeedFolder) throws -> [Outcome] {
        guard let record = show.state.renames.load(files) else {
            // A damaged record: nothing it names can be trusted to move; the files keep the names the index gives.
            try show.state.renames.remove(files)
            return []
        }
        var outcomes: [Outcome] = []
        var emptied = Set<String>()
        var updated: [ArchiveIndex.Entry] = []
        for renamed in record.episodes {
            guard var entry = show.index.entry(forKey: renamed.key) else { continue }
            var names: [String: String] = [:]
            for move in renamed.moves {
                let failed = self.move(move, in: show.folder)
                outcomes.append(Outcome(key: renamed.key, move: move, failed: failed))
                guard failed == nil else { continue }
                names[move.from] = move.to
                if let slash = move.from.lastIndex(of: "/") { emptied.insert(String(move.from[..<slash])) }
            }
            entry.file = names[entry.file] ?? entry.file
            entry.companions = entry.companions?.map { companion in
                var companion = companion
                companion.file = names[companion.file] ?? companion.file
                return companion
            }
            updated.append(entry)
        }
        show.index.update(updated)
        try indexes.save(&show)
        try show.state.renames.remove(files)
        removeEmptyFolders(emptied, in: show.folder)
        return outcomes
    }

    /// Moves `move.from` to `move.to` unless that is done; nil when the file has its new name (or is at
    /// neither: deleted by hand, its entry then names the new one), else why not.
    private func move(_ move: PendingRenames.Move, in folder: URL) -> String? {
        // The record is a file, and a file is not trusted: each name stays inside the folder, reached through
        // folders only, never through a link that would lead the move elsewhere.
        guard IndexFormat.isInside(move.to), throughFoldersOnly(move.to, in: folder) else {
            return "\(move.to) is not a name inside the show's folder"
        }
        guard attributes.typeAndSize(atPath: folder.appendingPathComponent(move.from).path) != nil else { return nil }
        guard let from = FolderContents.removable(move.from, in: folder, attributes: attributes) else {
            return "\(move.from) is not a file reached through the show's folders"
        }
        let to = folder.appendingPathComponent(move.to, isDirectory: false)
        guard !files.fileExists(atPath: to.path) && attributes.typeAndSize(atPath: to.path) == nil else {
            return "another file is at \(move.to)"
        }
        do {
            let parent = to.deletingLastPathComponent()
            if !files.fileExists(atPath: parent.path) {
                try files.createDirectory(at: parent, withIntermediateDirectories: true, attributes: nil)
            }
            try mover.moveItem(at: from, to: to)
            return nil
        } catch {
            return ArchiveError.storage(error, path: to.path).reasonText
        }
    }

    /// Whether every folder on the way to `name` that is there is a folder, not a link (or a file).
    private func throughFoldersOnly(_ name: String, in folder: URL) -> Bool {
        var parent = folder
        for part in name.split(separator: "/").dropLast() {
            parent.appendPathComponent(String(part), isDirectory: true)
            guard let type = attributes.typeAndSize(atPath: parent.path)?.type else { return true }
            guard type == .typeDirectory else { return false }
        }
        return true
    }

    /// The subfolders files moved out of, each removed when it is left empty, and its parents so too.
    private func removeEmptyFolders(_ folders: Set<String>, in show: URL) {
        for folder in folders.sorted(by: { $0.count > $1.count }) {
            var path = folder
            while !path.isEmpty, !path.hasPrefix("."), !ArchiveLayout.isReservedInShow(path) {
                let url = show.appendingPathComponent(path, isDirectory: true)
                guard (try? files.contentsOfDirectory(atPath: url.path))?.isEmpty == true,
                    (try? files.removeItem(at: url)) != nil
                else { break }
                guard let slash = path.lastIndex(of: "/") else { break }
                path = String(path[..<slash])
            }
        }
    }
}
