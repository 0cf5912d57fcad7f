// The companions of a private show that hold one of its secrets: the publisher's own files are kept byte for byte,
// so what is published (`site --out`, `export`) leaves such a file out, and says so, rather than change it.
import Foundation

/// The companions of a private show that hold one of its secret values (see `SubscriptionStore.registerSecrets`).
struct SecretHolders: Sendable {
    /// The folders (by name) of the shows whose feeds need a secret.
    let privateShows: Set<String>
    /// How the companions are read.
    let files: any FileReading

    /// The companions of `entry` (in the show's `folder`) whose bytes hold a secret value the process knows; none
    /// for a public show.
    func companions(of entry: ArchiveIndex.Entry, in folder: URL) -> Set<String> {
        guard privateShows.contains(folder.lastPathComponent) else { return [] }
        var holders = Set<String>()
        for companion in entry.companions ?? [] {
            guard let data = files.contents(atPath: folder.appendingPathComponent(companion.file).path),
                SecretValues.occur(in: Array(data))
            else { continue }
            holders.insert(companion.file)
        }
        return holders
    }
}
