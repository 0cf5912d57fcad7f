// The options a show keeps: how its files are named, what is kept beside them, which episodes it takes.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum SettingOptions {
    /// Every option of this file, in the order help and the man page list them.
    /// The settings a show keeps of how its episodes are named and kept, and which it takes: what `sync` and `add`
    /// take, in help order.
    static func saved<Root: CarriesShowSettings>() -> [BoundOption<Root>] {
        [name.setting(), asciiNames.setting(), folderName.setting(), metadata.setting(), noCompanions.setting()]
            + [companions.setting(), noMetadata.setting()] + filters() + [all.setting(), clear.setting()]
    }

    /// The settings that choose which episodes are taken: what `list` takes too.
    static func filters<Root: CarriesShowSettings>() -> [BoundOption<Root>] {
        [limit.setting(), since.setting(), match.setting(), exclude.setting()] + FilterOptions.bound()
    }

    static let declared: [OptionDescriptor] =
        [
            name.descriptor, asciiNames.descriptor, folderName.descriptor, metadata.descriptor, noCompanions.descriptor,
            companions.descriptor,
            noMetadata.descriptor,
            limit.descriptor, since.descriptor, match.descriptor, exclude.descriptor,
        ] + FilterOptions.declared + [all.descriptor, clear.descriptor]

    static let folderName: Option<String> = .value(
        "--folder-name", "TEMPLATE", .ruled(ShowSettings.checkFolderName, keep: { $0.text }),
        help: #"""
            name the folder of a show seen for the first time after <TEMPLATE> (default `{title}`): `{title}`,
            `{author}` (`itunes:author`), `{host}` (the feed URL's host); one folder, no '/'; a saved setting

            `--folder-name '{author} - {title}'` files *The Show* by *Jane Doe* in `Jane Doe - The Show/`; a field the
            feed does not give takes the text beside it along, so a show without an author is in `The Show/`. With
            `--ascii-names` the folder's name is in ASCII too. A show already archived keeps its folder, whatever the
            template says (its subscription remembers the folder); two shows that come out with one name are kept
            apart as two shows of one title are (`The Show (2)`). The configuration file may set it for every new
            show (`folder-name = {author} - {title}`). An unknown field, an unmatched brace or a '/' is a usage
            error (exit 2).
            """#,
        completion: .words(["{title}", "{author} - {title}"]), saved: .show(.folderName), config: true,
        describe: { $0.text(of: .folderName).map(ShellWord.quoted) }, setting: { $0[.folderName] = .text($1) })
    static let asciiNames: Option<Bool> = .flag(
        "--ascii-names",
        help: #"""
            name new files in ASCII only: other scripts transliterated, accents stripped, anything left made `_`; a
            saved setting

            For players, file systems and sync tools that mangle other characters: *Café crème — Ép. 3* is *Cafe creme
            - Ep. 3.mp3*, *Привет* is *Privet.mp3*. The folder of a show seen for the first time is named in ASCII
            too. Files archived before keep their names until `podarchive rename` gives them theirs;
            `--clear ascii-names` turns it off.
            """#, saved: .show(.asciiNames), config: true, describe: { $0[.asciiNames] == .flag(true) ? "" : nil },
        setting: { $0[.asciiNames] = .flag(true) })
    static let name: Option<Written<NameTemplate>> = .value(
        "--name", "TEMPLATE", .template,
        help: #"""
            name new files after <TEMPLATE> (default `{title}`): `{title}`, `{date}` (YYYY-MM-DD), `{feed}`,
            `{episode}`, `{season}` (`{episode:03}` pads), `{number}` (stable), `{guid}` (8-digit hash); '/' makes
            subfolders; a field with no value drops the text around it up to the next separator; each part is made a
            safe name, so no value can leave the feed folder; archived files keep their names (`podarchive rename`
            gives them the new ones)

            `{title}` is the episode's title, else the enclosure's file name, else the GUID; `{date}` its publication
            date (UTC), or as a format says with strftime's codes `%Y %y %m %d %H %M %S %j %b %B %%`
            (`{date:%Y.%m.%d}`, `{date:%d %b %Y}`); `{year}`, `{month}` and `{day}` its parts (`{year}/{date}
            {title}` files each year in a folder); `{episode}` and `{season}` are the iTunes numbers, else the
            Podcasting 2.0 ones (`{episode:03}` pads with zeros to three digits); `{number}` is the archive's own
            number for the episode, given once when podarchive first sees it and never changed by what the publisher
            deletes or renumbers (the back catalogue, and a show first named with `{number}`, numbered by
            publication date, oldest first: `{number:04} {title}`); `{guid}` is eight hexadecimal digits of a hash of
            the GUID, stable across runs. A field the feed
            does not give takes the literal text around it along, up to the neighbouring field or the end of its part,
            so an episode without a season gets no folder named `Season`. A template ending in an extension
            (`{title}.mp3`) gets the file's real extension once. A `/` starts a subfolder, as in `Season
            {season}/{episode:03} {title}`; a part that comes out empty is left out. Each part is made a safe name after
            it is filled in, so a title such as `../../x` becomes `x`; no value can add a folder level. An unknown
            field, an unmatched brace, a leading `/`, or an empty, `.` or `..` part is a usage error (exit 2). Write
            `{{` and `}}` for literal braces.
            """#,
        completion: .words(["{title}", "{date} {title}", "{episode:03} {title}"]), saved: .show(.name),
        config: true,
        describe: { $0.name.map(ShellWord.quoted) },
        setting: { $0.name = $1.text })
    static let metadata: Option<Bool> = .flag(
        "--metadata",
        help: #"""
            write sidecars: `<file stem>.info.json` beside each file (title, description, GUID, URLs, dates, duration,
            numbers, size, SHA-256); files archived earlier get theirs on the next run (the feed's artwork,
            `cover.<ext>`, is kept by every sync)

            The sidecar is named after the file with `.info.json` in place of its extension (*Pilot.mp3* has
            *Pilot.info.json*); it holds the episode's title, description (show notes, as the feed gives them), GUID,
            enclosure URL, web page, image, publication date, duration in seconds, episode and season numbers, MIME
            type, the feed's title and URL, and the file's name, size, SHA-256 and archive date; absent values are left
            out. Files archived before `--metadata` was first given get their sidecars the next time the feed has
            changed. The show's artwork is kept by every sync, with or without `--metadata`, as *cover.jpg*,
            *cover.png*, *cover.webp* or *cover.gif*, at most 20 MB like a transcript; delete it to fetch it again. An
            artwork that cannot be fetched is reported on standard error and tried again next run; it does not change
            the exit status.
            """#, excludes: ["--no-metadata"], saved: .show(.metadata),
        config: true,
        describe: { $0.metadata == true ? "" : nil },
        setting: { $0.metadata = true })
    static let noCompanions: Option<Bool> = .flag(
        "--no-companions",
        help: #"""
            keep no transcripts, chapters, artwork or show cover (a saved setting; `--companions` turns them back on)

            The show's cover is still kept with `--metadata`.
            """#, excludes: ["--companions"], saved: .show(.companions),
        config: true,
        describe: { $0.companions == false ? "" : nil },
        setting: { $0.companions = false })
    static let companions: Option<Bool> = .flag(
        "--companions",
        help: #"""
            keep each episode's transcripts and chapters beside it, and with `--metadata` its artwork (the default;
            turns a saved `--no-companions` off)

            Transcripts (*Pilot.en.srt*, *Pilot.transcript.vtt*), chapters (*Pilot.chapters.json*, Podlove Simple
            Chapters converted) and artwork (*Pilot.png*, when it is not the show's cover) are fetched like episodes,
            within `--timeout`, at most 20 MB each (counted as the body arrives, decompressed; a larger one is stopped
            there and nothing of it kept), dated like them, recorded with their SHA-256 and rechecked by `verify`. One
            that fails is reported and tried again next run; it never fails its episode. `--no-companions` keeps none;
            either is a saved setting.
            """#, excludes: ["--no-companions"],
        saved: .show(.companions), config: true,
        describe: { $0.companions == true ? "" : nil }, manualAlso: ["--no-companions"],
        setting: { $0.companions = true })
    static let noMetadata: Option<Bool> = .flag(
        "--no-metadata",
        help: #"""
            write no sidecars (turns a saved `--metadata` off)
            """#, excludes: ["--metadata"],
        saved: .show(.metadata), config: true, describe: { $0.metadata == false ? "" : nil },
        setting: { $0.metadata = false })
    static let limit: Option<Int> = .value(
        "--limit", "N", .episodes,
        help: #"""
            only the newest <N> episodes (undated ones count as oldest)

            With `search`: at most <N> shows (1 to 200; 10 unless given).
            """#,
        helpFor: ["search": "at most N shows (1 to 200; 10 unless given)"], saved: .show(.limit),
        describe: { $0.limit.map { "\($0)" } },
        setting: { $0.limit = $1 })
    static let since: Option<Written<Date>> = .value(
        "--since", "DATE", .date,
        help: #"""
            only episodes published on or after <DATE> (2025-01-31, or RFC 3339)

            Undated episodes are left out.
            """#, saved: .show(.since),
        describe: { $0.since },
        setting: { $0.since = $1.text })
    static let match: Option<String> = .value(
        "--match", "REGEX", .pattern,
        help: #"""
            only episodes whose title matches <REGEX> (prefix `(?i)` to ignore case)

            A sync with a filter keeps earlier failures of the episodes it leaves out, for a sync that selects them.
            """#, saved: .show(.match),
        describe: { $0.match.map(ShellWord.quoted) },
        setting: { $0.match = $1 })
    static let exclude: Option<String> = .value(
        "--exclude", "REGEX", .pattern,
        help: #"""
            no episode whose title matches <REGEX> (prefix `(?i)` to ignore case): the opposite of `--match`; a saved
            setting

            With `--match`, an episode is taken when its title matches one and not the other. Untitled episodes are
            kept. The configuration file may set it for every show (`exclude = (?i)trailer`).
            """#, saved: .show(.exclude), config: true, describe: { $0.exclude.map(ShellWord.quoted) },
        setting: { $0.exclude = $1 })
    static let all: Option<Bool> = .flag(
        "--all",
        help: #"""
            every episode the feed lists: turns a saved `--limit`, `--since`, `--until`, `--match`, `--exclude`,
            `--match-in`, `--min-duration`, `--max-duration` and `--episodes` off (saved so with the feeds named; for
            that run only with `podarchive sync` alone)

            A sync whose filter leaves listed episodes out says how many in its summary line (and as `leftOut` in
            `--json`), and, for a saved filter, how to clear it.
            """#,
        excludes: ["--limit", "--since", "--match", "--exclude"] + FilterOptions.declared.map(\.name),
        setting: { $0 = $0.overlaid(by: .everyEpisode) })
    static let clear: Option<ShowSettings.Key> = .value(
        "--clear", "NAME", .settingName,
        help: """
            forget the show's saved setting <NAME> \
            (\(ShowSettings.Key.allCases.map(\.spelled).joined(separator: ", "))), so the configuration file's
            value, else the default, applies again; saved so with the feeds named, for that run only with
            `podarchive sync` alone; may be given more than once

            <NAME> is the long name of the option that sets it, without its dashes, as the configuration file writes
            it: `limit` for `--limit`, `user-agent` for `--user-agent`. The show's other saved settings stay.
            """,
        completion: .words(ShowSettings.Key.allCases.map(\.spelled)),
        setting: { $0.cleared = ($0.cleared ?? []).union([$1]) })
}

extension ShowSettings.Key {
    /// The setting as the options and the configuration file name it: `user-agent` for `userAgent`.
    var spelled: String {
        // The raw values are ASCII camel case: a capital starts a word.
        rawValue.reduce(into: "") { name, character in
            name += ("A"..."Z").contains(character) ? "-" + character.lowercased() : String(character)
        }
    }
}

extension ValueParser where Value == ShowSettings.Key {
    /// A show setting's name, as the options spell it.
    static let settingName = ValueParser.checked(
        "one of " + ShowSettings.Key.allCases.map(\.spelled).joined(separator: ", ")
    ) { text in ShowSettings.Key.allCases.first { $0.spelled == text } }
}
