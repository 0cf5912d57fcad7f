// What a credentials move cleans outside the show's state folder, at any depth (a `--name` template makes
// subfolders): every sidecar redacted, every file's origin attribute redacted, and every temporary file a write
// left behind removed (the show's lock is held, so none is another process's). Done whenever the show's mark says
// a move is pending, whatever the index says: a move killed after the index was saved clean must still be
// finished by the next command that takes the lock.
import Foundation

extension MoveFinisher {
    /// Cleans the show's folder below its state folder (see the file's opening comment): how many files changed
    /// or went, and how many still hold a secret (they could not be rewritten).
    func sweepEpisodeFiles(under folder: URL, staging: URL) -> Sweep {
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        var changed = Sweep()
        for name in names where name != ArchiveLayout.stateFolderName {
            let url = folder.appendingPathComponent(name)
            if ArchiveLayout.isTemporary(name) {
                let gone = TemporaryFiles.sweep([name], in: folder, files: files, guarded: { _ in true }).count
                changed.add(gone == 1 ? .changed : .left)
                continue
            }
            switch attributes.typeAndSize(atPath: url.path)?.type {
            case .typeDirectory?: changed += sweepEpisodeFiles(under: url, staging: staging)
            case .typeRegular?:
                let sidecar = name.hasSuffix(ArchiveLayout.sidecarSuffix) ? redactFile(url, staging: staging) : .clean
                changed.add(sidecar.and(redactOrigin(of: url)))
            default: break
            }
        }
        return changed
    }

    /// Redacts the URL in the file's `user.xdg.origin.url`.
    private func redactOrigin(of url: URL) -> Sweep.Outcome {
        let found = try? attributes.attributesOfItem(atPath: url.path)
        let extended = found?[FolderContents.extendedAttributesKey] as? [String: Data]
        guard let origin = extended?[ArchiveNames.originAttribute].map({ String(decoding: $0, as: UTF8.self) })
        else { return .clean }
        let redacted = URLSecrets.redacted(origin)
        guard redacted != origin else { return .clean }
        let set = try? attributes.setAttributes(
            [FolderContents.extendedAttributesKey: [ArchiveNames.originAttribute: Data(redacted.utf8)]],
            ofItemAtPath: url.path)
        return set != nil ? .changed : .left
    }
}
