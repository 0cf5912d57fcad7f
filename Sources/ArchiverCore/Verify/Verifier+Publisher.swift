// `verify` and the publisher's hash: an intact file (its size and SHA-256 as recorded) is hashed again with the
// algorithm of the Subresource Integrity value recorded with it, and one kept although it did not match, or one
// whose PGP signature was recorded, is listed as a note that fails nothing.
import Foundation

extension Verifier {
    /// A problem when the file at `entry` does not match the publisher's hash it was archived with (the record
    /// was edited, or the file changed along with its recorded SHA-256); notes for what is worth saying of an
    /// intact file. Nil when there is no problem.
    func checkPublisher(
        _ entry: ArchiveIndex.Entry, in folder: URL, report: inout VerifyReport, onEvent: (VerifyEvent) -> Void
    ) -> VerifyProblem? {
        guard let record = entry.publisher else { return nil }
        func note(_ reason: String) {
            report.notes += 1
            onEvent(.note(folder: folder, file: entry.file, reason: reason))
        }
        if record.alternates?.contains(where: { $0.pgpSignature != nil && $0.sources.contains(entry.url) }) == true {
            note("the publisher's PGP signature is recorded, not checked")
        }
        if let mismatch = record.mismatch {
            note(
                "kept although it does not match the publisher's hash (expected \(record.integrity ?? "?"), "
                    + "received \(mismatch)): the host served other bytes on every run, as hosts that insert ads do")
            return nil
        }
        guard let integrity = record.integrity.flatMap(SubresourceIntegrity.init),
            let digest = IntegrityHasher.digest(
                ofFileAtPath: folder.appendingPathComponent(entry.file).path, integrity.algorithm)
        else { return nil }
        return integrity.matches(digest) ? nil : VerifyProblem(folder: folder, file: entry.file, kind: .changed)
    }
}
