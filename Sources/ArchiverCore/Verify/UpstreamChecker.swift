// `verify --upstream`: which archived episodes no longer exist anywhere but here. Each origin is asked politely:
// at most `jobs` questions at once, and at most 4 to one host, as downloads are. No file is touched.
import Foundation

/// One archived episode's origin, and what it answered.
public struct UpstreamCheck: Sendable, Equatable {
    /// The show's folder.
    public var folder: URL
    /// The archived file, as the index records it.
    public var file: String
    /// The title, as archived.
    public var title: String?
    /// Where it was downloaded from.
    public var url: String
    /// What that URL answered.
    public var state: UpstreamState
}

/// The outcome of `verify --upstream`.
public struct UpstreamReport: Sendable, Equatable {
    /// Every episode asked about, in show and index order.
    public var checks: [UpstreamCheck] = []
    /// Episodes still online where they came from.
    public var online: Int { checks.count { $0.state == .online } }
    /// Episodes that exist only in this archive now.
    public var gone: [UpstreamCheck] {
        checks.filter { if case .gone = $0.state { return true } else { return false } }
    }
    /// Episodes whose origin gave no verdict.
    public var unknown: Int { checks.count { if case .unknown = $0.state { return true } else { return false } } }
}

/// `verify --upstream`: asks each archived episode's origin whether it still exists.
struct UpstreamChecker: Sendable {
    /// The show folders under a directory.
    let verifier: Verifier
    /// Each show's index.
    let indexes: IndexStore
    /// The credentials a show's requests carry.
    let access: ShowAccess
    /// The origins asked.
    let loader: FeedLoader
    /// The real URLs of what an index keeps redacted.
    let verification: Verification

    /// Asks the origin of every episode archived in `directory` (a show's folder, or a root holding shows)
    /// whether it still exists, `jobs` at a time and at most 4 to one host; reports each as it is answered. Each
    /// show is asked with its saved credentials; `access` gives this run's User-Agent and `.netrc` file.
    /// - Throws: `ArchiveError.noArchive` when `directory` holds no index; a damaged index's error.
    func checkUpstream(
        _ directory: URL, jobs: Int, limits: FeedLimits = FeedLimits(timeout: 60), access: SyncOptions = SyncOptions(),
        onCheck: @escaping @Sendable (UpstreamCheck) -> Void = { _ in }
    ) async throws -> UpstreamReport {
        var episodes: [(URL, ArchiveIndex.Entry)] = []
        // Each show is asked with its own saved credentials and User-Agent.
        var showLimits: [URL: FeedLimits] = [:]
        var taints: [URL: Taint] = [:]
        let showFolders = try verifier.feedFolders(in: directory)
        let records = self.access.records(around: showFolders)
        for folder in showFolders {
            let index = try indexes.loadIndex(at: ShowState(folder: folder).index)
            var own = limits
            let options = try self.access.withAccess(access, forShowIn: folder, records: records)
            own.policy.profile = options.profile
            taints[folder] = options.taint
            // What the index keeps redacted is asked at the feed's URL (see `SecretForms`).
            guard let index else { continue }
            let real = await verification.realURLs(forShowIn: folder, index: index, options: options, records: records)
            for entry in index.episodes { episodes.append((folder, real.applied(to: entry))) }
            showLimits[folder] = own
        }
        let perShow = showLimits
        let shownAs = taints
        let budget = DownloadBudget(jobs: jobs)
        let loader = self.loader
        let listed = episodes
        var checks: [UpstreamCheck] = []
        // Enough tasks to keep every slot busy; the budget holds back those over a host's share. Each is reported
        // as it is answered, and kept in show and index order.
        try await OrderedTasks.run(
            count: listed.count, width: max(1, jobs) * 4,
            operation: { position in
                let (folder, entry) = listed[position]
                let url = URL(string: entry.url)
                let host = url?.host ?? ""
                try await budget.acquire(host: host)
                defer { budget.release(host: host) }
                var state = UpstreamState.unknown("not a URL")
                if URLSecrets.carriesRedaction(entry.url) {
                    state = .unknown("its URL's secret is not kept and the feed no longer lists it")
                } else if let url {
                    state = await loader.probe(url, limits: perShow[folder] ?? limits)
                }
                // Shown as the show's taint says: a private show's real URL loses every value.
                let shown = await (shownAs[folder] ?? .none).run { URLSecrets.redacted(entry.url) }
                return UpstreamCheck(folder: folder, file: entry.file, title: entry.title, url: shown, state: state)
            },
            finished: { _, check in onCheck(check) },
            settle: { _, check in checks.append(check) })
        return UpstreamReport(checks: checks)
    }
}
