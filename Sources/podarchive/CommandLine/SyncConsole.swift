// What `sync` shows while it works. Not on a terminal (cron, pipes, files): one line per archived or failed
// episode and a summary per feed, no escape codes. On a terminal: the same lines, with a live area below them
// that shows each running download (episode, bytes, rate, time left) and the feed's "N of M", redrawn in place.
import ArchiverCore
import Foundation

/// Turns sync events into lines and, on a terminal, a live progress area. Events arrive from several threads.
final class SyncConsole: @unchecked Sendable {
    // Safe to share: the variables below `lock` are read and written only under it (each event is handled, and
    // the screen drawn, while holding it); the rest is constant.
    private let output: any TextOutput
    private let errors: any TextOutput
    private let terminal: TerminalInfo
    private let verbosity: Verbosity
    /// With `--json`, standard output carries the JSON alone.
    private let json: Bool
    private let root: URL
    private let now: @Sendable () -> Date
    /// The least time between two redraws caused by progress alone.
    static let redrawInterval: TimeInterval = 0.1

    private let lock = NSLock()
    private var feedTitle = ""
    private var total = 0
    private var done = 0
    private var downloads: [Int: Download] = [:]
    /// Lines of the live area now on screen, below the last permanent line.
    private var drawnLines = 0
    private var lastDraw = Date.distantPast

    private struct Download {
        var title: String
        var received: Int64 = 0
        var expected: Int64?
        /// The first report: the rate is measured from it, so the bytes a resumed download kept from an earlier
        /// run do not count as speed.
        var first: (bytes: Int64, time: Date)?
    }

    init(
        output: any TextOutput, errors: any TextOutput, terminal: TerminalInfo, verbosity: Verbosity, json: Bool,
        root: URL, now: @escaping @Sendable () -> Date
    ) {
        self.output = output
        self.errors = errors
        self.terminal = terminal
        self.verbosity = verbosity
        self.json = json
        self.root = root
        self.now = now
    }

    /// Lines for people on standard output: not with `--json` or `--quiet`.
    private var lines: Bool { !json && verbosity != .quiet }
    private var live: Bool { lines && terminal.live }

    // MARK: - Events

    func handle(_ event: SyncEvent) {
        lock.withLock {
            switch event {
            case .feedRead(let title, let folder, let episodes, let new, let source, let withoutMedia, let sharedGUIDs):
                feedTitle = SyncFormatter.showName(title, folder: folder)
                total = new
                done = 0
                if verbosity == .verbose, lines {
                    let from = source.isEmpty ? "" : " <\(source)>"
                    let bare =
                        withoutMedia == 0
                        ? ""
                        : " (and \(withoutMedia) item\(withoutMedia == 1 ? "" : "s") with nothing to download, left out)"
                    let shared =
                        sharedGUIDs == 0
                        ? ""
                        : "; \(sharedGUIDs) share\(sharedGUIDs == 1 ? "s" : "") a GUID with an earlier item and "
                            + "\(sharedGUIDs == 1 ? "is" : "are") kept apart by URL"
                    permanent(
                        "\(feedTitle)\(from): feed lists \(episodes) episode\(episodes == 1 ? "" : "s")\(bare), "
                            + "\(new) to fetch\(shared)")
                }
            case .itemsSkipped(let items):
                guard verbosity == .verbose, lines else { return }
                for item in items { permanent(SkippedItemsFormatter.verboseLine(item)) }
            case .itemWithoutMedia(let title):
                guard verbosity == .verbose, lines else { return }
                permanent(
                    "left out: item \(title.isEmpty ? "(untitled)" : "\"" + SyncFormatter.oneLine(title) + "\"") "
                        + "has nothing to download")
            case .keptWithout(let episode, let missing):
                guard verbosity == .verbose, lines else { return }
                permanent(SyncFormatter.kept(episode, missing: missing, option: FilterLines.option))
            case .preferred(let episode, let why):
                // Always when no preference matched (the enclosure is archived): the user asked for another file.
                guard lines, verbosity == .verbose || why.preference == nil else { return }
                permanent(SyncFormatter.preferredLine(episode, why))
            case .skipped(let episode, let file):
                guard verbosity == .verbose, lines else { return }
                permanent("skipped \(SyncFormatter.oneLine(episode.title ?? episode.url)): already archived as \(file)")
            case .started(let episode, let position, let count):
                total = count
                downloads[position] = Download(title: SyncFormatter.oneLine(episode.title ?? episode.url))
                redraw()
            case .progress(let position, let received, let expected):
                guard live, var download = downloads[position] else { return }
                let time = now()
                if download.first == nil { download.first = (received, time) }
                download.received = received
                download.expected = expected
                downloads[position] = download
                if time.timeIntervalSince(lastDraw) >= Self.redrawInterval { redraw(at: time) }
            case .finished(let position):
                downloads[position] = nil
                redraw()
            case .archived(_, let file, let bytes):
                done += 1
                guard lines else { return }
                let word = Printed.styled("archived", "32", on: terminal.colorOutput)
                permanent(word + " \(SyncFormatter.relative(file, to: root)) (\(SyncFormatter.size(bytes)))")
            case .failed(let episode, let failure):
                done += 1
                error(SyncFormatter.failureLine(episode, failure))
            case .hookFailed(let problem):
                error(SyncFormatter.hookLine(problem))
            case .hookSaid(let episode, let file, let output):
                // On standard error, as a failing hook's output: a `--json` report stays whole.
                guard verbosity == .verbose else { return }
                error(SyncFormatter.hookSaidLine(episode: episode, file: file, output: output))
            case .gone(let episode, let failure, let since):
                done += 1
                error(SyncFormatter.goneLine(episode, failure, since: since))
            case .artwork(let file):
                guard lines else { return }
                permanent("saved artwork \(SyncFormatter.relative(file, to: root))")
            case .artworkFailed(let url, let failure, let again):
                error(
                    "artwork \(url): \(failure.cause); tried again "
                        + (again == .nextRun ? "next run" : "when the feed changes"))
            case .pagesRead(let count, let elsewhere):
                guard verbosity == .verbose, lines else { return }
                permanent("read \(count) page\(count == 1 ? "" : "s") of the feed")
                if let elsewhere { permanent("not followed: page <\(elsewhere)> is on another host than the feed") }
            case .pageFailed(let problem):
                error(
                    "page <\(problem.url)> of the feed could not be read: \(SyncFormatter.oneLine(problem.reason)); "
                        + "its episodes are looked for again next run")
            case .pageRefused(let url):
                error("page link <\(url)> of the feed is not an http(s) URL: not followed (said once)")
            case .pageCycle(let url):
                guard lines else { return }
                permanent("page <\(url)> of the feed is linked twice; the walk of its pages stopped there")
            case .moved(let from, let to):
                guard lines else { return }
                permanent("moved to <\(to)> (was <\(from)>); the subscription follows it")
            case .defaultLoginStays(let home, let host):
                guard lines else { return }
                permanent(SyncFormatter.defaultLoginStays(home: home, host: host))
            case .readdressed(let from, let to):
                guard lines else { return }
                permanent(SyncFormatter.readdressed(from: from, to: to))
            case .keptBoth(let feed, let folder, let apart, let apartFolder):
                guard lines else { return }
                permanent(SyncFormatter.keptBoth(feed: feed, folder: folder, apart: apart, apartFolder: apartFolder))
            case .companion(let file):
                guard lines else { return }
                permanent("kept \(SyncFormatter.relative(file, to: root))")
            case .companionFailed(let episode, let url, let failure):
                guard lines else { return }
                // The line says what happens next itself: the failure only what happened.
                permanent(
                    "not kept: <\(url)> of \(SyncFormatter.oneLine(episode.title ?? episode.url)): "
                        + "\(failure.cause); tried again next run")
            case .waitingToRetry(let episode, let seconds, let failure):
                guard lines else { return }
                permanent(
                    "retrying \(SyncFormatter.oneLine(episode.title ?? episode.url)) in \(Int(seconds.rounded(.up))) s: "
                        + "\(SyncFormatter.oneLine(failure.reason))")
            case .companionGivenUp(let episode, let url, let reason):
                guard lines else { return }
                permanent(
                    "given up: <\(url)> of \(SyncFormatter.oneLine(episode.title ?? episode.url)): "
                        + "\(SyncFormatter.oneLine(reason)); not tried again (--retry-gone tries it)")
            case .siteName(let move):
                if move.failure != nil { return error(SyncFormatter.siteNameLine(move, root: root)) }
                guard lines else { return }
                permanent(SyncFormatter.siteNameLine(move, root: root))
            case .historyFailed(let reason):
                error("the feed's history could not be written: \(SyncFormatter.oneLine(reason))")
            case .integrityKept(let episode, let expected, let received):
                error(
                    "kept \(SyncFormatter.oneLine(episode.title ?? episode.url)) although it does not match the "
                        + "publisher's hash (expected \(expected), received \(received)) on the third run "
                        + "in a row: recorded as not matching (said once)")
            case .sourcesSkipped(let episode, let sources):
                guard lines else { return }
                permanent(
                    "not fetched: \(sources.map { "<\($0)>" }.joined(separator: ", ")) of "
                        + "\(SyncFormatter.oneLine(episode.title ?? episode.url)): only http and https sources of the file "
                        + "itself are fetched (not a torrent or a playlist)"
                )
            case .passedOver(let episode, let url, let kind):
                guard lines else { return }
                permanent(
                    "passed over <\(url)> of \(SyncFormatter.oneLine(episode.title ?? episode.url)): it is "
                        + kind.description)
            case .integrityUnreadable(let episode, let value):
                error(
                    "not checked: \(SyncFormatter.oneLine(episode.title ?? episode.url)): the publisher's hash "
                        + "'\(SyncFormatter.oneLine(String(value.prefix(120))))' names no sha256, sha384 or sha512 "
                        + "digest podarchive can read; archived without it")
            case .moveRefused(let url, let reason):
                guard lines else { return }
                permanent(
                    "the feed says it moved to <\(url)>, not followed: \(SyncFormatter.oneLine(reason)); "
                        + "still syncing the old URL")
            }
        }
    }

    /// A feed's closing line (or nothing with `--quiet`/`--json`); the live area is gone after it.
    func finish(summary: String) {
        lock.withLock {
            downloads.removeAll()
            total = 0
            if lines { permanent(summary) } else { clear() }
        }
    }

    /// The sync stopped: the live area goes, so the error that follows stands alone.
    func abandon() {
        lock.withLock {
            downloads.removeAll()
            clear()
        }
    }

    // MARK: - Drawing (lock held)

    private func error(_ message: String) {
        clear()
        errors.write(Printed.styled("podarchive:", "31", on: terminal.colorErrors) + " \(message)\n")
        redraw()
    }

    private func permanent(_ line: String) { permanent(Printed(line)) }

    private func permanent(_ line: Printed) {
        clear()
        output.write(line + "\n")
        redraw()
    }

    /// Removes the live area: up to its first line, then erase to the end of the screen.
    private func clear() {
        guard drawnLines > 0 else { return }
        output.write(Printed.control("\r\u{1B}[\(drawnLines)A\u{1B}[J"))
        drawnLines = 0
    }

    private func redraw(at time: Date? = nil) {
        guard live else { return }
        let time = time ?? now()
        let rows = liveLines(at: time, width: terminal.columns())
        var text = Printed(parts: drawnLines > 0 ? [.control("\r\u{1B}[\(drawnLines)A\u{1B}[J")] : [])
        for row in rows { text = text + row + "\n" }
        if !text.parts.isEmpty { output.write(text) }
        drawnLines = rows.count
        lastDraw = time
    }

    /// The live area: a line per running download, then the feed's "N of M". Every line fits the width, since a
    /// wrapped line would break the count of lines to move up.
    private func liveLines(at time: Date, width: Int) -> [Printed] {
        guard !downloads.isEmpty else { return [] }
        let usable = max(20, width - 1)
        var rows: [Printed] = []
        var rate: Double = 0
        for position in downloads.keys.sorted() {
            let download = downloads[position]!
            let first = download.first ?? (download.received, time)
            let elapsed = time.timeIntervalSince(first.time)
            let speed = elapsed >= 0.5 ? Double(download.received - first.bytes) / elapsed : nil
            rate += speed ?? 0
            // Fixed-width fields, so the columns stand still while the numbers change.
            var numbers = Self.pad(SyncFormatter.size(download.received), 8)
            if let expected = download.expected, expected > 0 {
                let percent = min(100, Int(Double(download.received) * 100 / Double(expected)))
                numbers += " / " + Self.pad(SyncFormatter.size(expected), 8) + Self.pad("\(percent)%", 5)
            } else {
                numbers += String(repeating: " ", count: 16)
            }
            var timing = ""
            if let speed, speed > 0 {
                timing = Self.pad(SyncFormatter.size(Int64(speed)) + "/s", 11)
                if let expected = download.expected, expected > download.received {
                    timing += Self.pad(Self.duration(Double(expected - download.received) / speed), 7) + " left"
                }
            }
            // A narrow window cuts the title first, then drops the timing; the numbers go last.
            rows.append(
                Printed(Self.fit("  " + InertText.of(download.title), [numbers + timing, numbers], width: usable)))
        }
        var status = "\(InertText.of(feedTitle)): \(done) of \(total)"
        if rate > 0 { status += ", \(SyncFormatter.size(Int64(rate)))/s" }
        rows.append(Printed.styled(Self.cut(status, to: usable), "1", on: terminal.colorOutput))
        return rows
    }

    /// `left` cut to leave room for the first of `rights` (richest first) that leaves it at least a few columns,
    /// after two spaces, the whole within `width` columns. When none does, the poorest `right` alone, cut.
    static func fit(_ left: String, _ rights: [String], width: Int) -> String {
        let shortestTitle = min(columns(left), 8)
        for right in rights {
            let room = width - columns(right) - 2
            guard room >= shortestTitle else { continue }
            let title = cut(left, to: room)
            return title + String(repeating: " ", count: room - columns(title) + 2) + right
        }
        return cut(rights.last.map { $0.trimmingCharacters(in: .whitespaces) } ?? left, to: width)
    }

    /// At most `width` columns, with "…" where it was cut.
    static func cut(_ text: String, to width: Int) -> String {
        guard columns(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = columns(character)
            if used + size > width - 1 { break }
            result.append(character)
            used += size
        }
        return result + "…"
    }

    /// The columns a terminal gives `text`: two for wide East Asian characters and emoji, one for the rest.
    static func columns(_ text: String) -> Int {
        text.reduce(0) { $0 + columns($1) }
    }

    static func columns(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first, scalar.value >= 0x1100 else { return 1 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` right-aligned in `width` columns.
    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// "0:07", "12:30", "1:02:03".
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "--:--" }
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let tail = String(format: "%02d", rest)
        return hours > 0 ? "\(hours):" + String(format: "%02d", minutes) + ":" + tail : "\(minutes):" + tail
    }
}
