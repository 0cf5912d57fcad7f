// `podarchive verify [DIR] [--repair]`: every archived file against its recorded size and SHA-256.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct VerifyCommand: CommandType {
    static let info = CommandInfo(
        name: "verify", about: "recheck archived files against their recorded size and SHA-256",
        operands: "[DIR]", completion: .directory,
        discussion: """
            Rechecks every archived file in <DIR> (a feed folder, or an archive root holding feed folders; default the
            archive root: `$PODARCHIVE_DIR`, else `~/Podcasts`) against the size and SHA-256 its index recorded, and
            lists each file that is missing, resized or changed. It also names damaged records of a show's index journal
            (the next sync finds their episodes again) and two index entries that name one file or one GUID; `--repair`
            touches neither of those entries' files and exits 5. `--repair` ends with each show's journal folded into
            its `index.json`.

            An archive it may read but not write (a read-only mount) is checked with each show's lock taken on its lock
            file as it is, or, with no lock file, without the lock, said once on standard error; `--repair` there stops
            with exit 5, naming the lock file.
            """,
        exitCodes: [.success, .episodesFailed, .usage, .feedFailed, .locked, .archiveFailed, .interrupted],
        exitMeanings: [
            .success: "every file intact", .episodesFailed: "problems remain",
            .locked: "a sync holds a show (see --wait)",
        ], severalFeeds: true)

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.directory),
        OutputOptions.json.at(\.json),
        OutputOptions.upstream.at(\.upstream),
        OutputOptions.repair.at(\.repair),
        TransferOptions.jobs.at(\.transfer.jobs),
        TransferOptions.retries.at(\.transfer.retries),
        TransferOptions.timeout.at(\.transfer.timeout),
        TransferOptions.wait.at(\.transfer.wait),
        AccessOptions.netrcFile.setting(),
        AccessOptions.userAgent.setting(),
        AccessOptions.limitRate.at(\.transfer.limitRate),
    ]

    struct Arguments: CarriesShowSettings {
        var directory: String? = nil
        var repair = false
        var transfer = TransferSettings()
        /// Ask the episodes' origins instead (`--upstream`), and print JSON (`--json`, with `--upstream`).
        var upstream = false
        var json = false
        /// `--user-agent`, `--netrc-file`.
        var given = ShowSettings()
        /// The access settings the configuration file gives, under those saved with each show.
        var configured = ShowSettings()
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        if let folder = try Operands.atMostOne(operands, "folder", command: info.name) { arguments.directory = folder }
    }

    let context: CommandContext
    let arguments: Arguments

    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.directory) else { return .usage }
        var request = VerifyRequest(
            directory: root, settings: context.settings(given: arguments.given, configured: arguments.configured))
        request.repair = arguments.repair
        request.transfer = arguments.transfer
        if arguments.upstream { return await verifyUpstream(request) }
        // With --json, every finding goes into one document at the end; errors still go to standard error.
        let findings = arguments.json ? VerifyFindings() : nil
        let unlockedSaid = Locked(false)
        let outcome = await context.configuredArchiver().commands.verify(request) { event in
            findings?.record(event)
            let say: (String) -> Void = { line in if findings == nil { context.output.write(line + "\n") } }
            switch event {
            case .problem(let problem):
                say(VerifyFormatter.line(problem, root: root))
            case .repaired(let problem):
                say("repaired \(VerifyFormatter.path(problem, root: root))")
            case .upstreamChanged(let problem, let version):
                context.errors.write(
                    "podarchive: cannot repair \(VerifyFormatter.path(problem, root: root)): the publisher's file "
                        + "has changed since it was archived; the damaged file stays as the record, the new one "
                        + "is kept beside it as \(version)\n")
            case .historyDamaged(let folder, let file, let reason):
                say(VerifyFormatter.historyLine(folder: folder, file: file, reason: reason, root: root))
            case .journalDamaged(let damage):
                say(IndexDamageFormatter.verifyLine(damage, root: root))
            case .clash(let folder, let clash):
                say(IndexDamageFormatter.clashLine(clash, folder: folder, root: root))
                if arguments.repair {
                    context.errors.write(
                        "podarchive: \(IndexDamageFormatter.refusalLine(clash, folder: folder, root: root))\n")
                }
            case .note(let folder, let file, let reason):
                say("note     \(SyncFormatter.relative(folder.appendingPathComponent(file), to: root)): \(reason)")
            case .gone(let folder, let failure):
                say(VerifyFormatter.goneLine(failure, folder: folder, root: root))
            case .away(let folder, let entry, let checked):
                if let line = VerifyFormatter.awayLine(entry, folder: folder, checked: checked, root: root) {
                    say(line)
                }
            case .unlocked(_, let why):
                // Said once, however many shows it concerns.
                guard
                    !unlockedSaid.withLock({ said in
                        defer { said = true }
                        return said
                    })
                else { break }
                context.errors.write("podarchive: \(VerifyFormatter.unlockedLine(why))\n")
            case .repairFailed(let problem, let failure):
                context.errors.write(
                    "podarchive: cannot repair \(VerifyFormatter.path(problem, root: root)): \(failure.reason)\n")
            }
        }
        switch outcome.result {
        case .success(let report):
            context.output.write(findings?.json(report, root: root) ?? VerifyFormatter.summary(report) + "\n")
        case .failure(let error):
            context.say(error)
        }
        return outcome.status
    }

    /// `verify --upstream`: which episodes exist only in this archive now.
    private func verifyUpstream(_ request: VerifyRequest) async -> ExitCode {
        let (json, root) = (arguments.json, request.directory)
        let outcome = await context.configuredArchiver().commands.checkUpstream(request) { check in
            guard !json, case .gone(let reason) = check.state else { return }
            context.output.write(
                "only in this archive: \(SyncFormatter.relative(check.folder.appendingPathComponent(check.file), to: root)) "
                    + "<\(check.url)>: \(reason)\n")
        }
        switch outcome.result {
        case .success(let report):
            context.output.write(
                json ? VerifyFormatter.upstreamJSON(report, root: root) : VerifyFormatter.upstreamSummary(report))
        case .failure(let error):
            context.say(error)
        }
        return outcome.status
    }
}
