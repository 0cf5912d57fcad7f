// `--prefer`: which of an episode's files to archive when the feed offers alternates (Opus beside MP3, a video
// version at 1080, 720 and 480 lines). The first preference any file matches wins (see `RenditionPreference`: by
// type or codec, by height, bitrate or length, `smallest`, `largest`); the enclosure is a candidate like the
// alternates, so a preference it matches keeps it; a file without the attribute a preference needs never matches
// it; when none matches, the enclosure is archived, and `PreferredRendition` says so. Only another encoding of the episode's own content is a candidate: never other
// content (an alternate with a `rel`), a playlist (HLS, DASH) or a torrent, nor a source that delivers one; an
// enclosure that is one by its type or name gives way to an alternate that is a file, preferences or none. The
// others follow the choice, in the order they are tried when every source of the one before answered with something
// that is not media. The episode keeps its identity (its GUID, else its enclosure URL), so an episode already
// archived is never fetched again because the preference changed. `WorkPlan.make` applies the choice, for `sync`
// and `sync -n` alike.
import Foundation

/// The choice among an episode's files.
enum PreferredFile {
    /// The alternate enclosure to archive for `episode` under `preferences` (see `RenditionPreference`: media types
    /// such as `audio/opus`, codecs or subtypes such as `opus`, bounds such as `height<=480`, `smallest`), or nil for
    /// the enclosure: the first of `candidates`.
    public static func choice(_ preferences: [String], for episode: Episode) -> AlternateEnclosure? {
        candidates(preferences, for: episode).first ?? nil
    }

    /// The files of `episode` that are its own content, in the order they are tried, each nil for the enclosure or
    /// the alternate: those the first preference matches (the enclosure and the alternates of the episode's own
    /// content, `AlternateEnclosure.isTheEpisode`, with an http(s) source of the file, in the order the preference
    /// gives them, else the enclosure first and then the feed's order), then those the next matches..., then the
    /// enclosure, then the other alternates in the feed's order. An enclosure that is a playlist or a torrent by its
    /// type or its name is left out. Empty when nothing is left.
    static func candidates(_ preferences: [String], for episode: Episode) -> [AlternateEnclosure?] {
        decide(preferences, for: episode).files
    }

    /// `candidates`, and why the first is first: nil when `preferences` is empty or there is no choice (one file or
    /// none).
    static func decide(_ preferences: [String], for episode: Episode) -> (
        files: [AlternateEnclosure?], why: PreferredRendition?
    ) {
        let enclosure = Rendition(enclosureOf: episode)
        let enclosureIsAFile =
            episode.mimeType.flatMap(NotMedia.init(type:)) == nil && NotMedia(url: episode.url) == nil
        guard !episode.alternates.isEmpty else { return (enclosureIsAFile ? [nil] : [], nil) }
        let files = episode.alternates.filter { !$0.isDefault && $0.isTheEpisode && !webSources($0).isEmpty }
        let pool = (enclosureIsAFile ? [(nil, enclosure)] : []) + files.map { ($0, Rendition($0)) }
        var result: [AlternateEnclosure?] = []
        var chosenBy: String?
        func add(_ file: AlternateEnclosure?) {
            if !result.contains(file) { result.append(file) }
        }
        for text in preferences {
            guard let preference = RenditionPreference(text) else { continue }
            let matched = pool.enumerated().filter { preference.matches($0.element.1) }
            // Stable: files the preference does not order stay in the pool's order.
            let ordered = matched.sorted {
                preference.comesBefore($0.element.1, $1.element.1)
                    || (!preference.comesBefore($1.element.1, $0.element.1) && $0.offset < $1.offset)
            }
            if chosenBy == nil, !ordered.isEmpty { chosenBy = text }
            for file in ordered { add(file.element.0) }
        }
        if enclosureIsAFile { add(nil) }
        files.forEach(add)
        guard !preferences.isEmpty, result.count > 1, let first = result.first else { return (result, nil) }
        let why = PreferredRendition(
            first.map(Rendition.init) ?? enclosure, isEnclosure: first == nil, preference: chosenBy,
            preferences: preferences)
        return (result, why)
    }

    /// Whether `preference` names `type` (parameters aside), or, as a bare token, one of `codecs` (see
    /// `RenditionPreference.names`).
    static func matches(_ preference: String, type: String?, codecs: String?) -> Bool {
        RenditionPreference.names(preference, type: type, codecs: codecs)
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

    /// The work with `preferences` applied to each new episode; for each whose file is one of several, the others
    /// in the order they are tried, and why its file was chosen (by its identity; see `decide`).
    static func apply(_ preferences: [String], to work: [WorkItem]) -> (
        work: [WorkItem], others: [String: [Episode]], why: [String: PreferredRendition]
    ) {
        var others: [String: [Episode]] = [:]
        var why: [String: PreferredRendition] = [:]
        let chosen = work.map { item -> WorkItem in
            guard case .new(let episode) = item, !episode.alternates.isEmpty else { return item }
            let decided = decide(preferences, for: episode)
            let files = decided.files.map { $0.map { Self.episode(episode, as: $0) } ?? episode }
            if files.count > 1 { others[episode.identity] = Array(files.dropFirst()) }
            why[episode.identity] = decided.why
            return .new(files.first ?? episode)
        }
        return (chosen, others, why)
    }

    /// The URL `episode` is fetched from first under `preferences` (see `choice`).
    static func firstURL(_ preferences: [String], for episode: Episode) -> String {
        choice(preferences, for: episode).flatMap { webSources($0).first } ?? episode.url
    }
}
