// `export --library` on the facade (see `LibraryExport`).
import Foundation

extension Archiver {
    /// Writes a library of tagged copies of the shows in `shows` (every show of `root` when nil) into `library`,
    /// telling `plan` what it is about to write before the first byte. The archive's files are only read.
    /// - Parameter access: the `.netrc` file the run reads: private shows' secrets are masked in every tag.
    /// - Throws: `ArchiveError.noArchive` when `root` holds no show; the error of an index that cannot be read;
    ///   `LibraryError` and `ExportError` (see `LibraryExport.export`).
    public func exportLibrary(
        _ root: URL, shows: [URL]? = nil, into library: URL, options: LibraryOptions = LibraryOptions(),
        access: SyncOptions = SyncOptions(), plan: (LibraryPlan) -> Void = { _ in }
    ) throws -> LibraryReport {
        // Reading each show's access learns the secret values its tags must not hold (see `SecretValues`).
        _ = privateShows(in: root, shows: shows, access: access)
        let export = LibraryExport(
            verifier: parts.verifier, indexes: parts.indexes, files: parts.files, attributes: parts.attributes,
            writer: parts.writer)
        return try export.export(root, shows: shows, into: library, options: options, plan: plan)
    }

    /// Where the library `sync` refreshes is kept.
    var librarySettings: LibrarySettingsStore { .init(store: parts.store, files: parts.files, writer: parts.writer) }
}
