// Runs one command line: parse, dispatch to a command, print, and return the exit code.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct CommandLineTool: Sendable {
    let environment: ProcessEnvironment
    let output: any TextOutput
    let errors: any TextOutput
    /// Builds the archiver only when a command needs it (so `--help` never touches the network stack).
    let makeArchiver: @Sendable () -> Archiver
    /// The clock, for the seconds `sync --json` reports and the rates progress shows.
    var now: @Sendable () -> Date = { Date() }
    /// What standard output and error are connected to: progress is drawn only on a terminal.
    var terminal = TerminalInfo.none

    static func live() -> CommandLineTool {
        let environment = ProcessEnvironment.live
        // The crash tests make the debug binary kill itself at a named point; a release binary has no such switch.
        #if DEBUG
            let crashPoint = environment.variables["PODARCHIVE_TEST_CRASH"]
        #else
            let crashPoint: String? = nil
        #endif
        return CommandLineTool(
            environment: environment, output: StandardStream.output, errors: StandardStream.error,
            makeArchiver: { liveArchiver(crashingAt: crashPoint) }, terminal: TerminalInfo.detect(environment))
    }

    /// The archiver with every live seam. `crashingAt` names a point where the process kills itself, so the
    /// crash tests can prove that dying there loses nothing (`FaultPoint` names, or `index-write`).
    static func liveArchiver(crashingAt point: String?) -> Archiver {
        let die: @Sendable () -> Void = { kill(getpid(), SIGKILL) }
        return Archiver.live(
            writer: DurableFileWriter(beforeRename: { url in
                if point == "index-write", url.lastPathComponent == ArchiveIndex.fileName { die() }
            }),
            faults: { fault in if fault.rawValue == point { die() } })
    }

    func run(_ arguments: [String]) async -> ExitCode {
        switch Arguments.parse(arguments) {
        case .failure(let usage):
            errors.write("podarchive: \(usage.message)\n")
            errors.write(
                usage.command.map { HelpText.text(for: $0).components(separatedBy: "\n\n")[0] } ?? HelpText.usage)
            errors.write("\nRun 'podarchive help\(usage.command.map { " " + $0 } ?? "")' for more.\n")
            return .usage
        case .success(.help(let topic)):
            output.write(HelpText.text(for: topic) + "\n")
            return .success
        case .success(.completions(let shell)):
            output.write(Completions.script(for: shell) ?? "")
            return .success
        case .success(.version):
            output.write("podarchive \(PodarchiveVersion.current)\n")
            return .success
        case .success(.list(let arguments)):
            return await list(arguments)
        case .success(.sync(let arguments)):
            return await sync(arguments)
        case .success(.verify(let arguments)):
            return await verify(arguments)
        }
    }

    // MARK: - list

    private func list(_ arguments: ListArguments) async -> ExitCode {
        do {
            let source = try FeedSource(arguments.feed, currentDirectory: environment.currentDirectory)
            var feed = try await makeArchiver().list(
                source, limits: FeedLimits(maximumBytes: arguments.maximumFeedSize))
            feed.episodes = arguments.filter.apply(to: feed.episodes)
            if arguments.json {
                output.write(utf8: ListFormatter.json(feed))
            } else {
                output.write(ListFormatter.table(feed))
            }
            return .success
        } catch {
            return report(error)
        }
    }

    // MARK: - sync

    private func sync(_ arguments: SyncArguments) async -> ExitCode {
        guard let root = resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = makeArchiver()
        // A feed named on the command line that is no feed at all is a usage error before anything runs.
        var feeds: [FeedSource] = []
        for text in arguments.feeds {
            do {
                feeds.append(try FeedSource(text, currentDirectory: environment.currentDirectory))
            } catch {
                errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
                return .usage
            }
        }
        // In a list, a bad line is reported and skipped (exit 2 at the end) so the other feeds still sync; its
        // relative paths start at the list's own folder, wherever the run starts (cron, systemd).
        var worst = ExitCode.success
        for (path, opml) in [(arguments.opml, true), (arguments.feedList, false)] {
            guard let path else { continue }
            let file = absolute(path)
            let listed: [String]
            do {
                listed = try archiver.subscriptions(atPath: file, opml: opml)
            } catch {
                errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
                return .usage
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
            return .usage
        }
        var entries: [String] = []
        // One feed failing never stops the others; the exit code tells the worst that happened.
        for feed in feeds {
            // Interrupted: the feed that was running said so; the rest are not started.
            if Task.isCancelled { return worst.rawValue < ExitCode.interrupted.rawValue ? .interrupted : worst }
            let (code, entry) = await sync(feed, arguments, into: root, with: archiver)
            entries.append(entry)
            if Self.severity(code) > Self.severity(worst) { worst = code }
        }
        if arguments.json { output.write(SyncFormatter.json(entries: entries)) }
        return worst
    }

    /// Which exit code wins when feeds end differently: an unusable archive, then a failed feed, then a locked
    /// one, then failed episodes.
    static func severity(_ code: ExitCode) -> Int {
        switch code {
        case .success: return 0
        case .episodesFailed: return 1
        case .locked: return 2
        case .feedFailed: return 3
        case .usage: return 4
        case .archiveFailed: return 5
        case .interrupted, .terminated: return 6
        }
    }

    /// Syncs one feed; returns its exit code and its entry for `--json`.
    private func sync(
        _ source: FeedSource, _ arguments: SyncArguments, into root: URL, with archiver: Archiver
    ) async -> (ExitCode, String) {
        let started = now()
        let console = SyncConsole(
            output: output, errors: errors, terminal: terminal, verbosity: arguments.verbosity, json: arguments.json,
            root: root, now: now)
        do {
            var options = Self.options(arguments.transfer)
            options.filter = arguments.filter
            options.names = arguments.names
            options.metadata = arguments.metadata
            options.retryGone = arguments.retryGone
            options.maximumFeedSize = arguments.maximumFeedSize
            if arguments.dryRun {
                let plan = try await archiver.plan(source, into: root, options: options)
                if arguments.json { return (.success, SyncFormatter.dryRunJSON(plan, feed: source.displayName)) }
                output.write(SyncFormatter.dryRun(plan))
                return (.success, "")
            }
            let report = try await archiver.sync(source, into: root, options: options, onEvent: console.handle)
            let code: ExitCode = report.failed.isEmpty ? .success : .episodesFailed
            console.finish(summary: SyncFormatter.summary(report))
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: report, root: root, code: code,
                    seconds: now().timeIntervalSince(started))
            )
        } catch {
            console.abandon()
            let code = report(error)
            return (
                code,
                SyncFormatter.jsonEntry(
                    feed: source.displayName, report: nil, root: root, code: code,
                    seconds: now().timeIntervalSince(started),
                    error: SyncFormatter.oneLine(error.localizedDescription))
            )
        }
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : environment.currentDirectory + "/" + path
    }

    // MARK: - verify

    private func verify(_ arguments: VerifyArguments) async -> ExitCode {
        guard let root = resolveRoot(arguments.directory) else { return .usage }
        let output = self.output
        let errors = self.errors
        do {
            let report = try await makeArchiver().verify(
                root, repair: arguments.repair, options: Self.options(arguments.transfer)
            ) {
                event in
                switch event {
                case .problem(let problem):
                    output.write(VerifyFormatter.line(problem, root: root) + "\n")
                case .repaired(let problem):
                    output.write("repaired \(VerifyFormatter.path(problem, root: root))\n")
                case .upstreamChanged(let problem, let version):
                    errors.write(
                        "podarchive: cannot repair \(VerifyFormatter.path(problem, root: root)): the publisher's file "
                            + "has changed since it was archived; the damaged file stays as the record, the new one "
                            + "is kept beside it as \(version)\n")
                case .gone(let folder, let failure):
                    output.write(VerifyFormatter.goneLine(failure, folder: folder, root: root) + "\n")
                case .repairFailed(let problem, let failure):
                    errors.write(
                        "podarchive: cannot repair \(VerifyFormatter.path(problem, root: root)): \(failure.reason)\n")
                }
            }
            output.write(VerifyFormatter.summary(report) + "\n")
            return report.remaining == 0 ? .success : .episodesFailed
        } catch {
            return report(error)
        }
    }

    static func options(_ settings: TransferSettings) -> SyncOptions {
        SyncOptions(
            retry: RetryPolicy(retries: settings.retries), episodeTimeout: settings.timeout, lockWait: settings.wait,
            jobs: settings.jobs)
    }

    private func resolveRoot(_ option: String?) -> URL? {
        switch archiveRoot(option) {
        case .success(let url): return url
        case .failure(let usage):
            errors.write("podarchive: \(usage.message)\n")
            return nil
        }
    }

    /// `--to` (or verify's DIR), else `$PODARCHIVE_DIR`, else `~/Podcasts`; relative paths start at the current
    /// directory.
    func archiveRoot(_ option: String?) -> Result<URL, UsageError> {
        let variables = environment.variables
        let chosen = option ?? variables["PODARCHIVE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let path: String
        if let chosen {
            path = chosen.hasPrefix("/") ? chosen : environment.currentDirectory + "/" + chosen
        } else if let home = variables["HOME"], !home.isEmpty {
            path = home + "/Podcasts"
        } else {
            return .failure(
                UsageError(message: "no archive folder: pass --to DIR or set PODARCHIVE_DIR", command: "sync"))
        }
        return .success(URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
    }

    private func report(_ error: Error) -> ExitCode {
        errors.write("podarchive: \(SyncFormatter.errorLine(error))\n")
        switch error {
        case FeedError.unsupportedScheme, FeedError.invalidSource: return .usage
        case is FeedError: return .feedFailed
        case ArchiveError.locked: return .locked
        case ArchiveError.noArchive: return .usage
        case ArchiveError.interrupted: return .interrupted
        default: return .archiveFailed
        }
    }
}
