// What `forget` says of each episode it forgot or took back.
import Foundation

extension ForgetReport {
    /// A line for each episode: forgotten (its files deleted or kept), forgotten already, or taken back.
    public var lines: [String] {
        let taken = takenBack.map { episode in
            let next =
                episode.inIndexAgain
                ? "its kept file \(episode.file) is in the index again" : "the next sync fetches it"
            return "took back \"\(episode.title)\" of \(show)/: \(next)\n"
        }
        let forgot = forgotten.map { episode in
            if episode.skipped, !episode.already {
                return "skipped \"\(episode.title)\" of \(show)/ before it was downloaded: never fetched "
                    + "(podarchive forget --undo takes it back)\n"
            }
            if episode.already {
                return
                    "\"\(episode.title)\" of \(show)/ was forgotten already (podarchive forget --undo takes it back)\n"
            }
            let files =
                if let place = episode.offloadedTo {
                    "its offloaded copies stay in \(place) (forget deletes only what is in the archive)"
                } else if keptFiles {
                    "its files kept"
                } else {
                    "deleted "
                        + (episode.deleted.isEmpty
                            ? "nothing (no file was there)" : episode.deleted.joined(separator: ", "))
                }
            return "forgot \"\(episode.title)\" of \(show)/: \(files); never fetched again "
                + "(podarchive forget --undo takes it back)\n"
        }
        return taken + forgot
    }
}
