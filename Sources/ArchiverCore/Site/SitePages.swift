// The archive's web pages: `<root>/index.html` (every show) and `<show>/index.html` (its episodes, each with a
// player of the archived file). Self-contained: styles and the one small script are inline, links are relative,
// so the pages work opened as files and from any static server. A Content-Security-Policy allows only that
// script and media from the archive itself, a second wall behind the show notes' sanitiser.
import Foundation

enum SitePages {
    /// The filter box's script: the only script a page runs (the policy names its hash).
    static let script = """
        const box = document.getElementById("filter");
        const items = Array.from(document.querySelectorAll("[data-search]"));
        const none = document.getElementById("none");
        box.addEventListener("input", () => {
          const words = box.value.toLowerCase().split(/\\s+/).filter(Boolean);
          let shown = 0;
          for (const item of items) {
            const match = words.every((word) => item.dataset.search.includes(word));
            item.hidden = !match;
            if (match) shown += 1;
          }
          none.hidden = shown > 0;
        });
        """

    static let style = """
        :root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--muted:#595959;--line:#d6d6d6;--accent:#0b57d0;--warn:#8a4b00}
        @media (prefers-color-scheme:dark){:root{--bg:#121212;--fg:#ececec;--muted:#b3b3b3;--line:#3a3a3a;--accent:#8ab4f8;--warn:#f6c26b}}
        *{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,sans-serif;overflow-wrap:anywhere}
        .show>*{min-width:0}.show img{flex:none}pre{white-space:pre-wrap}
        header,main,footer{max-width:52rem;margin:0 auto;padding:1rem}a{color:var(--accent)}
        h1{font-size:1.6rem;margin:.2rem 0}h2{font-size:1.15rem;margin:0 0 .3rem}.meta,.muted{color:var(--muted)}
        ol,ul.shows{list-style:none;padding:0;margin:0}li{border-top:1px solid var(--line);padding:1rem 0}
        audio{width:100%;margin:.4rem 0}.badge{display:inline-block;padding:0 .45rem;border:1px solid currentColor;border-radius:.7rem;font-size:.85rem;font-weight:600}.removed{color:var(--warn)}.away{color:var(--muted)}
        nav.years{display:flex;flex-wrap:wrap;gap:.2rem .8rem;margin:.4rem 0}
        .show{display:flex;gap:1rem;align-items:center}.show img{width:5rem;height:5rem;object-fit:cover;border-radius:.4rem}
        .notes{overflow-wrap:anywhere}.notes img{max-width:100%}label{display:block;font-weight:600}
        input[type=search]{width:100%;padding:.5rem;font:inherit;color:inherit;background:transparent;border:1px solid var(--muted);border-radius:.3rem}
        """

    /// The policy: nothing from elsewhere; the archive's own media and images; the page's scripts only, by their
    /// hashes; with `search`, the site's own scripts and data too (`'self'`: the search's index and notes).
    static func policy(scripts: [String], search: Bool) -> String {
        let hashes = scripts.map { script -> String in
            var hasher = SHA256()
            hasher.update(Data(script.utf8))
            return "'sha256-\(Data(hasher.finalize()).base64EncodedString())'"
        }
        return "default-src 'none'; img-src 'self' file:; media-src 'self' file:; style-src 'unsafe-inline'; "
            + "script-src \(((search ? ["'self'"] : []) + hashes).joined(separator: " ")); "
            + (search ? "connect-src 'self'; " : "") + "base-uri 'none'; form-action 'none'"
    }

    static func document(title: String, body: String, search: Bool = false) -> String {
        let scripts = [script] + (search ? [SiteSearchPage.script] : [])
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="\(HTMLText.escape(policy(scripts: scripts, search: search)))">
            <meta name="referrer" content="no-referrer">
            <meta name="generator" content="podarchive \(PodarchiveVersion.current)">
            <title>\(HTMLText.escape(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body)
            \(scripts.map { "<script>\($0)</script>" }.joined(separator: "\n"))
            </body>
            </html>

            """
    }

    /// `<root>/index.html`: every show, with its cover, episodes, size and newest episode.
    static func root(_ shows: [SiteShow]) -> String {
        var items = ""
        for show in shows {
            let name = show.folder.lastPathComponent
            let cover =
                show.cover.map {
                    "<img src=\"\(SitePath.href(name + "/" + $0))\" alt=\"\" width=\"80\" height=\"80\">"
                } ?? ""
            let newest = show.newest.map { " · newest \(SiteFormat.day($0))" } ?? ""
            items += """
                <li class="show" data-search="\(HTMLText.escape(show.title.lowercased()))">\(cover)<div>
                <h2><a href="\(SitePath.href(name + "/" + ArchiveLayout.sitePage))">\(HTMLText.escape(show.title))</a></h2>
                <p class="meta">\(SiteFormat.count(show.episodes.count)) · \(SiteFormat.size(show.bytes))\(newest)</p>
                </div></li>

                """
        }
        let body = """
            <header><h1>Podcast archive</h1>
            <p class="muted">\(shows.count) show\(shows.count == 1 ? "" : "s") · <a href="\(ArchiveLayout.siteOPML)">OPML of their feeds</a></p></header>
            <main>\(SiteSearchPage.markup)
            <label for="filter">Filter shows</label><input id="filter" type="search" autocomplete="off">
            <ul class="shows">
            \(items)</ul><p id="none" hidden>No show matches.</p></main>
            """
        return document(title: "Podcast archive", body: body, search: true)
    }

    /// `<show>/index.html`: the episodes newest first, each playable from its archived file.
    static func show(_ show: SiteShow) -> String {
        var items = ""
        for episode in show.episodes {
            var meta: [String] = []
            if let published = episode.published {
                meta.append("<time datetime=\"\(FeedDate.iso8601(published))\">\(SiteFormat.day(published))</time>")
            }
            if let duration = episode.duration, duration > 0 { meta.append(SiteFormat.duration(duration)) }
            meta.append(SiteFormat.size(episode.entry.size))
            if let removed = episode.entry.removedUpstream {
                meta.append(
                    "<span class=\"badge removed\">removed upstream \(HTMLText.escape(String(removed.prefix(10))))</span>"
                )
            }
            // Away on purpose: said as such (where it went is the archive's business, not the site's readers'),
            // with nothing to play or download.
            if let away = episode.entry.away {
                let words =
                    switch away.state {
                    case .offloaded: "offloaded"
                    case .deleted: "deleted by retention"
                    case .handedOff: "handed off"
                    }
                meta.append(
                    "<span class=\"badge away\">\(words) \(HTMLText.escape(String(away.since.prefix(10))))</span>")
            }
            let href = SitePath.href(episode.entry.file)
            let player = SiteFormat.isVideo(episode) ? "video" : "audio"
            var links = episode.entry.isHere ? ["<a href=\"\(href)\" download>Download</a>"] : []
            for companion in episode.entry.companions ?? [] where companion.kind != "artwork" && episode.entry.isHere {
                let label =
                    companion.kind == "transcript"
                    ? "Transcript" + (companion.language.map { " (\(HTMLText.escape($0)))" } ?? "") : "Chapters"
                links.append("<a href=\"\(SitePath.href(companion.file))\">\(label)</a>")
            }
            let notes = episode.notes
            // Notes kept from the feed's history, of an episode its publisher removed, say where they come from.
            let summary =
                episode.entry.removedUpstream == nil
                ? "Show notes"
                : "Show notes<span class=\"muted\">, as the feed said them"
                    + (episode.notesFrom.map { " on \(SiteFormat.day($0))" } ?? "") + " before they were removed</span>"
            items += """
                <li id="\(SiteSearch.anchor(episode.entry))" data-search="\(HTMLText.escape(episode.title.lowercased()))"><article>
                <h2>\(HTMLText.escape(episode.title))</h2>
                <p class="meta">\(meta.joined(separator: " · "))</p>
                \(episode.entry.isHere ? "<\(player) controls preload=\"none\" src=\"\(href)\"></\(player)>" : "")
                \(links.isEmpty ? "" : "<p>\(links.joined(separator: " · "))</p>")
                \(notes.isEmpty ? "" : "<details><summary>\(summary)</summary><div class=\"notes\">\(notes)</div></details>")
                </article></li>

                """
        }
        let newest = show.newest.map { " · newest \(SiteFormat.day($0))" } ?? ""
        let cover =
            show.cover.map { "<img src=\"\(SitePath.href($0))\" alt=\"\" width=\"80\" height=\"80\">" } ?? ""
        let body = """
            <header><p><a href="../\(ArchiveLayout.sitePage)">All shows</a></p>
            <div class="show">\(cover)<h1>\(HTMLText.escape(show.title))</h1></div>
            \(show.about.isEmpty ? "" : "<div class=\"notes\">\(show.about)</div>")\(show.website.map { "<p><a href=\"\(HTMLText.escape($0, attribute: true))\" rel=\"noopener noreferrer\">The show's web site</a></p>" } ?? "")
            <p class="muted">\(SiteFormat.count(show.episodes.count)) · \(SiteFormat.size(show.bytes))\(newest) · <a href="\(ArchiveLayout.siteFeed)">Podcast feed</a></p></header>
            \(years(show))<main><label for="filter">Filter episodes</label><input id="filter" type="search" autocomplete="off">
            <ol>
            \(items)</ol><p id="none" hidden>No episode matches.</p></main>
            """
        return document(title: show.title, body: body)
    }
}

extension SitePages {
    /// The years a show's episodes were published in, newest first, each a link to its newest episode; nothing
    /// for a show of one year.
    static func years(_ show: SiteShow) -> String {
        var firsts: [(year: String, anchor: String)] = []
        for episode in show.episodes {
            guard let published = episode.published else { continue }
            let year = String(SiteFormat.day(published).prefix(4))
            if !firsts.contains(where: { $0.year == year }) { firsts.append((year, SiteSearch.anchor(episode.entry))) }
        }
        guard firsts.count > 1 else { return "" }
        let links = firsts.map { "<a href=\"#\($0.anchor)\">\($0.year)</a>" }.joined()
        return "<nav class=\"years\" aria-label=\"Years\">\(links)</nav>\n"
    }
}

/// Relative links to files in the archive, each path segment percent-encoded (a `:` too, so that no file name
/// reads as a scheme).
enum SitePath {
    private static let allowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*+,;=@")

    static func href(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        }.joined(separator: "/")
    }
}

/// How the pages write numbers and dates.
enum SiteFormat {
    static func day(_ date: Date) -> String { String(FeedDate.iso8601(date).prefix(10)) }

    static func count(_ episodes: Int) -> String { "\(episodes) episode\(episodes == 1 ? "" : "s")" }

    /// In the command line's words (`SyncFormatter.size`): 980 B, 554.0 kB.
    static func size(_ bytes: Int64) -> String { ByteCount.text(bytes) }

    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    static func isVideo(_ episode: SiteEpisode) -> Bool {
        if let type = episode.type?.lowercased() { return type.hasPrefix("video/") }
        let ext = (episode.entry.file as NSString).pathExtension.lowercased()
        return ["mp4", "m4v", "mov", "webm", "mkv"].contains(ext)
    }
}
