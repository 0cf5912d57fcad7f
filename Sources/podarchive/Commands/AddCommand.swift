// `podarchive add <feed>... [settings]`: subscribe without downloading; the settings and credentials given are
// saved with each show, kept in the archive itself (its secrets in the configuration folder).
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct AddCommand: Sendable {
    let context: CommandContext
    let arguments: AddArguments

    /// Subscribes each feed without downloading: exit 3 for a feed that cannot be read (nothing saved for it).
    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = context.configuredArchiver()
        // A web page or an Apple Podcasts link is followed to its feed first: the feed is what is subscribed.
        let finding = FeedFinding(
            context: context, archiver: archiver, root: root,
            limits: FeedLimits(
                timeout: arguments.timeout,
                policy: TransferPolicy(
                    profile: RequestProfile(userAgent: arguments.settings.userAgent ?? PodarchiveVersion.userAgent))),
            headersGiven: !arguments.headers.isEmpty, saying: true, verbose: arguments.verbose)
        var worst = ExitCode.success
        for typed in arguments.feeds {
            if Task.isCancelled { return .interrupted }
            let text: String
            switch await finding.feed(for: typed) {
            case .success(let feed): text = feed
            case .failure(let failure):
                worst.include(failure.code)
                continue
            }
            let code: ExitCode
            do {
                let source = try FeedSource(text, currentDirectory: context.environment.currentDirectory)
                var settings = arguments.settings
                settings.netrcFile = settings.netrcFile.map(context.absolute)
                // The feed is read with the access given, which is saved with it (the credentials 0600).
                var options = try SyncOptions().applying(settings)
                options.episodeTimeout = arguments.timeout
                options.netrc = options.netrc ?? context.defaultNetrc
                options.give(
                    ShowCredentials.given(login: FeedSource.login(in: text), headers: arguments.headers, for: source))
                let said = CapturedEvents()
                let subscription = try await archiver.subscribe(
                    source, into: root, settings: settings, options: options, onEvent: said.append)
                for case .readdressed(let from, let to) in said.events {
                    context.output.write("the same show as <\(from)>: its subscription now uses <\(to)>\n")
                }
                context.output.write("subscribed \(subscription.feed) into \(subscription.folder)/\n")
                code = .success
            } catch  where Task.isCancelled {
                context.errors.write(
                    "podarchive: interrupted while reading \(URLSecrets.redacted(text)); it is not subscribed\n")
                return .interrupted
            } catch {
                code = context.report(error)
            }
            worst.include(code)
        }
        return worst
    }
}

/// The events of one call, kept to be said after it.
private final class CapturedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [SyncEvent] = []
    var events: [SyncEvent] { lock.withLock { kept } }
    func append(_ event: SyncEvent) { lock.withLock { kept.append(event) } }
}
