// `podarchive sync`: the feeds named (and listed), or every subscription; several shows at once, each with its
// saved settings under the command line's; the exit code is the worst outcome.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One show a sync run takes on: its feed, the settings saved with it, and what to save.
struct SyncTarget: Sendable {
    var source: FeedSource
    /// Settings saved with the subscription (nil: none, or not subscribed yet).
    var saved: ShowSettings?
    /// Settings to save with it: those given on the command line, for feeds named there or in a list.
    var save: ShowSettings?
    /// Credentials given for it on the command line (a login in its URL, `--header`), used and saved.
    var credentials: ShowCredentials? = nil
    /// Its subscription's ID (what `--shard` hashes), or the one it will get.
    var id: String
}

/// What every show of one run shares: download slots, each host's request slots and disk claims, and the bandwidth
/// cap.
struct RunLimits: Sendable {
    var budget: DownloadBudget
    var throttle: Throttle?
}

extension CommandLineTool {
    func sync(_ given: SyncArguments) async -> ExitCode {
        guard let root = resolveRoot(given.archiveDirectory) else { return .usage }
        var arguments = given
        arguments.given.netrcFile = given.given.netrcFile.map(absolute)
        // Headers are a show's secrets: they go with the feeds they were given for, never to every subscription.
        if !arguments.headers.isEmpty, arguments.feeds.isEmpty || arguments.opml != nil || arguments.feedList != nil {
            errors.write(
                "podarchive: option '--header' needs the feeds it is for named on the command line (and no "
                    + "--opml or --feeds list): it is sent to their hosts only\n")
            return .usage
        }
        let archiver = configuredArchiver()
        let (chosen, problems) = syncTargets(arguments, root: root, archiver: archiver)
        guard var shows = chosen else { return problems }
        var worst = problems
        if let shard = arguments.shard {
            shows = shows.filter { Subscription.shard(ofID: $0.id, among: shard.count) == shard.index }
        }
        // --jobs caps downloads in all; requests to one host are capped whatever --jobs and --feed-jobs say.
        let budget = DownloadBudget(jobs: arguments.transfer.jobs)
        let limits = RunLimits(
            budget: budget, throttle: arguments.transfer.limitRate.map { Throttle(bytesPerSecond: $0) })
        let results = await syncShows(shows, arguments, root: root, archiver: archiver, limits: limits)
        for (code, _) in results where Self.severity(code) > Self.severity(worst) { worst = code }
        if !arguments.dryRun, !Task.isCancelled {
            let code = refreshSite(root, archiver: archiver, arguments)
            if Self.severity(code) > Self.severity(worst) { worst = code }
        }
        if arguments.json { output.write(SyncFormatter.json(entries: results.map(\.1))) }
        if results.contains(where: { $0.0 == .interrupted }) || Task.isCancelled { return .interrupted }
        return worst
    }

    /// `--site`/`--no-site` saved for the archive; the site written again when it is on.
    private func refreshSite(_ root: URL, archiver: Archiver, _ arguments: SyncArguments) -> ExitCode {
        var settings = archiver.siteSettings(in: root)
        if let wanted = arguments.site, wanted != (settings.enabled ?? false) {
            settings.enabled = wanted
            do {
                try archiver.saveSiteSettings(settings, in: root)
            } catch {
                return report(error)
            }
        }
        guard settings.enabled == true else { return .success }
        return writeSite(
            root, archiver: archiver, settings: settings, quiet: arguments.json || arguments.verbosity == .quiet)
    }

    /// The shows to sync: the feeds named and listed (deduplicated), else every subscription. Nil (with the exit
    /// code) when there is nothing to do; the code is also the worst problem met on the way (a bad list line).
    private func syncTargets(_ arguments: SyncArguments, root: URL, archiver: Archiver) -> ([SyncTarget]?, ExitCode) {
        let subscriptions = archiver.subscriptions(in: root)
        let named = arguments.feeds.isEmpty && arguments.opml == nil && arguments.feedList == nil
        var worst = ExitCode.success
        warnOfSecretsInside(subscriptions, root: root)
        sayMerged(subscriptions)
        guard !named else {
            // No feed named: every subscription, with its saved settings. A damaged record is named and skipped.
            for damaged in subscriptions.damaged {
                errors.write(
                    "podarchive: subscription record \(damaged.path) is damaged (\(damaged.reason)); skipped\n")
                worst = .archiveFailed
            }
            guard !subscriptions.shows.isEmpty || !subscriptions.damaged.isEmpty else {
                errors.write(
                    "podarchive: \(root.path) has no subscriptions; add one with 'podarchive add <feed>' or name a feed\n"
                )
                return (nil, .usage)
            }
            let targets = subscriptions.shows.compactMap { show -> SyncTarget? in
                do {
                    let resolved = try archiver.resolve(show, in: root)
                    return SyncTarget(source: resolved.source, saved: show.settings, save: nil, id: show.id)
                } catch let missing as CredentialError {
                    // The other shows still sync; this one cannot be fetched without what it is missing.
                    errors.write("podarchive: \(missing.localizedDescription)\n")
                    if Self.severity(.feedFailed) > Self.severity(worst) { worst = .feedFailed }
                } catch {
                    errors.write("podarchive: subscription \(show.shownFeed) is not a feed URL or path; skipped\n")
                    worst = .archiveFailed
                }
                return nil
            }
            return (targets, worst)
        }
        // A feed named on the command line that is no feed at all is a usage error before anything runs.
        var feeds: [FeedSource] = []
        var logins: [String: ShowCredentials] = [:]
        for text in arguments.feeds {
            do {
                let source = try FeedSource(text, currentDirectory: environment.currentDirectory)
                feeds.append(source)
                logins[source.displayName] = Self.credentials(
                    login: FeedSource.login(in: text), headers: arguments.headers, for: source)
            } catch {
                errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
                return (nil, .usage)
            }
        }
        // In a list, a bad line is reported and skipped (exit 2 at the end) so the other feeds still sync; its
        // relative paths start at the list's own folder, wherever the run starts (cron, systemd).
        for (path, opml) in [(arguments.opml, true), (arguments.feedList, false)] {
            guard let path else { continue }
            let file = absolute(path)
            let listed: [String]
            do {
                listed = try archiver.subscriptions(atPath: file, opml: opml)
            } catch {
                errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
                return (nil, .usage)
            }
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            for text in listed {
                do {
                    feeds.append(try FeedSource(text, currentDirectory: folder))
                } catch {
                    errors.write(
                        "podarchive: feed list \(file): \(SyncFormatter.oneLine(error.localizedDescription))\n")
                    worst = .usage
                }
            }
        }
        // The same feed given twice (twice on the command line, or there and in a list) is synced once.
        var seen = Set<String>()
        feeds = feeds.filter { seen.insert($0.displayName).inserted }
        guard !feeds.isEmpty else {
            errors.write("podarchive: the feed lists name no feeds\n")
            return (nil, .usage)
        }
        var targets: [SyncTarget] = []
        for feed in feeds {
            // Its saved settings, found whatever the spelling of its URL.
            let known: Subscription?
            do {
                known = try archiver.subscription(for: feed, in: root)?.record
            } catch {
                errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
                if Self.severity(.feedFailed) > Self.severity(worst) { worst = .feedFailed }
                continue
            }
            targets.append(
                SyncTarget(
                    source: feed, saved: known?.settings, save: arguments.given,
                    credentials: logins[feed.displayName] ?? nil, id: known?.id ?? Subscription.id(forNewFeed: feed)))
        }
        return (targets, worst)
    }

    /// Says once a run, while any subscription record still holds a secret an earlier podarchive kept inside the
    /// archive, where they are and the one command that moves them out. They are used as they are meanwhile.
    /// Says, once, which records of one show were merged (an archive made before addresses were normalised).
    func sayMerged(_ subscriptions: SubscriptionSet) {
        for merge in subscriptions.merged {
            output.write(
                "<\(merge.removed.shownFeed)> and <\(merge.kept.shownFeed)> are one show, in \(merge.kept.folder)/: "
                    + "its subscription is <\(merge.kept.shownFeed)> from now on\n")
        }
    }

    func warnOfSecretsInside(_ subscriptions: SubscriptionSet, root: URL) {
        let holding = subscriptions.shows.filter(\.holdsSecrets)
        guard !holding.isEmpty else { return }
        let shows = holding.count == 1 ? "1 show's credentials are" : "\(holding.count) shows' credentials are"
        errors.write(
            "podarchive: \(shows) kept inside the archive, in \(root.path)/.podarchive/feeds, where anyone the "
                + "archive is served or copied to can read them; move them to the configuration folder with "
                + "'podarchive credentials --move'\n")
    }

    /// Which exit code wins when feeds end differently (see `ExitCode.severity`).
    static func severity(_ code: ExitCode) -> Int { code.severity }

    /// The options one show syncs with: the command line's transfer settings, the show's saved settings, then the
    /// settings given on the command line over them.
    func options(
        for target: SyncTarget, _ arguments: SyncArguments, limits: RunLimits?
    ) throws -> SyncOptions {
        var options = Self.options(arguments.transfer)
        options.retryGone = arguments.retryGone
        options.maximumFeedSize = arguments.maximumFeedSize
        options.budget = limits?.budget
        options.saveSettings = target.save.flatMap { $0.isEmpty ? nil : $0 }
        options.netrc = defaultNetrc
        options.throttle = limits?.throttle
        options.give(target.credentials)
        return try options.applying(target.saved ?? ShowSettings()).applying(arguments.given)
    }

    /// What the command line gives a feed: the login in its URL and the `--header`s, for its origin.
    static func credentials(login: ShowCredentials?, headers: [String], for source: FeedSource) -> ShowCredentials? {
        guard let origin = source.origin, login != nil || !headers.isEmpty else { return nil }
        return ShowCredentials(
            origin: origin, user: login?.user, password: login?.password, headers: headers.isEmpty ? nil : headers)
    }

    /// `~/.netrc`, read when it exists, as wget does.
    var defaultNetrc: NetrcChoice? {
        environment.variables["HOME"].map { NetrcChoice(path: $0 + "/.netrc", required: false) }
    }

    /// Syncs one feed; returns its exit code and its entry for `--json`.
    func sync(
        _ target: SyncTarget, _ arguments: SyncArguments, into root: URL, with archiver: Archiver,
        limits: RunLimits?
    ) async -> (ExitCode, String) {
        let source = target.source
        let started = now()
        let console = SyncConsole(
            output: output, errors: errors, terminal: terminal, verbosity: arguments.verbosity, json: arguments.json,
            root: root, now: now)
        do {
            let options = try self.options(for: target, arguments, limits: limits)
            if arguments.dryRun {
                let plan = try await archiver.plan(source, into: root, options: options)
                if arguments.json { return (.success, SyncFormatter.dryRunJSON(plan, feed: source.displayName)) }
                output.write(SyncFormatter.dryRun(plan))
                return (.success, "")
            }
            let report = try await archiver.sync(source, into: root, options: options, onEvent: console.handle)
            // A page that could not be read hides episodes as a failed episode does: tried again next run.
            let code: ExitCode = report.failed.isEmpty && report.pageProblem == nil ? .success : .episodesFailed
            console.finish(
                summary: SyncFormatter.summary(report)
                    + SyncFormatter.leftOut(report.leftOut, saved: target.saved, given: arguments.given, feed: source))
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: report, root: root, code: code,
                    seconds: now().timeIntervalSince(started))
            )
        } catch {
            console.abandon()
            let code: ExitCode
            if let settings = error as? SettingsError {
                errors.write("podarchive: \(source.displayName): \(settings.localizedDescription)\n")
                code = .archiveFailed
            } else {
                code = report(error)
            }
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: nil, root: root, code: code,
                    seconds: now().timeIntervalSince(started),
                    error: SyncFormatter.oneLine(error.localizedDescription))
            )
        }
    }

    func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : environment.currentDirectory + "/" + path
    }
}
