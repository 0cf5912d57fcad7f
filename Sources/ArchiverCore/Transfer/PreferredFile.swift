// `--prefer`: which of an episode's files to archive when the feed offers alternates (Opus beside MP3, a video
// version). The first preference any file matches wins; the enclosure is a candidate like the alternates, so a
// preference it matches keeps it. Only another encoding of the episode's own content is a candidate: never other
// content (an alternate with a `rel`), a playlist (HLS, DASH) or a torrent, nor a source that delivers one. The
// episode keeps its identity (its GUID, else its enclosure URL), so an episode already archived is never fetched
// again because the preference changed. `WorkPlan.make` applies the choice, for `sync` and `sync -n` alike.
import Foundation

/// The choice among an episode's files.
public enum PreferredFile {
    /// The alternate enclosure to archive for `episode` under `preferences` (media types such as `audio/opus`, or
    /// codecs such as `opus`), or nil for the enclosure: the first preference that the enclosure or an alternate
    /// of the episode's own content (`AlternateEnclosure.isTheEpisode`) with an http(s) source of the file matches
    /// decides.
    public static func choice(_ preferences: [String], for episode: Episode) -> AlternateEnclosure? {
        for preference in preferences {
            if matches(preference, type: episode.mimeType, codecs: nil) { return nil }
            if let alternate = episode.alternates.first(where: {
                !$0.isDefault && $0.isTheEpisode && matches(preference, type: $0.type, codecs: $0.codecs)
                    && !webSources($0).isEmpty
            }) {
                return alternate
            }
        }
        return nil
    }

    /// Whether `preference` names `type` (parameters aside) or one of `codecs` (`mp4a.40.2` is `mp4a` too).
    static func matches(_ preference: String, type: String?, codecs: String?) -> Bool {
        let wanted = preference.lowercased()
        if wanted.contains("/") {
            let bare = type?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return bare == wanted
        }
        let listed = (codecs ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return listed.contains { $0 == wanted || $0.hasPrefix(wanted + ".") }
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
        WebScheme.isWeb(WebScheme.of(source)) && !MediaTypes.isIndirect(url: source)
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

    /// The work with `preferences` applied to each new episode.
    static func apply(_ preferences: [String], to work: [WorkItem]) -> [WorkItem] {
        guard !preferences.isEmpty else { return work }
        return work.map { item in
            guard case .new(let episode) = item, let alternate = choice(preferences, for: episode) else { return item }
            return .new(Self.episode(episode, as: alternate))
        }
    }
}
