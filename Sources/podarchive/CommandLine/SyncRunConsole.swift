// What `sync` and `add` say of a run ArchiverCore carries out (`Archiver.sync(_:onEvent:)`): the shows found and
// the problems met, in lines; each show through its own `SyncConsole`, straight to the terminal when shows sync
// one at a time, else into a buffer printed whole in the shows' order (`OrderedPrinter`).
import ArchiverCore
import Foundation

/// Turns the events of a run into lines. Events of shows syncing side by side arrive from several tasks at once.
final class SyncRunConsole: Sendable {
    private let context: CommandContext
    private let root: URL
    private let verbosity: Verbosity
    private let json: Bool
    /// How many shows sync at once.
    private let feedJobs: Int
    /// Also say a found page's other feeds (`--verbose`, and `add --verbose`).
    private let verbose: Bool
    /// What is on screen for each show, and the printer that orders shows syncing side by side.
    private let state = Locked(Shows())

    private struct Shows {
        var consoles: [Int: SyncConsole] = [:]
        var printer: OrderedPrinter?
    }

    init(context: CommandContext, root: URL, verbosity: Verbosity, json: Bool, feedJobs: Int, verbose: Bool) {
        self.context = context
        self.root = root
        self.verbosity = verbosity
        self.json = json
        self.feedJobs = feedJobs
        self.verbose = verbose
    }

    /// Lines for people on standard output: not with `--json` or `--quiet`.
    private var lines: Bool { !json && verbosity != .quiet }

    func handle(_ event: SyncRunEvent) {
        switch event {
        case .found(let resolved, let followed, let show):
            let (output, _) = streams(show)
            if let show { console(show)?.abandon() }
            guard lines else { break }
            for line in resolved.foundLines(followed: followed, verbose: verbose) { output.write(line) }
        case .accessLeftBehind(let resolved, let headers, let show):
            // On standard error whatever the verbosity: the login or headers given with a page stay with it.
            resolved.leftBehindLine(headers: headers).map(streams(show).errors.write)
        case .unfound(let outcome):
            sayFailure(outcome, to: context.errors)
        case .problem(let problem):
            context.errors.write("podarchive: \(problem.line(root: root))\n")
        case .merged(let merge):
            context.output.write(
                "<\(merge.removed.shownFeed)> and <\(merge.kept.shownFeed)> are one show, in \(merge.kept.folder)/: "
                    + "its subscription is <\(merge.kept.shownFeed)> from now on\n")
        case .secretsInside(let count):
            context.errors.write("podarchive: \(SyncFormatter.secretsInsideLine(count, root: root))\n")
        case .chosen(let shows):
            guard shows.count > 1, feedJobs > 1 else { return }
            state.withLock { state in
                state.printer = OrderedPrinter(
                    shows: shows.map(\.source.shownName), output: context.output, errors: context.errors,
                    terminal: context.terminal)
            }
        case .started(let show):
            let (output, errors) = streams(show)
            let console = SyncConsole(
                output: output, errors: errors, terminal: printer == nil ? context.terminal : .none,
                verbosity: verbosity, json: json, root: root, now: context.now)
            state.withLock { state in state.consoles[show] = console }
            printer?.started(show)
        case .show(let show, let event):
            if let console = console(show) {
                console.handle(event)
            } else {
                sayRead(event, to: streams(show).output)
            }
        case .ended(let show, let outcome):
            end(show, outcome)
            printer?.finished(show)
        case .site(let report, _):
            // A site nothing changed in is said only with -v: a nightly `sync --site` says nothing of it.
            SiteCommand.say(
                report.lines(root: root, quiet: !lines, sayUnchanged: verbosity == .verbose), context: context)
        case .siteFailed(let error):
            _ = context.report(error)
        case .library(let report):
            let said = report.syncLines(verbose: verbose)
            SiteCommand.say((lines ? said.output : "", said.errors), context: context)
        case .libraryFailed(let error):
            _ = context.report(error)
        }
    }

    /// What telling the run's end came to (the report's `notices.lines`), on standard error.
    func sayNotices(_ lines: String) {
        if !lines.isEmpty { context.errors.write(lines) }
    }

    /// Everything printed: the status line goes.
    func end() { printer?.end() }

    private var printer: OrderedPrinter? { state.withLock { $0.printer } }

    private func console(_ show: Int) -> SyncConsole? { state.withLock { $0.consoles[show] } }

    /// Where the lines of show `show` go: its buffer when shows sync side by side, else standard output and error.
    private func streams(_ show: Int?) -> (output: any TextOutput, errors: any TextOutput) {
        guard let show, let printer else { return (context.output, context.errors) }
        let buffer = printer.buffer(show)
        return (buffer.output, buffer.errors)
    }

    private func end(_ show: Int, _ outcome: ShowOutcome) {
        let (output, errors) = streams(show)
        let console = self.console(show)
        switch outcome.result {
        case .synced(let report):
            console?.finish(
                summary: SyncFormatter.summary(report)
                    + (outcome.source.map {
                        SyncFormatter.leftOut(
                            report.leftOut, settings: outcome.settings ?? SettingsLayers([]), feed: $0
                        ) { $0.asOptions(only: $1) }
                    } ?? ""))
        case .planned(let plan):
            if !json {
                output.write(
                    SyncFormatter.filterLines(plan, verbose: verbosity == .verbose, option: FilterLines.option)
                        + SyncFormatter.dryRun(plan))
            }
        case .subscribed(let subscription):
            output.write("subscribed \(subscription.feed) into \(subscription.folder)/\n")
        case .failed, .interrupted:
            console?.abandon()
            sayFailure(outcome, to: errors)
        }
    }

    /// What reading a show's feed met, told of a show that is not syncing (`add`).
    private func sayRead(_ event: SyncEvent, to output: any TextOutput) {
        switch event {
        case .readdressed(let from, let to):
            output.write(SyncFormatter.readdressed(from: from, to: to) + "\n")
        case .defaultLoginStays(let home, let host):
            output.write(SyncFormatter.defaultLoginStays(home: home, host: host) + "\n")
        case .keptBoth(let feed, let folder, let apart, let apartFolder):
            output.write(
                SyncFormatter.keptBoth(feed: feed, folder: folder, apart: apart, apartFolder: apartFolder) + "\n")
        default: break
        }
    }

    /// The one line of a show that failed.
    private func sayFailure(_ outcome: ShowOutcome, to errors: any TextOutput) {
        switch outcome.result {
        case .interrupted(finding: true):
            errors.write("podarchive: interrupted while finding the feed of \(outcome.feed); nothing saved for it\n")
        case .interrupted(finding: false):
            errors.write("podarchive: interrupted while reading \(outcome.feed); it is not subscribed\n")
        case .failed(let settings as SettingsError):
            errors.write("podarchive: \(outcome.feed): \(SettingsSaid.settingLine(settings))\n")
        case .failed(let error):
            errors.write("podarchive: \(SettingsSaid.errorLine(error))\n")
        case .synced, .planned, .subscribed:
            break
        }
    }

    /// The `--json` summary of a run: each show's entry, in order.
    static func json(_ outcomes: [ShowOutcome], root: URL) -> String {
        SyncFormatter.json(
            entries: outcomes.map { outcome in
                switch outcome.result {
                case .planned(let plan):
                    return SyncFormatter.dryRunJSON(plan, feed: outcome.feed)
                case .synced(let report):
                    return SyncFormatter.jsonEntry(
                        feed: outcome.feed, report: report, root: root, code: outcome.status, seconds: outcome.seconds)
                case .failed(let error):
                    return SyncFormatter.jsonEntry(
                        feed: outcome.feed, report: nil, root: root, code: outcome.status, seconds: outcome.seconds,
                        error: SyncFormatter.oneLine(error.localizedDescription))
                case .interrupted, .subscribed:
                    return SyncFormatter.jsonEntry(
                        feed: outcome.feed, report: nil, root: root, code: outcome.status, seconds: outcome.seconds,
                        error: "interrupted")
                }
            })
    }
}
