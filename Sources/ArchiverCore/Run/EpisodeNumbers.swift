// The stable episode numbers `{number}` gives: `<show>/.podarchive/numbers.json`. A publisher's own numbers
// (`itunes:episode`) are often missing, and a position in the feed shifts whenever the publisher deletes an
// episode; these are given once, when an episode is first seen, and never change. A record of its own, written
// only for a show whose names use `{number}`; an older podarchive ignores it.
import Foundation

/// The number each episode of a show was given, by its key in the index.
struct EpisodeNumbers: Codable, Equatable, Sendable {
    /// By the first 64 bits of the SHA-256 of the episode's key (`StableName.of`): small, and no key's text (a URL
    /// that may carry a token) written again.
    var numbers: [String: Int] = [:]

    /// The number of the episode known in the index by `key`; nil when it has none yet.
    func number(of key: String) -> Int? { numbers[StableName.of(key)] }

    /// Gives the next numbers to `keys` in their order, but to those that have one.
    /// - Returns: whether any number was given.
    mutating func give(_ keys: [String]) -> Bool {
        var next = (numbers.values.max() ?? 0) + 1
        var gave = false
        for key in keys where number(of: key) == nil {
            numbers[StableName.of(key)] = next
            next += 1
            gave = true
        }
        return gave
    }
}

extension ShowState {
    /// The show's episode numbers: written durably before a name that uses one is given.
    var numbers: RecordFile<EpisodeNumbers> { record(ArchiveLayout.numbersFile, .intent) }
}
