// File-system errors in the system's own short words ("No space left on device"), whatever layer raised them.
import Foundation

extension ArchiveError {
    /// Why a link where podarchive keeps its own files stops the sync of that show.
    static let linkRefusal = "it is a symbolic link, which podarchive never follows for its state"

    /// Why `directory` holds no archive podarchive will read: its `.podarchive` is a symbolic link (named, as every
    /// command that writes names it), else none is there.
    static func noArchive(at directory: URL, attributes: any FileAttributes) -> ArchiveError {
        // ArchiveError is below the records of `ShowState`, which throw it: the layout's own state folder, then.
        let state = ArchiveLayout.stateFolder(of: directory)
        if attributes.isSymbolicLink(atPath: state.path) { return .linkedState(path: state.path) }
        return .noArchive(path: directory.path)
    }

    /// The system's short words for a file-system error ("No space left on device").
    static func describe(_ error: Error?) -> String {
        guard let error else { return "unknown error" }
        if let fileError = error as? FileSystemError {
            // O_NOFOLLOW met a link where podarchive keeps its own files.
            if fileError.code == ELOOP { return linkRefusal }
            return String(cString: strerror(fileError.code))
        }
        if let cocoa = error as? CocoaError, let underlying = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }

        // Foundation's own words ("The operation could not be completed. The volume is read only.") become the
        // system's, as for every other file error.
        if let cocoa = error as? CocoaError, let code = Self.errno(for: cocoa.code) {
            return String(cString: strerror(code))
        }
        return error.localizedDescription
    }

    private static func errno(for code: CocoaError.Code) -> Int32? {
        switch code {
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileWriteFileExists: return EEXIST
        case .fileReadTooLarge: return EFBIG
        case .fileWriteInvalidFileName, .fileReadInvalidFileName: return EINVAL
        default: return nil
        }
    }

    /// `.storage` for `error` met at `path`, in the system's words.
    static func storage(_ error: Error, path: String) -> ArchiveError {
        .storage(path: path, reason: describe(error))
    }

    /// Whether `error` says a file cannot be written because the archive cannot be written here at all: a
    /// read-only file system, a file or folder this user may not write (`EROFS`, `EACCES`, `EPERM`).
    static func meansReadOnly(_ error: Error) -> Bool {
        let code = (error as? FileSystemError)?.code ?? (error as? CocoaError).flatMap { errno(for: $0.code) }
        return code.map { [EROFS, EACCES, EPERM].contains($0) } ?? false
    }
}

/// A download the disk cannot hold even alone. The run stops, but only once the downloads in flight have ended
/// (those that complete are put in place), so what the partial downloads kept for resuming hold is counted then:
/// counted at the refusal, it took in the half-written files of downloads that went on to be archived.
struct SpaceRefusal: Error, LocalizedError {
    /// The show's state folder, where the download would have been written.
    var folder: String
    var needed: Int64
    var free: Int64

    private var reason: String { "the episode needs \(needed) bytes and only \(free) are free" }

    /// What a run stopped by `error` throws once every download of the show has ended: for a refusal, the
    /// storage error with what the partial downloads left for resuming hold (`kept`, counted now).
    static func stopping(_ error: Error, kept: () -> Int64) -> Error {
        guard let refusal = error as? SpaceRefusal else { return error }
        let bytes = kept()
        return ArchiveError.storage(
            path: refusal.folder,
            reason: refusal.reason + (bytes > 0 ? "; partial downloads kept for resuming hold \(bytes) bytes" : ""))
    }

    /// Said where the run does not stop for it itself (a repair, a companion): the refusal alone.
    var errorDescription: String? { ArchiveError.storage(path: folder, reason: reason).errorDescription }
}
