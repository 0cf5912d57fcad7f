// `podarchive verify`: recheck every archived file against the size and SHA-256 its index recorded, and on request
// fetch again what is missing, resized or changed.
import Foundation

/// What is wrong with one archived file.
public struct VerifyProblem: Sendable, Equatable {
    /// How the file differs from its index entry.
    public enum Kind: Sendable, Equatable {
        /// The file is gone.
        case missing
        /// The file's size is not the one recorded.
        case resized(actual: Int64, recorded: Int64)
        /// Same size, different SHA-256.
        case changed
    }

    /// The feed folder.
    public var folder: URL
    /// The file's path inside the feed folder, as the index records it.
    public var file: String
    /// What is wrong with it.
    public var kind: Kind
    /// When the publisher's file has changed since it was archived, the newer version kept beside it: this one
    /// cannot be repaired, and `--repair` leaves it as it is.
    public var replacedBy: String?
}

/// Something `verify` found or did.
public enum VerifyEvent: Sendable, Equatable {
    /// A file is missing, resized or changed.
    case problem(VerifyProblem)
    /// `--repair` downloaded it again and it matches.
    case repaired(VerifyProblem)
    /// `--repair` could not download it; the old file, if any, was kept.
    case repairFailed(VerifyProblem, EpisodeFailure)
    /// An episode never archived is recorded as gone upstream (no problem of the archive: nothing to check).
    case gone(folder: URL, failure: ArchiveIndex.Failure)
    /// `--repair` found the publisher's file changed since it was archived: the damaged file stays (it is what was
    /// published), the new content is kept beside it as `version`, and the damaged one is unrecoverable.
    case upstreamChanged(VerifyProblem, version: String)
}

/// The outcome of `verify`.
public struct VerifyReport: Sendable, Equatable {
    /// Feed folders checked.
    public var feeds = 0
    /// Archived files checked.
    public var files = 0
    /// Every file found missing, resized or changed.
    public var problems: [VerifyProblem] = []
    /// The problems `--repair` fixed by downloading the file again.
    public var repaired: [VerifyProblem] = []
    /// Damaged files whose publisher's file has changed: unrecoverable upstream (a newer version is kept beside).
    public var unrecoverable: [VerifyProblem] = []
    /// Episodes recorded as gone upstream: their publisher deleted them before they could be archived.
    public var gone = 0

    /// Problems still there after the run (all of them without `--repair`), but for damaged files already known
    /// to be unrecoverable upstream before this run: those are listed, and fail no later run.
    public var remaining: Int { problems.count - repaired.count - problems.count { $0.replacedBy != nil } }
}

extension Archiver {
    /// Rechecks the archive at `directory`: one feed folder, or an archive root holding many.
    ///
    /// - Parameter repair: download again every missing, resized or changed file (the damaged file is kept aside
    ///   until its replacement is in place).
    /// - Throws: `ArchiveError.noArchive` when `directory` holds no index; `.locked` when a sync holds a feed.
    public func verify(
        _ directory: URL, repair: Bool, options: SyncOptions = SyncOptions(),
        onEvent: @Sendable (VerifyEvent) -> Void = { _ in }
    ) async throws -> VerifyReport {
        let shows = try feedFolders(in: directory)
        var report = VerifyReport()
        for folder in shows {
            var context = try await folders.open(folder: folder, source: .local(path: folder.path), options: options)
            defer { context.lock.unlock() }
            report.feeds += 1
            for failure in context.index.failures where failure.gone != nil {
                report.gone += 1
                onEvent(.gone(folder: folder, failure: failure))
            }
            // Files in the subfolders `--name` templates make are found too (one listing per subfolder).
            let present = folders.presentFiles(in: folder, index: context.index)
            var damaged: [(ArchiveIndex.Entry, VerifyProblem)] = []
            for entry in context.index.episodes {
                report.files += 1
                guard var problem = check(entry, in: folder, present: present) else { continue }
                problem.replacedBy = entry.replacedBy
                report.problems.append(problem)
                onEvent(.problem(problem))
                if entry.replacedBy == nil {
                    damaged.append((entry, problem))
                } else {
                    report.unrecoverable.append(problem)
                }
            }
            guard repair, !damaged.isEmpty else { continue }
            var names = NameAllocator(taken: present.union(context.index.fileNames))
            for (entry, problem) in damaged {
                // The damaged file stays where it is while its replacement downloads (a repair killed or failing
                // there leaves it untouched); it is set aside only for the rename that replaces it.
                var aside: URL?
                do {
                    let fetched = try await fetch(.missing(entry), in: context.paths, options: options)
                    if case .downloaded(let result) = fetched, let recorded = entry.sha256,
                        result.sha256 != recorded || result.fileSize != entry.size
                    {
                        // The publisher's file is not the one archived: what was archived stays the record of what
                        // was published (damaged as it is), and the new content is a version of its own.
                        let version = try placeVersion(result, of: entry, in: &context, names: &names)
                        var unrecoverable = problem
                        unrecoverable.replacedBy = version
                        report.unrecoverable.append(unrecoverable)
                        onEvent(.upstreamChanged(unrecoverable, version: version))
                        continue
                    }
                    aside = try setAside(entry.file, in: context)
                    _ = try complete(fetched, item: .missing(entry), in: &context, names: &names)
                    if let aside { try? files.removeItem(at: aside) }
                    report.repaired.append(problem)
                    onEvent(.repaired(problem))
                } catch let failure as EpisodeFailure {
                    // Keep what there was rather than nothing.
                    if let aside { try? mover.moveItem(at: aside, to: folder.appendingPathComponent(entry.file)) }
                    onEvent(.repairFailed(problem, failure))
                }
            }
        }
        return report
    }

    private func check(_ entry: ArchiveIndex.Entry, in folder: URL, present: Set<String>) -> VerifyProblem? {
        let path = folder.appendingPathComponent(entry.file).path
        guard present.contains(entry.file), let digest = try? hasher.sha256(ofFileAtPath: path) else {
            return VerifyProblem(folder: folder, file: entry.file, kind: .missing)
        }
        if digest.size != entry.size {
            return VerifyProblem(
                folder: folder, file: entry.file, kind: .resized(actual: digest.size, recorded: entry.size))
        }
        if let recorded = entry.sha256, recorded != digest.digest {
            return VerifyProblem(folder: folder, file: entry.file, kind: .changed)
        }
        return nil
    }

    /// Renames a download of changed content into place as a new version of `entry` (`Title (v2).mp3`, else v3...),
    /// records it, and marks `entry` as replaced by it.
    private func placeVersion(
        _ result: DownloadResult, of entry: ArchiveIndex.Entry, in context: inout FeedContext,
        names: inout NameAllocator
    ) throws -> String {
        let partial = PartialFiles(key: entry.key, stateFolder: context.stateFolder)
        let file = entry.file as NSString
        let ext = file.pathExtension
        let stem = file.deletingPathExtension
        for number in 2...1000 {
            let name = "\(stem) (v\(number))" + (ext.isEmpty ? "" : ".\(ext)")
            guard names.claim(exactly: name),
                !files.fileExists(atPath: context.folder.appendingPathComponent(name).path)
            else { continue }
            let destination = context.folder.appendingPathComponent(name)
            do {
                try mover.moveItem(at: partial.body, to: destination)
            } catch {
                throw Self.storageError(error, path: destination.path)
            }
            let published = entry.published.flatMap(FeedDate.parseRFC3339)
            folders.setDates(of: destination, to: published)
            folders.setOrigin(of: destination, to: entry.url)
            var version = ArchiveIndex.Entry(
                key: "\(entry.key)#v\(number)", guid: nil, title: entry.title, url: entry.url, file: name,
                size: result.fileSize, sha256: result.sha256, published: entry.published,
                archived: FeedDate.iso8601(now()))
            version.replacedBy = nil
            context.index.record(version)
            context.index.markReplaced(entry.file, by: name)
            try folders.save(context.index, to: context.indexURL)
            forgetDownload(of: WorkItem.missing(entry).episode, in: context.stateFolder)
            return name
        }
        throw EpisodeFailure.storage("no free name for a new version of \(entry.file)")
    }

    /// Moves a damaged file into the state folder for the rename that replaces it.
    private func setAside(_ file: String, in context: FeedContext) throws -> URL? {
        let source = context.folder.appendingPathComponent(file)
        guard files.fileExists(atPath: source.path) else { return nil }
        let aside = context.stateFolder.appendingPathComponent(Self.asideName(for: file))
        try? files.removeItem(at: aside)
        do {
            try mover.moveItem(at: source, to: aside)
        } catch {
            throw Self.storageError(error, path: source.path)
        }
        return aside
    }

    static func asideName(for file: String) -> String { "damaged-\(StableName.of(file))" }

    /// `directory` itself when it is a feed folder, else every feed folder directly inside it.
    private func feedFolders(in directory: URL) throws -> [URL] {
        func isFeedFolder(_ url: URL) -> Bool {
            files.fileExists(
                atPath: url.appendingPathComponent(ArchiveIndex.stateFolderName).appendingPathComponent(
                    ArchiveIndex.fileName
                ).path)
        }
        if isFeedFolder(directory) { return [directory] }
        let children = ((try? files.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        let folders = children.filter { !$0.hasPrefix(".") }.map {
            directory.appendingPathComponent($0, isDirectory: true)
        }
        .filter(isFeedFolder)
        guard !folders.isEmpty else { throw ArchiveError.noArchive(path: directory.path) }
        return folders
    }
}
