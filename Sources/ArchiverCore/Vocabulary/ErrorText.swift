// An error in one phrase, for reports: its own description when it has one (every error of podarchive does),
// else its Swift description rather than Foundation's "The operation could not be completed".
import Foundation

extension Error {
    /// The error's description when it is a `LocalizedError`, else how Swift prints it.
    var reasonText: String { (self as? LocalizedError)?.errorDescription ?? "\(self)" }
}
