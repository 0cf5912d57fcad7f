// A problem with the archive itself, said once for every part that reads or writes it (its cases made from a
// storage failure: StorageErrors.swift, beside the file system seams).
import Foundation

/// A problem with the archive itself (not one episode, not the feed): nothing more can safely be done.
public enum ArchiveError: Error, Equatable, Sendable {
    /// The feed folder (or its state folder) cannot be created.
    case cannotCreateFolder(path: String, reason: String)
    /// The index is not valid JSON of a known shape; it is left as it is.
    case damagedIndex(path: String, reason: String)
    /// The index was written by a newer podarchive.
    case newerIndex(path: String, version: Int)
    /// A full disk, an unwritable or read-only folder: the run stops; the index stays valid.
    case storage(path: String, reason: String)
    /// The show's lock file cannot be written because the archive cannot be written here (a read-only mount,
    /// files this user may not write): nothing that changes the archive can run; reading it can.
    case readOnly(path: String, reason: String)
    /// Another podarchive process is syncing this feed folder.
    case locked(folder: String, holder: Int32?)
    /// The folder given to `verify` holds no archive index.
    case noArchive(path: String)
    /// The archive's (or a show's) `.podarchive` is a symbolic link: podarchive reads its state only where the
    /// folder itself says, never through a link.
    case linkedState(path: String)
    /// A folder inside the site's own folder (`site --out`) is a symbolic link: the site never writes through one.
    case linkInSite(path: String)
    /// No subscription has this feed URL or folder name; `known` lists the folders of those there are.
    case unknownShow(String, known: [String])
    /// The run was cancelled (Ctrl-C, a stop signal) and stopped cleanly: the lock is released, the index is
    /// valid, and of the partial downloads left, `resuming` are kept for the next run to resume (a validator was
    /// recorded for them) and `startingAgain` cannot be (none was: no ETag or Last-Modified, no ranges taken, or
    /// the body came compressed), so the next run starts them from their first byte.
    case interrupted(resuming: Int, startingAgain: Int)
}

extension ArchiveError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .cannotCreateFolder(let path, let reason):
            return "cannot create archive folder \(path): \(reason)"
        case .damagedIndex(let path, let reason):
            return "archive index \(path) is damaged (\(reason)); nothing was changed. To rebuild it, move it aside "
                + "and sync again: files already in the folder are adopted, not downloaded twice"
        case .newerIndex(let path, let version):
            return "archive index \(path) has format version \(version), newer than this podarchive understands"
        case .storage(let path, let reason):
            return "cannot write \(path): \(reason); stopped with the index intact and no half-written file "
                + "visible (partial downloads stay hidden for the next run to resume)"
        case .linkedState(let path):
            return "\(path) is a symbolic link, which podarchive never follows for its state: nothing was read or "
                + "changed (put the folder it points to in its place)"
        case .readOnly(let path, let reason):
            return "cannot write \(path): \(reason); the archive can be read here, not changed"
        case .linkInSite(let path):
            return "\(path) is a symbolic link in the site's folder, which the site never writes through: nothing "
                + "was written there (remove the link; the site makes the folder)"
        case .locked(let folder, let holder):
            let who = holder.map { "process \($0)" } ?? "another podarchive process"
            return "\(folder) is being synced by \(who); try again later"
        case .unknownShow(let text, let known):
            let shows =
                known.isEmpty
                ? "the archive follows no show yet"
                : "the archive's shows are " + known.prefix(10).map { "'\($0)'" }.joined(separator: ", ")
                    + (known.count > 10 ? " and \(known.count - 10) more (podarchive feeds lists them)" : "")
            return "no subscribed show has the feed URL or folder name '\(text)'; \(shows)"
        case .noArchive(let path):
            return "\(path) holds no podarchive archive (no \(ArchiveLayout.indexPath) in it or its folders)"
        case .interrupted(let resuming, let again):
            let total = resuming + again
            let kept = total == 1 ? "1 partial download" : "\(total) partial downloads"
            let them = total == 1 ? "it" : "them"
            let why =
                again == 1
                ? "(its server named no version of it, ETag or Last-Modified, took no ranges, or sent it compressed)"
                : "(their servers named no version of them, ETag or Last-Modified, took no ranges, or sent them "
                    + "compressed)"
            switch (resuming, again) {
            case (0, 0): return "interrupted: no partial download to keep"
            case (_, 0): return "interrupted: \(kept) kept, the next run resumes \(them)"
            case (0, _): return "interrupted: \(kept) cannot be resumed, the next run starts \(them) again \(why)"
            default:
                return "interrupted: \(kept) kept, the next run resumes \(resuming) of them and starts \(again) again "
                    + why
            }
        }
    }
}
