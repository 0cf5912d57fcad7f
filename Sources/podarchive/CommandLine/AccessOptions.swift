// The options that say how a host is reached (headers, logins, User-Agent, bandwidth) and how the site is published.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum AccessOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [
        headers.descriptor, netrcFile.descriptor, userAgent.descriptor, limitRate.descriptor, baseURL.descriptor,
        out.descriptor, noOut.descriptor, site.descriptor, noSite.descriptor,
    ]

    static let headers: Option<String> = .value(
        "--header", "HEADER", .header,
        help: #"""
            send <HEADER> ('Name: value': a cookie, `Authorization: Bearer` <TOKEN>, a Referer) with every request to
            the feed's own scheme, host and port, never elsewhere, not even after a redirect; repeatable; saved with the
            show (readable by you only) and replacing the headers saved before

            The feed's origin gets it for the feed, its pages, and every episode, transcript, chapters and artwork file
            there. With `sync` and `add` it is saved in the show's subscription record, only for feeds named on the
            command line. A login in the feed URL (*https://user:password@host/feed*) is treated the same way: sent as
            HTTP Basic to that origin only, saved, and never kept or shown in a URL.
            """#,
        helpFor: ["list": "send this header with every request to the feed's own scheme, host and port"],
        saved: .showCredentials)
    static let netrcFile: Option<String> = .value(
        "--netrc-file", "FILE", .path,
        help: #"""
            read logins from <FILE> (the `.netrc` format of curl and wget: `machine` <HOST> `login` <USER> `password`
            <PW>) instead of `~/.netrc`, which is read when it exists; each login goes to the host it names; a saved
            setting (the path, never the passwords)

            `default` lines are read as curl reads them. A file named here that cannot be read is a usage error (exit
            2).
            """#, completion: .file, saved: .show(.netrcFile), config: true,
        describe: { $0.netrcFile },
        setting: { $0.netrcFile = $1 })
    static let userAgent: Option<String> = .value(
        "--user-agent", "STRING", .userAgent,
        help: #"""
            send <STRING> as the User-Agent (default `podarchive/`<VERSION>) for hosts that refuse unknown clients; a
            saved setting
            """#, saved: .show(.userAgent), config: true,
        describe: { $0.userAgent.map(ShellWord.quoted) },
        setting: { $0.userAgent = $1 })
    static let limitRate: Option<Int64?> = .value(
        "--limit-rate", "RATE", .rate,
        help: #"""
            cap the bandwidth: read at most <RATE> bytes a second in all, across shows and downloads (500K, 2M; at least
            1K), as wget and curl do: for a nightly run on a shared connection; 0 for no limit (over the configuration
            file's)

            With `verify`, it is the pace of `--repair`'s downloads.
            """#, config: true)
    static let baseURL: Option<String> = .value(
        "--base-url", "URL", .webURL,
        help: #"""
            the <URL> the archive root is served at (`http://nas.local/podcasts/`): each `feed.xml` then points at its
            files with absolute URLs, as podcast apps on other machines need (else relative ones); saved for the syncs
            that refresh the site
            """#, saved: .archive)
    static let out: Option<String> = .value(
        "--out", "DIR", .text,
        help: #"""
            publish into a folder of its own: write the pages and feeds into <DIR> instead of the archive root, with
            every archived file they name linked into it (hard links, else symbolic links, else copies), so a server
            serves <DIR> and never sees the archive's own `.podarchive` folders; saved for the syncs that refresh the
            site, until `--no-out`

            <DIR> is the site's: a folder in it that is a symbolic link is refused, naming it, and what the site
            published there that the archive no longer holds (a forgotten episode, a show gone) is removed and said; a
            file the site did not write is never removed.
            """#,
        completion: .directory, excludes: ["--no-out"], saved: .archive)
    static let noOut: Option<Bool> = .flag(
        "--no-out",
        help: #"""
            forget a saved `--out`: the site is written in the archive root again (what was published in the folder
            stays there)
            """#, excludes: ["--out"],
        saved: .archive)
    static let site: Option<Bool> = .flag(
        "--site",
        help: #"""
            after syncing, write the archive's web pages and podcast feeds again (as `podarchive site` does); a setting
            of the archive, saved: every later sync does it too (`--no-site` stops)
            """#,
        excludes: ["--no-site"], saved: .archive, manualAlso: ["--no-site"])
    static let noSite: Option<Bool> = .flag(
        "--no-site", sets: false,
        help: #"""
            turn a saved `--site` off
            """#, excludes: ["--site"], saved: .archive)
}
