// The options a show keeps: how its files are named, what is kept beside them, which episodes it takes.

extension OptionTable {
    static let settings: [OptionDescriptor] = [
        .value(
            "--name", "TEMPLATE", \.name, .template, commands: [.sync, .add], summary: "file name template",
            help: "name new files after TEMPLATE (default {title}): {title}, {date} (YYYY-MM-DD), {feed}, "
                + "{episode}, {season} ({episode:03} pads), {guid} (8-digit hash); '/' makes subfolders; a field "
                + "with no value drops the text around it up to the next separator; each part is made a safe "
                + "name, so no value can leave the feed folder; archived files keep their names",
            completion: .words(["{title}", "{date} {title}", "{episode:03} {title}"]), saved: .show,
            describe: { $0.name.map { "'\($0)'" } }),
        .flag(
            "--metadata", \.metadata, commands: [.sync, .add], summary: "write sidecars and the artwork",
            help: "also write <file stem>.info.json beside each file (title, description, GUID, URLs, dates, "
                + "duration, numbers, size, SHA-256) and the feed's artwork to cover.<ext> once; files archived "
                + "earlier get theirs on the next run", excludes: ["--no-metadata"], saved: .show,
            describe: { $0.metadata == true ? "" : nil }),
        .flag(
            "--no-companions", \.noCompanions, commands: [.sync, .add], summary: "no transcripts or chapters",
            help: "keep no transcripts, chapters or episode artwork beside the episodes (a saved setting; "
                + "--companions turns them back on)", excludes: ["--companions"], saved: .show,
            describe: { $0.companions == false ? "" : nil }),
        .flag(
            "--companions", \.companions, commands: [.sync, .add], summary: "transcripts and chapters (default)",
            help: "keep each episode's transcripts and chapters beside it, and with --metadata its artwork "
                + "(the default; turns a saved --no-companions off)", excludes: ["--no-companions"], saved: .show,
            describe: { $0.companions == true ? "" : nil }),
        .flag(
            "--no-metadata", \.noMetadata, commands: [.sync, .add], summary: "no sidecars or artwork",
            help: "write no sidecars or artwork (turns a saved --metadata off)", excludes: ["--metadata"],
            saved: .show, describe: { $0.metadata == false ? "" : nil }),
        .value(
            "--limit", "N", \.limit, .episodes, commands: [.sync, .list, .add], summary: "only the newest N episodes",
            help: "only the newest N episodes", saved: .show, describe: { $0.limit.map { "\($0)" } }),
        .value(
            "--since", "DATE", \.since, .date, commands: [.sync, .list, .add],
            summary: "only episodes published since DATE",
            help: "only episodes published on or after DATE (2025-01-31, or RFC 3339)", saved: .show,
            describe: { $0.since }),
        .value(
            "--match", "REGEX", \.match, .given(.pattern), commands: [.sync, .list, .add],
            summary: "only titles matching REGEX",
            help: "only episodes whose title matches REGEX (prefix (?i) to ignore case)", saved: .show,
            describe: { $0.match.map { "'\($0)'" } }),
        .flag(
            "--all", \.all, commands: [.sync, .add], summary: "every episode: no filter",
            help: "every episode the feed lists: turns a saved --limit, --since and --match off (saved so with the "
                + "feeds named; for that run only with podarchive sync alone)",
            excludes: ["--limit", "--since", "--match"]),
    ]
}
