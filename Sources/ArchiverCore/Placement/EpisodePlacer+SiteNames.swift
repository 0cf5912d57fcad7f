// Archives made before the site kept its names, or before live content was kept as text: an archived file at a
// name the site writes in a show's folder (`cover.jpg`), or under a name a web server would run
// (`Pilot.transcript.html`, `feed.xml`; see `LiveContent`), is moved to the name the file-name rules give it now
// (`cover (2).jpg`, `Pilot.transcript.html.txt`), with its sidecar and the companions named after it, and the
// index records it there. Renamed in its folder, a file
// keeps its dates and extended attributes; nothing is ever moved over another file.
import Foundation

extension EpisodePlacer {
    /// Whether `index` records a file at a name the site writes in the show's folder. (A file inside a subfolder
    /// of such a name is left to its owner: moving the folder is not this migration's to do.)
    static func holdsSiteNames(_ index: ArchiveIndex) -> Bool {
        index.episodes.contains { entry in
            isAtSiteName(entry.file) || (entry.companions ?? []).contains { isAtSiteName($0.file) }
        }
    }

    private static func isAtSiteName(_ file: String) -> Bool {
        LiveContent.isLive(file) || (ArchiveLayout.isReservedInShow(file) && !file.contains("/"))
    }

    /// The name `file` is given now, before any clash: itself, or with `.txt` after it when it is live.
    private static func wanted(_ file: String) -> NewFileName {
        NewFileName(parsing: LiveContent.defused(file))
    }

    /// Moves every file of `show` that is at a name the site writes to a free name, and saves the index when any
    /// moved. Runs with the show's lock held, before anything else looks at the folder.
    /// - Returns: each move made, or refused (that file, its sidecar and its record then stay as they were).
    /// - Throws: `ArchiveError.storage` when the index cannot be saved; the next run finds the moved files.
    func freeSiteNames(in show: inout FeedFolder) throws -> [SiteNameMove] {
        guard Self.holdsSiteNames(show.index) else { return [] }
        let present = Set((try? files.contentsOfDirectory(atPath: show.folder.path)) ?? [])
        var names = NameAllocator(taken: present.union(show.index.fileNames), sidecars: true)
        var moves: [SiteNameMove] = []
        var changed = false
        for original in show.index.episodes {
            var entry = original
            if Self.isAtSiteName(entry.file) {
                let move = relocate(entry.file, size: entry.size, in: show, names: &names)
                if let move { moves.append(move) }
                if move?.failure == nil {
                    follow(&entry, to: move.map { name(of: $0.to, in: show) }, in: show, names: &names)
                }
            }
            for (position, companion) in (entry.companions ?? []).enumerated() where Self.isAtSiteName(companion.file) {
                let move = relocate(companion.file, size: companion.size, in: show, names: &names)
                if let move { moves.append(move) }
                if move?.failure == nil {
                    entry.companions?[position].file =
                        move.map { name(of: $0.to, in: show) } ?? names.claim(Self.wanted(companion.file))
                }
            }
            if entry != original {
                show.index.update(entry)
                moveSidecar(of: original, to: entry, in: show)
                changed = true
            }
        }
        if changed { try indexes.save(show.index, to: show.indexURL) }
        return moves
    }

    /// Moves `file` to the next free name (nil when it is missing: its record alone is renamed, and the sync
    /// fetches it again there).
    private func relocate(_ file: String, size: Int64, in show: FeedFolder, names: inout NameAllocator)
        -> SiteNameMove?
    {
        if exists(file, in: show) { return moveFile(file, to: names.claim(Self.wanted(file)), in: show) }
        // A run stopped between the move and saving the index: the file is at the name it was given.
        return movedEarlier(file, size: size, in: show).map {
            SiteNameMove(from: url(file, in: show), to: url($0, in: show))
        }
    }

    /// The episode's record names `new` (a free name, when it was missing), and the companions named after it
    /// follow (`feed.en.vtt` becomes `feed (2).en.vtt`, the name the companion keeper now gives).
    private func follow(
        _ entry: inout ArchiveIndex.Entry, to moved: String?, in show: FeedFolder, names: inout NameAllocator
    ) {
        let old = entry.file
        guard let new = moved else {
            entry.file = names.claim(Self.wanted(old))
            return
        }
        entry.file = new
        let oldStem = (old as NSString).deletingPathExtension
        let newStem = (new as NSString).deletingPathExtension
        for (position, companion) in (entry.companions ?? []).enumerated() where companion.file.hasPrefix(oldStem + ".")
        {
            let target = NewFileName.allowed(newStem + companion.file.dropFirst(oldStem.count))
            if movedEarlier(companion.file, to: target, size: companion.size, in: show)
                || (exists(companion.file, in: show) && names.claim(exactly: target)
                    && moveFile(companion.file, to: target, in: show).failure == nil)
            {
                entry.companions?[position].file = target
            }
        }
    }

    /// The sidecar goes with its file (`--metadata`), and names the file and its companions as they are now
    /// called; it keeps its date. One that cannot be moved stays (the sync writes the moved file's anew).
    private func moveSidecar(of original: ArchiveIndex.Entry, to entry: ArchiveIndex.Entry, in show: FeedFolder) {
        let source = url(ArchiveNames.sidecarName(for: original.file), in: show)
        let target = url(ArchiveNames.sidecarName(for: entry.file), in: show)
        let files = self.files
        if source != target, files.fileExists(atPath: source.path) {
            guard !files.fileExists(atPath: target.path), (try? mover.moveItem(at: source, to: target)) != nil
            else { return }
        }
        guard let data = files.contents(atPath: target.path),
            var sidecar = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return }
        sidecar["file"] = (entry.file as NSString).lastPathComponent
        let renamed = Dictionary(
            zip((original.companions ?? []).map(\.file), (entry.companions ?? []).map(\.file)),
            uniquingKeysWith: { first, _ in first })
        if var listed = sidecar["companions"] as? [[String: Any]] {
            for position in listed.indices {
                if let file = listed[position]["file"] as? String, let new = renamed[file] {
                    listed[position]["file"] = new
                }
            }
            sidecar["companions"] = listed
        }
        guard
            let patched = try? JSONSerialization.data(
                withJSONObject: sidecar, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]),
            patched != data
        else { return }
        let dated = (try? attributes.attributesOfItem(atPath: target.path))?[.modificationDate] as? Date
        guard (try? writer.writeAtomically(patched, to: target, durable: false, stagedIn: show.stateFolder)) != nil
        else { return }
        contents.setDates(of: target, to: dated)
    }

    /// Renames `from` to `to` in the show's folder, never over another file.
    private func moveFile(_ from: String, to: String, in show: FeedFolder) -> SiteNameMove {
        var move = SiteNameMove(from: url(from, in: show), to: url(to, in: show))
        move.isLiveContent = LiveContent.isLive(from)
        do {
            try mover.moveItem(at: move.from, to: move.to)
            return move
        } catch {
            var failed = move
            failed.failure = ArchiveError.describe(error)
            return failed
        }
    }

    /// The name `file` was moved to by an earlier run, when that run stopped before saving the index: the first
    /// of `feed (2).xml`, `feed (3).xml`... that is there, unrecorded, of the recorded size.
    private func movedEarlier(_ file: String, size: Int64, in show: FeedFolder) -> String? {
        let numbered = Self.wanted(file)
        let first = LiveContent.defused(file)
        if first != file, exists(first, in: show) {
            return movedEarlier(file, to: first, size: size, in: show) ? first : nil
        }
        for counter in 2...1000 {
            let name = numbered.numbered(counter)
            guard exists(name, in: show) else { return nil }
            if movedEarlier(file, to: name, size: size, in: show) { return name }
        }
        return nil
    }

    private func movedEarlier(_ file: String, to name: String, size: Int64, in show: FeedFolder) -> Bool {
        !show.index.holds(file: name) && !exists(file, in: show) && contents.fileSize(url(name, in: show)) == size
    }

    private func exists(_ name: String, in show: FeedFolder) -> Bool {
        files.fileExists(atPath: url(name, in: show).path)
    }

    private func url(_ name: String, in show: FeedFolder) -> URL {
        show.folder.appendingPathComponent(name, isDirectory: false)
    }

    /// The name of `url` inside the show's folder (`Season 1/Pilot.html.txt`).
    private func name(of url: URL, in show: FeedFolder) -> String {
        String(url.path.dropFirst(show.folder.path.count + 1))
    }
}
