// Every option of every command, declared once. The parser, `podarchive help <command>`, the usage lines and the
// shell completions (`podarchive completions bash|zsh|fish`) are all made from this table, so none of them can
// offer an option another refuses. The man page is written by hand; a test keeps its options in step.

/// How a shell should complete an option's value.
enum ValueCompletion: Equatable, Sendable {
    case none
    case file
    case directory
    /// A show of the archive root: one of its folders, wherever the shell is.
    case shows
    /// One of these words (suggestions; any value is accepted where the parser allows).
    case words([String])
}

/// One option: its name, the placeholder of its value (nil for a flag), the commands that take it, a few words for
/// completion menus, and the text `help` prints (per command where it reads differently).
struct OptionDescriptor: Equatable, Sendable {
    let name: String
    let value: String?
    let commands: [String]
    let summary: String
    let help: String
    var helpFor: [String: String] = [:]
    var completion = ValueCompletion.none
    /// Options that cannot be given with this one.
    var excludes: [String] = []

    var takesValue: Bool { value != nil }

    func help(for command: String) -> String { helpFor[command] ?? help }
}

enum OptionTable {
    /// The commands that take options.
    static let commands = ["sync", "list", "verify", "add", "remove", "feeds", "site", "credentials"]

    static let all: [OptionDescriptor] = [
        OptionDescriptor(
            name: "--opml", value: "FILE", commands: ["sync"], summary: "OPML subscription list",
            help: "also sync every feed of an OPML subscription list (as podcast apps export)", completion: .file),
        OptionDescriptor(
            name: "--opml", value: nil, commands: ["feeds"], summary: "print OPML",
            help: "print the subscriptions as OPML 2.0, which any podcast app (and sync --opml) reads",
            excludes: ["--json"]),
        OptionDescriptor(
            name: "--include-secrets", value: nil, commands: ["feeds"], summary: "keep tokens in the OPML",
            help: "with --opml: write each feed URL whole, its login and token included, to move subscriptions to "
                + "another app (without it, secret values are replaced by REDACTED); keep that file private"),
        OptionDescriptor(
            name: "--move", value: nil, commands: ["credentials"], summary: "move secrets out of the archive",
            help: "write every login, header and feed token an earlier podarchive kept inside the archive to the "
                + "configuration folder, then delete them from the archive and redact its sidecars, history and "
                + "download records"),
        OptionDescriptor(
            name: "--feeds", value: "FILE", commands: ["sync"], summary: "file of feeds, one a line",
            help: "also sync every feed of FILE: one URL or path a line, # starts a comment; relative paths in it "
                + "start at FILE's folder", completion: .file),
        OptionDescriptor(
            name: "--to", value: "DIR",
            commands: ["sync", "verify", "add", "remove", "feeds", "list", "site", "credentials"],
            summary: "archive root",
            help: "archive root (default: $PODARCHIVE_DIR, else ~/Podcasts)",
            helpFor: [
                "verify": "the archive root, when DIR is not given", "site": "the archive root, when DIR is not given",
            ],
            completion: .directory),
        OptionDescriptor(
            name: "--name", value: "TEMPLATE", commands: ["sync", "add"], summary: "file name template",
            help: "name new files after TEMPLATE (default {title}): {title}, {date} (YYYY-MM-DD), {feed}, "
                + "{episode}, {season} ({episode:03} pads), {guid} (8-digit hash); '/' makes subfolders; a field "
                + "with no value drops the text around it up to the next separator; each part is made a safe "
                + "name, so no value can leave the feed folder; archived files keep their names",
            completion: .words(["{title}", "{date} {title}", "{episode:03} {title}"])),
        OptionDescriptor(
            name: "--metadata", value: nil, commands: ["sync", "add"], summary: "write sidecars and the artwork",
            help: "also write <file stem>.info.json beside each file (title, description, GUID, URLs, dates, "
                + "duration, numbers, size, SHA-256) and the feed's artwork to cover.<ext> once; files archived "
                + "earlier get theirs on the next run", excludes: ["--no-metadata"]),
        OptionDescriptor(
            name: "--no-companions", value: nil, commands: ["sync", "add"], summary: "no transcripts or chapters",
            help: "keep no transcripts, chapters or episode artwork beside the episodes (a saved setting; "
                + "--companions turns them back on)", excludes: ["--companions"]),
        OptionDescriptor(
            name: "--companions", value: nil, commands: ["sync", "add"], summary: "transcripts and chapters (default)",
            help: "keep each episode's transcripts and chapters beside it, and with --metadata its artwork "
                + "(the default; turns a saved --no-companions off)", excludes: ["--no-companions"]),
        OptionDescriptor(
            name: "--no-metadata", value: nil, commands: ["sync", "add"], summary: "no sidecars or artwork",
            help: "write no sidecars or artwork (turns a saved --metadata off)", excludes: ["--metadata"]),
        OptionDescriptor(
            name: "--limit", value: "N", commands: ["sync", "list", "add"], summary: "only the newest N episodes",
            help: "only the newest N episodes"),
        OptionDescriptor(
            name: "--since", value: "DATE", commands: ["sync", "list", "add"],
            summary: "only episodes published since DATE",
            help: "only episodes published on or after DATE (2025-01-31, or RFC 3339)"),
        OptionDescriptor(
            name: "--match", value: "REGEX", commands: ["sync", "list", "add"], summary: "only titles matching REGEX",
            help: "only episodes whose title matches REGEX (prefix (?i) to ignore case)"),
        OptionDescriptor(
            name: "--all", value: nil, commands: ["sync", "add"], summary: "every episode: no filter",
            help: "every episode the feed lists: turns a saved --limit, --since and --match off (saved so with the "
                + "feeds named; for that run only with podarchive sync alone)",
            excludes: ["--limit", "--since", "--match"]),
        OptionDescriptor(
            name: "--dry-run", value: nil, commands: ["sync"], summary: "only say what would be downloaded",
            help: "only say what would be downloaded, and as which file (try --name this way); nothing is "
                + "created, locked or written; with --json, the plan as JSON"),
        OptionDescriptor(
            name: "--quiet", value: nil, commands: ["sync"], summary: "print only errors",
            help: "print only errors (on standard error); the exit code says the rest", excludes: ["--verbose"]),
        OptionDescriptor(
            name: "--verbose", value: nil, commands: ["sync"], summary: "also say what was skipped",
            help: "also say what the feed lists and which episodes were skipped, and why", excludes: ["--quiet"]),
        OptionDescriptor(
            name: "--json", value: nil, commands: ["sync", "list", "feeds", "verify"], summary: "print JSON",
            help: "print one JSON summary instead of lines: {\"feeds\": [{\"feed\", \"title\", \"folder\", "
                + "\"status\", \"exit\", \"error\", \"feedUnchanged\", \"archived\", \"skipped\", \"bytes\", "
                + "\"seconds\", \"failed\": [{\"title\", \"url\", \"reason\"}], \"gone\": [{\"title\", \"url\", "
                + "\"reason\", \"since\"}], \"artwork\", \"artworkError\", \"pages\", \"pageError\", \"movedTo\", "
                + "\"skippedItems\": [{\"title\", \"reason\"}]}]}",
            helpFor: [
                "verify": "print one JSON object instead of lines: {\"feeds\", \"files\", \"remaining\", \"problems\": "
                    + "[{\"folder\", \"file\", \"kind\" (missing, resized, changed), \"size\", \"recorded\", \"state\" "
                    + "(damaged, repaired, repair-failed, unrecoverable), \"reason\", \"replacedBy\"}], \"gone\": "
                    + "[{\"folder\", \"title\", \"url\", \"reason\", \"since\"}], \"damagedHistory\": [{\"folder\", "
                    + "\"file\", \"reason\"}]}; with --upstream: {\"checked\", \"online\", \"gone\", \"unknown\", "
                    + "\"episodes\": [{\"folder\", \"file\", \"title\", \"url\", \"state\", \"reason\"}]} (each "
                    + "episode asked about; state online, gone or unknown)",
                "feeds": "print one JSON object: {\"feeds\": [{\"title\", \"feed\", \"folder\", \"episodes\", "
                    + "\"bytes\", \"newest\", \"failing\", \"gone\", \"removedUpstream\", \"lastSync\", "
                    + "\"outcome\", \"error\", \"movedFrom\", \"moved\", \"settings\", \"credentials\" (whether "
                    + "any are saved; never what they are)}]}",
                "list": "print one JSON object: {\"title\", \"episodes\": [{\"title\", \"guid\", \"url\", \"type\", "
                    + "\"length\", \"published\"}]}, dates as YYYY-MM-DDTHH:MM:SSZ, absent values as null",
            ]),
        OptionDescriptor(
            name: "--upstream", value: nil, commands: ["verify"], summary: "which episodes exist only here",
            help: "instead of rechecking files, ask each archived episode's origin whether it still exists (HEAD, "
                + "or the first byte where HEAD is refused; --jobs at once, at most 4 to one host) and list those "
                + "that exist only in this archive now (404, 410, host gone); no file is touched",
            excludes: ["--repair"]),
        OptionDescriptor(
            name: "--archived", value: nil, commands: ["list"], summary: "what the archive holds of a show",
            help: "list what the archive holds of the show instead (its folder, or a subscription's feed URL or "
                + "folder name in --to DIR): every archived episode, those the feed no longer lists marked as "
                + "removed upstream; no network"),
        OptionDescriptor(
            name: "--first-page", value: nil, commands: ["list"], summary: "only the document itself",
            help: "only the episodes of the document itself, not of the further pages and archive documents it "
                + "links to (on the feed's own host)"),
        OptionDescriptor(
            name: "--repair", value: nil, commands: ["verify"], summary: "download damaged files again",
            help: "download those files again; a damaged file is kept until its replacement is in place"),
        OptionDescriptor(
            name: "--retry-gone", value: nil, commands: ["sync"], summary: "try episodes gone upstream again",
            help: "also try episodes recorded as gone upstream (404 or 410 on every run for a week and 3 runs; "
                + "they are otherwise no longer tried and no longer fail the run)"),
        OptionDescriptor(
            name: "--max-feed-size", value: "SIZE", commands: ["sync", "list"], summary: "largest feed read",
            help: "the largest feed document read, once decompressed (default 256M; K, M, G); a larger one "
                + "stops the fetch as soon as it passes the size (exit 3)"),
        OptionDescriptor(
            name: "--jobs", value: "N", commands: ["sync", "verify"], summary: "episodes downloading at once",
            help: "download N episodes at once in all, across shows (default 4); at most 4 requests of any kind "
                + "(feeds included) go to one host at once; output stays in feed order"),
        OptionDescriptor(
            name: "--feed-jobs", value: "N", commands: ["sync"], summary: "shows syncing at once",
            help: "sync N shows at once (default 8), their feeds at most 4 at once to one host; each show's lines "
                + "are printed together, in subscription order"),
        OptionDescriptor(
            name: "--shard", value: "K/N", commands: ["sync"], summary: "sync only shard K of N shows",
            help: "sync only the shows in shard K of N (K from 0, as $JOB_COMPLETION_INDEX): N machines sharing "
                + "one archive each take theirs, by a stable hash of the feed URL, with no coordinator"),
        OptionDescriptor(
            name: "--retries", value: "N", commands: ["sync", "verify"], summary: "tries after failures that may pass",
            help: "tries again after a connection failure, timeout, 5xx, 408 or 429, waiting 1 s, 2 s, 4 s... "
                + "with jitter and honouring Retry-After (default 3)"),
        OptionDescriptor(
            name: "--timeout", value: "SECONDS", commands: ["sync", "verify", "add", "list"],
            summary: "seconds each episode or feed may take",
            help: "each episode, and each feed, must be complete within this time, all tries included (default "
                + "3600); what arrived of an episode is kept and resumed on the next run",
            helpFor: [
                "add": "each feed must be complete within this time (default 3600, as for sync); a feed that is "
                    + "not is not subscribed (exit 3)",
                "list": "the feed, and each page it links to, must be complete within this time (default 3600, as "
                    + "for sync; exit 3)",
                "verify": "each file downloaded again must be complete within this time, all tries included "
                    + "(default 3600, as for sync); with --upstream, each episode's answer within this time or "
                    + "60 s, whichever is less (no answer: unknown)",
            ]),
        OptionDescriptor(
            name: "--wait", value: "SECONDS", commands: ["sync", "verify"], summary: "seconds to wait for another sync",
            help: "if another podarchive is syncing the same feed, wait this long for it (default 0: exit 4 at once)"),
        OptionDescriptor(
            name: "--header", value: "HEADER", commands: ["sync", "add", "list"],
            summary: "a header for the feed's host (repeatable)",
            help:
                "send HEADER, 'Name: value' (a cookie, Authorization: Bearer TOKEN, a Referer), with every request to the "
                + "feed's own scheme, host and port, never elsewhere, not even after a redirect; repeatable; saved "
                + "with the show (readable by you only) and replacing the headers saved before",
            helpFor: ["list": "send this header with every request to the feed's own scheme, host and port"]),
        OptionDescriptor(
            name: "--netrc-file", value: "FILE", commands: ["sync", "add", "list", "verify"],
            summary: "logins by host from FILE",
            help: "read logins from FILE (the .netrc format of curl and wget: machine HOST login USER password PW) "
                + "instead of ~/.netrc, which is read when it exists; each login goes to the host it names; a saved "
                + "setting (the path, never the passwords)", completion: .file),
        OptionDescriptor(
            name: "--user-agent", value: "STRING", commands: ["sync", "add", "list", "verify"],
            summary: "the User-Agent to send",
            help: "send STRING as the User-Agent (default podarchive/VERSION) for hosts that refuse unknown "
                + "clients; a saved setting"),
        OptionDescriptor(
            name: "--limit-rate", value: "RATE", commands: ["sync", "verify"], summary: "cap the bandwidth",
            help: "read at most RATE bytes a second in all, across shows and downloads (500K, 2M; at least 1K), "
                + "as wget and curl do: for a nightly run on a shared connection"),
        OptionDescriptor(
            name: "--base-url", value: "URL", commands: ["site"], summary: "the archive's public URL",
            help: "the URL the archive root is served at (http://nas.local/podcasts/): each feed.xml then points at "
                + "its files with absolute URLs, as podcast apps on other machines need; saved for the syncs that "
                + "refresh the site"),
        OptionDescriptor(
            name: "--out", value: "DIR", commands: ["site"], summary: "publish into a folder of its own",
            help: "write the pages and feeds into DIR instead of the archive root, with every archived file they "
                + "name linked into it (hard links, else symbolic links, else copies), so a server serves DIR and "
                + "never sees the archive's own .podarchive folders; saved for the syncs that refresh the site",
            completion: .directory),
        OptionDescriptor(
            name: "--site", value: nil, commands: ["sync"], summary: "refresh the web pages after each sync",
            help: "after syncing, write the archive's web pages and podcast feeds again (as podarchive site does); "
                + "a setting of the archive, saved: every later sync does it too (--no-site stops)",
            excludes: ["--no-site"]),
        OptionDescriptor(
            name: "--no-site", value: nil, commands: ["sync"], summary: "stop refreshing the web pages",
            help: "turn a saved --site off", excludes: ["--site"]),
        OptionDescriptor(
            name: "--help", value: nil,
            commands: ["sync", "list", "verify", "add", "remove", "feeds", "site", "credentials"],
            summary: "show help",
            help: "show this help"),
    ]

    /// The options `command` takes, in table order.
    static func options(for command: String) -> [OptionDescriptor] {
        all.filter { $0.commands.contains(command) }
    }

    /// The parser's view: each option `command` accepts, and whether it takes a value.
    static func accepted(by command: String) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: options(for: command).map { ($0.name, $0.takesValue) })
    }

    /// The usage line of `command`, wrapped: `usage: podarchive sync <feed>... [--opml FILE] ...`.
    static func usage(for command: String, operands: String) -> String {
        let head = "usage: podarchive \(command) \(operands)"
        let words = options(for: command).filter { $0.name != "--help" }.map { option in
            "[\(option.name)\(option.value.map { " " + $0 } ?? "")]"
        }
        return wrap(words, firstLine: head, indent: String(repeating: " ", count: head.count + 1), width: 108)
    }

    /// The `Options:` block of `podarchive help <command>`: name and value in a column, help wrapped beside it.
    static func helpBlock(for command: String) -> String {
        options(for: command).map { option in
            let name = option.name == "--help" ? "-h, --help" : option.name
            let left = "  \(name)\(option.value.map { " " + $0 } ?? "")"
            let words = option.help(for: command).split(separator: " ").map(String.init)
            let column = 21
            let indent = String(repeating: " ", count: column)
            // A name too long for the column gets its help on the lines below.
            let first = left.count < column - 1 ? left.padding(toLength: column, withPad: " ", startingAt: 0) : indent
            let text = wrap(words, firstLine: first, indent: indent, width: 108, join: "")
            return left.count < column - 1 ? text : left + "\n" + text
        }.joined(separator: "\n")
    }

    private static func wrap(
        _ words: [String], firstLine: String, indent: String, width: Int, join: String = " "
    ) -> String {
        var lines: [String] = []
        var line = firstLine
        var lineHasWord = false
        for word in words {
            let separator = lineHasWord || (join == " " && !line.hasSuffix(" ")) ? " " : ""
            if lineHasWord, line.count + separator.count + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += separator + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
