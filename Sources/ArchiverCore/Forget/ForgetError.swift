// Why an episode named to be forgotten (or taken back) could not be: said in one line naming the value.
import Foundation

/// An episode name that names no episode of the show, or more than one.
public enum ForgetError: Error, LocalizedError, Equatable {
    /// No archived (or, taking back, no forgotten) episode has this title, GUID or file name.
    case unknownEpisode(String, show: String, forgotten: Bool)
    /// Several episodes answer to this name: their files, to name one of them by.
    case ambiguous(String, files: [String])

    public var errorDescription: String? {
        switch self {
        case .unknownEpisode(let name, let show, let forgotten):
            let kind = forgotten ? "forgotten episode" : "archived episode"
            return "no \(kind) of \(show) has the title, GUID or file name \"\(name)\""
        case .ambiguous(let name, let files):
            return "\"\(name)\" names \(files.count) episodes: "
                + files.map { "\"\($0)\"" }.joined(separator: ", ") + "; name one by its file"
        }
    }
}
