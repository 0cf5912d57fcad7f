// What is published from an archive (`site --out`, `export`) is searched for the secrets of its private shows: each
// show's access is resolved as a sync's is (`ShowAccess.withAccess`: saved credentials, its `.netrc` file), which
// decides its taint and registers its secret values (see `Taint`, `SecretHolders`).
import Foundation

extension Archiver {
    /// The folders (by name) of the private shows of `root` (or the shows in `shows`), each show's secrets
    /// registered with `SecretValues`. `access` gives the `.netrc` file the run would read.
    func privateShows(in root: URL, shows: [URL]? = nil, access: SyncOptions) -> Set<String> {
        let folders = shows ?? (try? parts.verifier.feedFolders(in: root)) ?? []
        let records = parts.showAccess.records(around: folders)
        var found = Set<String>()
        for folder in folders {
            guard let accessed = try? parts.showAccess.withAccess(access, forShowIn: folder, records: records),
                accessed.taint.isPrivate
            else { continue }
            found.insert(folder.lastPathComponent)
        }
        return found
    }
}
