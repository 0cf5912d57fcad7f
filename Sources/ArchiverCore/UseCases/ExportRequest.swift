// `podarchive export --warc FILE` as one call: the shows named (each as `ShowFinder.archivedFolder` takes it, never
// a folder outside the archive), or every show, written to one WARC file.
import Foundation

/// Writing shows of the archive to a WARC file.
public struct ExportRequest: Sendable {
    /// The archive.
    public var root: URL
    /// The shows, as named (folder names, feed URLs, titles, paths to show folders); every show when empty.
    public var shows: [String] = []
    /// The WARC file, absolute; for `exportLibrary`, the library folder.
    public var file: URL
    /// The export's date, written in each record.
    public var date: Date
    /// Where relative paths start, and the home folder whose `.netrc` says which shows are private.
    public var settings: CommandSettings

    /// Exporting `root` into `file` on `date`.
    public init(root: URL, file: URL, date: Date, settings: CommandSettings) {
        self.root = root
        self.file = file
        self.date = date
        self.settings = settings
    }
}

extension ArchiveCommands {
    /// `podarchive export`: `usage` for a show the archive does not hold or a file inside it, `archiveFailed`
    /// for a file that cannot be read or written (nothing is left under the file's name).
    public func export(_ request: ExportRequest, progress: (ExportProgress) -> Void) async
        -> CommandOutcome<ExportReport>
    {
        await .of(
            {
                let finder = ShowFinder(
                    engine: archiver, root: request.root, currentDirectory: request.settings.currentDirectory)
                let shows = request.shows.isEmpty ? nil : try request.shows.map(finder.archivedFolder)
                let access = request.settings.archiveAccess
                return try archiver.exportWARC(
                    request.root, shows: shows, to: request.file, options: ExportOptions(date: request.date),
                    access: access, progress: progress)
            }, status: { _ in .success })
    }
}

extension ArchiveCommands {
    /// `podarchive export --library`: `usage` for a show the archive does not hold or a library inside the
    /// archive, `archiveFailed` for a file that cannot be read or written, a damaged record or too little space.
    /// `plan` is told what the copies will take before the first is written.
    public func exportLibrary(_ request: ExportRequest, plan: (LibraryPlan) -> Void) async
        -> CommandOutcome<LibraryReport>
    {
        await .of(
            {
                let finder = ShowFinder(
                    engine: archiver, root: request.root, currentDirectory: request.settings.currentDirectory)
                let shows = request.shows.isEmpty ? nil : try request.shows.map(finder.archivedFolder)
                return try archiver.exportLibrary(
                    request.root, shows: shows, into: request.file, options: LibraryOptions(),
                    access: request.settings.archiveAccess, plan: plan)
            }, status: { _ in .success })
    }
}
