// `verify --repair` for one show: each damaged companion and episode file fetched again through the sync's own
// fetcher and placer, the damaged file kept until its replacement is in place, and what the index knew of the
// episode kept with it (see `EpisodePlacer.complete`).
import Foundation

extension Verifier {
    /// Fetches again each damaged companion and episode file of `show` (entries the caller judged repairable).
    /// - Throws: `ArchiveError` when the archive cannot be written (a full disk stops the run).
    func repair(
        _ episodes: [(ArchiveIndex.Entry, VerifyProblem)],
        _ companions: [(ArchiveIndex.Entry, CompanionFile, VerifyProblem)], in show: inout FeedFolder,
        options: SyncOptions, present: Set<String>, report: inout VerifyReport,
        onEvent: @Sendable (VerifyEvent) -> Void, realURLs: (URL, ArchiveIndex, SyncOptions) async -> RealURLs
    ) async throws {
        guard !(episodes.isEmpty && companions.isEmpty) else { return }
        // What the index keeps redacted is fetched again from the feed's URL (see `SecretForms`).
        let real = await realURLs(show.folder, show.index, options)
        for (entry, companion, problem) in companions {
            let applied = real.applied(to: entry)
            let fetched = applied.companions?.first { $0.file == companion.file } ?? companion
            if let failure = await repairCompanion(fetched, of: applied, in: &show, options: options) {
                onEvent(.repairFailed(problem, failure))
            } else {
                report.repaired.append(problem)
                onEvent(.repaired(problem))
            }
        }
        guard !episodes.isEmpty else { return }
        var names = NameAllocator(taken: present.union(show.index.fileNames))
        for (entry, problem) in episodes {
            let entry = real.applied(to: entry)
            // The damaged file stays where it is while its replacement downloads (a repair killed or failing
            // there leaves it untouched); it is set aside only for the rename that replaces it.
            var aside: URL?
            do {
                let item = WorkItem.missing(entry)
                let fetched = try await fetcher.fetch(item.episode, in: show.state, options: options)
                if case .downloaded(let result) = fetched, let recorded = entry.sha256,
                    result.sha256 != recorded || result.fileSize != entry.size
                {
                    // The publisher's file is not the one archived: what was archived stays the record of what
                    // was published (damaged as it is), and the new content is a version of its own.
                    let version = try placer.placeVersion(result, of: entry, in: &show, names: &names)
                    var unrecoverable = problem
                    unrecoverable.replacedBy = version
                    report.unrecoverable.append(unrecoverable)
                    onEvent(.upstreamChanged(unrecoverable, version: version))
                    continue
                }
                aside = try contents.setAside(entry.file, in: show)
                _ = try placer.complete(fetched, item: item, in: &show, names: &names, template: options.names)
                try indexes.commitJournal(of: &show)
                if let aside { try? files.removeItem(at: aside) }
                report.repaired.append(problem)
                onEvent(.repaired(problem))
            } catch let failure as EpisodeFailure {
                // Keep what there was rather than nothing.
                if let aside {
                    try? mover.moveItem(at: aside, to: show.folder.appendingPathComponent(entry.file))
                }
                onEvent(.repairFailed(problem, failure))
            }
        }
    }
}
