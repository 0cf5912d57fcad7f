// A companion (transcript, chapters, artwork) is optional: one its server says is not there (404, 410) on three
// runs in a row is given up, whatever the days between (an episode gets a week: it is the archive), so a show
// settles, its feed is fetched conditionally again, and nobody is told the same thing every night. Kept in
// `<show>/.podarchive/companions.json`, by the companion's name beside its episode.
import Foundation

/// The companions of a show whose server said they are not there, and on how many runs in a row.
struct CompanionMisses: Codable, Equatable, Sendable {
    /// Runs in a row a companion may answer 404 or 410 before it is given up.
    public static let giveUpAfter = 3

    /// Runs in a row each companion (by name) answered 404 or 410.
    var misses: [String: Int] = [:]
    private var changed = false

    private enum CodingKeys: String, CodingKey { case misses }

    /// Whether the companion `name` is given up.
    func gaveUp(_ name: String) -> Bool { (misses[name] ?? 0) >= Self.giveUpAfter }

    /// Records a failure of `name`; why it is given up with this one, else nil. Only "not there" counts, and a
    /// document that can never be kept (`EpisodeFailure.invalid`, or a torrent or playlist in place of an image:
    /// `notMedia`) is given up at once; another failure (a timeout, a server error) neither counts nor breaks the run
    /// of misses.
    mutating func missed(_ name: String, _ failure: EpisodeFailure) -> String? {
        switch failure {
        case .httpStatus(let status) where status == 404 || status == 410:
            misses[name, default: 0] += 1
            changed = true
            return gaveUp(name) ? "\(failure.reason) on \(Self.giveUpAfter) runs in a row" : nil
        case .invalid(let reason):
            misses[name] = Self.giveUpAfter
            changed = true
            return reason
        case .notMedia:
            misses[name] = Self.giveUpAfter
            changed = true
            return failure.cause
        default:
            return nil
        }
    }

    /// `name` was kept: forgotten here.
    mutating func settle(_ name: String) {
        if misses.removeValue(forKey: name) != nil { changed = true }
    }

    /// The record kept in `file`; empty when there is none.
    static func load(_ file: RecordFile<CompanionMisses>, files: any FileReading) -> CompanionMisses {
        file.load(files) ?? CompanionMisses()
    }

    /// Saves the record in `file` when it changed.
    func save(to file: RecordFile<CompanionMisses>, writer: any AtomicFileWriting) {
        guard changed else { return }
        try? file.save(self, writer)
    }
}

extension ShowState {
    /// Companions that failed, and how often: a hint (losing it costs a few more tries, never a file).
    var companionMisses: RecordFile<CompanionMisses> { record(ArchiveLayout.companionMissesFile, .hint) }
}
