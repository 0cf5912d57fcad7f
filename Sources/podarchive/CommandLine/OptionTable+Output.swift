// The options that say what a command prints and which of its kinds of work it does.

extension OptionTable {
    static let output: [OptionDescriptor] = [
        .flag(
            "--dry-run", short: "n", \.dryRun, commands: [.sync], summary: "only say what would be downloaded",
            help: "only say what would be downloaded, and as which file (try --name this way); nothing is "
                + "created, locked or written; with --json, the plan as JSON"),
        .flag(
            "--quiet", short: "q", \.quiet, commands: [.sync], summary: "print only errors",
            help: "print only errors (on standard error); the exit code says the rest", excludes: ["--verbose"]),
        .flag(
            "--verbose", short: "v", \.verbose, commands: [.sync], summary: "also say what was skipped",
            help: "also say what the feed lists and which episodes were skipped, and why", excludes: ["--quiet"]),
        .flag(
            "--json", \.json, commands: [.sync, .list, .feeds, .verify], summary: "print JSON",
            help: "print one JSON summary instead of lines: {\"feeds\": [{\"feed\", \"title\", \"folder\", "
                + "\"status\", \"exit\", \"error\", \"feedUnchanged\", \"archived\", \"skipped\", \"bytes\", "
                + "\"seconds\", \"failed\": [{\"title\", \"url\", \"reason\"}], \"gone\": [{\"title\", \"url\", "
                + "\"reason\", \"since\"}], \"artwork\", \"artworkError\", \"pages\", \"pageError\", \"movedTo\", "
                + "\"skippedItems\": [{\"title\", \"reason\"}]}]}",
            helpFor: [
                .verify: "print one JSON object instead of lines: {\"feeds\", \"files\", \"remaining\", \"problems\": "
                    + "[{\"folder\", \"file\", \"kind\" (missing, resized, changed), \"size\", \"recorded\", \"state\" "
                    + "(damaged, repaired, repair-failed, unrecoverable), \"reason\", \"replacedBy\"}], \"gone\": "
                    + "[{\"folder\", \"title\", \"url\", \"reason\", \"since\"}], \"damagedHistory\": [{\"folder\", "
                    + "\"file\", \"reason\"}]}; with --upstream: {\"checked\", \"online\", \"gone\", \"unknown\", "
                    + "\"episodes\": [{\"folder\", \"file\", \"title\", \"url\", \"state\", \"reason\"}]} (each "
                    + "episode asked about; state online, gone or unknown)",
                .feeds: "print one JSON object: {\"feeds\": [{\"title\", \"feed\", \"folder\", \"episodes\", "
                    + "\"bytes\", \"newest\", \"failing\", \"gone\", \"removedUpstream\", \"lastSync\", "
                    + "\"outcome\", \"error\", \"movedFrom\", \"moved\", \"settings\", \"credentials\" (whether "
                    + "any are saved; never what they are)}]}",
                .list: "print one JSON object: {\"title\", \"episodes\": [{\"title\", \"guid\", \"url\", \"type\", "
                    + "\"length\", \"published\"}]}, dates as YYYY-MM-DDTHH:MM:SSZ, absent values as null",
            ]),
        .flag(
            "--upstream", \.upstream, commands: [.verify], summary: "which episodes exist only here",
            help: "instead of rechecking files, ask each archived episode's origin whether it still exists (HEAD, "
                + "or the first byte where HEAD is refused; --jobs at once, at most 4 to one host) and list those "
                + "that exist only in this archive now (404, 410, host gone); no file is touched",
            excludes: ["--repair"]),
        .flag(
            "--archived", \.archived, commands: [.list], summary: "what the archive holds of a show",
            help: "list what the archive holds of the show instead (its folder, or a subscription's feed URL or "
                + "folder name in --to DIR): every archived episode, those the feed no longer lists marked as "
                + "removed upstream; no network"),
        .flag(
            "--first-page", \.firstPage, commands: [.list], summary: "only the document itself",
            help: "only the episodes of the document itself, not of the further pages and archive documents it "
                + "links to (on the feed's own host)"),
        .flag(
            "--repair", \.repair, commands: [.verify], summary: "download damaged files again",
            help: "download those files again; a damaged file is kept until its replacement is in place"),
        .flag(
            "--retry-gone", \.retryGone, commands: [.sync], summary: "try episodes gone upstream again",
            help: "also try episodes recorded as gone upstream (404 or 410 on every run for a week and 3 runs; "
                + "they are otherwise no longer tried and no longer fail the run)"),
    ]
}
