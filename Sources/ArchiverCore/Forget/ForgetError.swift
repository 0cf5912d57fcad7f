// Why an episode named to be forgotten (or taken back) could not be: said in one line naming the value.
import Foundation

/// An episode name that names no episode of the show, or more than one.
public enum ForgetError: Error, LocalizedError, Equatable {
    /// No archived or listed (or, taking back, no forgotten) episode has this title, GUID or file name.
    case unknownEpisode(String, show: String, forgotten: Bool)
    /// Several episodes answer to this name: their files, to name one of them by, and what of each answered.
    case ambiguous(String, candidates: [Candidate])

    /// An episode a name could mean: its file, and what of it the name is (`title`, `GUID`, `file name`).
    public struct Candidate: Equatable, Sendable {
        /// The episode's file, in the show's folder: the name that picks it alone.
        public var file: String
        /// What of the episode the name matched.
        public var by: String

        /// The episode kept as `file`, matched by its `by`.
        public init(file: String, by: String) {
            self.file = file
            self.by = by
        }
    }

    public var errorDescription: String? {
        switch self {
        case .unknownEpisode(let name, let show, let forgotten):
            let kind = forgotten ? "forgotten episode" : "archived or listed episode"
            return "no \(kind) of \(show) has the title, GUID or file name \"\(name)\""
        case .ambiguous(let name, let candidates):
            return "\"\(name)\" names \(candidates.count) episodes: "
                + candidates.map { "\"\($0.file)\" (its \($0.by))" }.joined(separator: ", ")
                + "; nothing was changed: name one by its file"
        }
    }
}
