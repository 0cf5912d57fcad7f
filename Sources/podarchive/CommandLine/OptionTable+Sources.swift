// The options that say where feeds come from and where the archive is, and what a few commands print.

extension OptionTable {
    static let sources: [OptionDescriptor] = [
        .value(
            "--opml", "FILE", \.opmlFile, .given(.text), commands: [.sync], summary: "OPML subscription list",
            help: "also sync every feed of an OPML subscription list (as podcast apps export)", completion: .file),
        .flag(
            "--opml", \.opmlOutput, commands: [.feeds], summary: "print OPML",
            help: "print the subscriptions as OPML 2.0, which any podcast app (and sync --opml) reads",
            excludes: ["--json"]),
        .flag(
            "--include-secrets", \.includeSecrets, commands: [.feeds], summary: "keep tokens in the OPML",
            help: "with --opml: write each feed URL whole, its login and token included, to move subscriptions to "
                + "another app (without it, secret values are replaced by REDACTED); keep that file private"),
        .flag(
            "--move", \.move, commands: [.credentials], summary: "move secrets out of the archive",
            help: "write every login, header and feed token an earlier podarchive kept inside the archive to the "
                + "configuration folder, then delete them from the archive and redact its sidecars, history and "
                + "download records"),
        .value(
            "--feeds", "FILE", \.feedList, .given(.text), commands: [.sync], summary: "file of feeds, one a line",
            help: "also sync every feed of FILE: one URL or path a line, # starts a comment; relative paths in it "
                + "start at FILE's folder", completion: .file),
        .value(
            "--to", "DIR", \.archiveDirectory, .given(.text),
            commands: [.sync, .verify, .add, .remove, .feeds, .list, .site, .credentials], summary: "archive root",
            help: "archive root (default: $PODARCHIVE_DIR, else ~/Podcasts)",
            helpFor: [
                .verify: "the archive root, when DIR is not given", .site: "the archive root, when DIR is not given",
            ],
            completion: .directory),
    ]
}
