// What `credentials --move` cleans outside the show's state folder, at any depth (a `--name` template makes
// subfolders): every sidecar redacted, every file's origin attribute redacted, and every temporary file a write
// left behind removed (the show's lock is held, so none is another process's). Done on every `--move`, whatever
// the index says: a move killed after the index was saved clean must still be finished by the next one.
import Foundation

extension CredentialMover {
    /// Cleans the show's folder below its state folder (see the file's opening comment); returns how many files
    /// changed or went.
    func sweepEpisodeFiles(under folder: URL, staging: URL) -> Int {
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        var changed = 0
        for name in names where name != ArchiveLayout.stateFolderName {
            let url = folder.appendingPathComponent(name)
            if ArchiveLayout.isTemporary(name) {
                changed += TemporaryFiles.sweep([name], in: folder, files: files, guarded: { _ in true }).count
                continue
            }
            switch attributes.typeAndSize(atPath: url.path)?.type {
            case .typeDirectory?: changed += sweepEpisodeFiles(under: url, staging: staging)
            case .typeRegular?:
                let sidecar = name.hasSuffix(ArchiveLayout.sidecarSuffix) && redactFile(url, staging: staging)
                let origin = redactOrigin(of: url)
                if sidecar || origin { changed += 1 }
            default: break
            }
        }
        return changed
    }

    /// Redacts the URL in the file's `user.xdg.origin.url`; true when it held a secret.
    private func redactOrigin(of url: URL) -> Bool {
        let found = try? attributes.attributesOfItem(atPath: url.path)
        let extended = found?[FolderContents.extendedAttributesKey] as? [String: Data]
        guard let origin = extended?[ArchiveNames.originAttribute].map({ String(decoding: $0, as: UTF8.self) })
        else { return false }
        let redacted = URLSecrets.redacted(origin)
        guard redacted != origin else { return false }
        return
            (try? attributes.setAttributes(
                [FolderContents.extendedAttributesKey: [ArchiveNames.originAttribute: Data(redacted.utf8)]],
                ofItemAtPath: url.path)) != nil
    }
}
