// `--prefer`: which of an episode's files to archive when the feed offers alternates (Opus beside MP3, a video
// version). The first preference any file matches wins; the enclosure is a candidate like the alternates, so a
// preference it matches keeps it. Only another encoding of the episode's own content is a candidate: never other
// content (an alternate with a `rel`), a playlist (HLS, DASH) or a torrent, nor a source that delivers one; an
// enclosure that is one by its type or name gives way to an alternate that is a file, preferences or none. The
// others follow the choice, in the order they are tried when every source of the one before answered with something
// that is not media. The episode keeps its identity (its GUID, else its enclosure URL), so an episode already
// archived is never fetched again because the preference changed. `WorkPlan.make` applies the choice, for `sync`
// and `sync -n` alike.
import Foundation

/// The choice among an episode's files.
enum PreferredFile {
    /// The alternate enclosure to archive for `episode` under `preferences` (media types such as `audio/opus`, or
    /// codecs or subtypes such as `opus`), or nil for the enclosure: the first of `candidates`.
    public static func choice(_ preferences: [String], for episode: Episode) -> AlternateEnclosure? {
        candidates(preferences, for: episode).first ?? nil
    }

    /// The files of `episode` that are its own content, in the order they are tried, each nil for the enclosure or
    /// the alternate: those the first preference matches (the enclosure first, then alternates of the episode's
    /// own content, `AlternateEnclosure.isTheEpisode`, with an http(s) source of the file), then those the next
    /// matches..., then the enclosure, then the other alternates in the feed's order. An enclosure that is a
    /// playlist or a torrent by its type or its name is left out. Empty when nothing is left.
    static func candidates(_ preferences: [String], for episode: Episode) -> [AlternateEnclosure?] {
        let enclosureIsAFile =
            episode.mimeType.flatMap(NotMedia.init(type:)) == nil && NotMedia(url: episode.url) == nil
        guard !episode.alternates.isEmpty else { return enclosureIsAFile ? [nil] : [] }
        let files = episode.alternates.filter { !$0.isDefault && $0.isTheEpisode && !webSources($0).isEmpty }
        var result: [AlternateEnclosure?] = []
        func add(_ file: AlternateEnclosure?) {
            if !result.contains(file) { result.append(file) }
        }
        for preference in preferences {
            if enclosureIsAFile, matches(preference, type: episode.mimeType, codecs: nil) { add(nil) }
            for file in files where matches(preference, type: file.type, codecs: file.codecs) { add(file) }
        }
        if enclosureIsAFile { add(nil) }
        files.forEach(add)
        return result
    }

    /// Whether `preference` names `type` (parameters aside), or, as a bare token, one of `codecs` (`mp4a.40.2` is
    /// `mp4a` too) or the subtype of `type` (`opus` is `audio/opus`, `flac` is `audio/x-flac`).
    static func matches(_ preference: String, type: String?, codecs: String?) -> Bool {
        let wanted = preference.lowercased()
        let bare = type.map(MediaTypes.bare)
        if wanted.contains("/") { return bare == wanted }
        let listed = (codecs ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if listed.contains(where: { $0 == wanted || $0.hasPrefix(wanted + ".") }) { return true }
        let subtype = bare?.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init)
        return subtype == wanted || subtype == "x-" + wanted
    }

    /// The sources of `alternate` that are fetched (http and https, of the file itself: not a playlist or a torrent
    /// by its name, as an index an earlier version wrote may list), in the feed's order.
    public static func webSources(_ alternate: AlternateEnclosure) -> [String] {
        alternate.sources.filter(isFetched)
    }

    /// The sources of `alternate` that are skipped: for their scheme (`ipfs:`, `magnet:`), or because they deliver
    /// something other than the file (a torrent, a playlist).
    public static func skippedSources(_ alternate: AlternateEnclosure) -> [String] {
        alternate.sources.filter { !isFetched($0) } + (alternate.indirectSources ?? [])
    }

    /// Whether a source of the file is fetched: an http(s) URL that does not name a playlist or torrent.
    private static func isFetched(_ source: String) -> Bool {
        WebScheme.isWeb(WebScheme.of(source)) && NotMedia(url: source) == nil
    }

    /// `episode` to archive as `alternate`: fetched from its first http(s) source, named and typed as it, known by
    /// the episode's own identity.
    public static func episode(_ episode: Episode, as alternate: AlternateEnclosure) -> Episode {
        var chosen = episode
        chosen.storedIdentity = episode.identity
        chosen.url = webSources(alternate).first ?? episode.url
        chosen.mimeType = alternate.type
        chosen.length = alternate.length
        return chosen
    }

    /// The sources skipped for their scheme of the alternate `episode` is archived as (none for the enclosure).
    static func skippedSources(of episode: Episode) -> [String] {
        episode.alternates.first { !$0.isDefault && $0.sources.contains(episode.url) }.map(skippedSources) ?? []
    }

    /// The URLs to try for `episode` in order: every http(s) source of the alternate it is archived as, from its
    /// URL on; just its URL when it is the enclosure.
    static func urls(for episode: Episode) -> [String] {
        guard let alternate = episode.alternates.first(where: { !$0.isDefault && $0.sources.contains(episode.url) })
        else { return [episode.url] }
        let sources = webSources(alternate)
        guard let start = sources.firstIndex(of: episode.url) else { return [episode.url] }
        return Array(sources[start...])
    }

    /// The work with `preferences` applied to each new episode, and for each whose file is one of several, the
    /// others in the order they are tried (by its identity; see `candidates`).
    static func apply(_ preferences: [String], to work: [WorkItem]) -> (work: [WorkItem], others: [String: [Episode]]) {
        var others: [String: [Episode]] = [:]
        let chosen = work.map { item -> WorkItem in
            guard case .new(let episode) = item, !episode.alternates.isEmpty else { return item }
            let files = candidates(preferences, for: episode).map {
                $0.map { Self.episode(episode, as: $0) } ?? episode
            }
            if files.count > 1 { others[episode.identity] = Array(files.dropFirst()) }
            return .new(files.first ?? episode)
        }
        return (chosen, others)
    }

    /// The URL `episode` is fetched from first under `preferences` (see `choice`).
    static func firstURL(_ preferences: [String], for episode: Episode) -> String {
        choice(preferences, for: episode).flatMap { webSources($0).first } ?? episode.url
    }
}
