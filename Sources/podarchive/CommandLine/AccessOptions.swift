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
        summary: "a header for the feed's host (repeatable)",
        help: "send HEADER, 'Name: value' (a cookie, Authorization: Bearer TOKEN, a Referer), with every request "
            + "to the feed's own scheme, host and port, never elsewhere, not even after a redirect; repeatable; "
            + "saved with the show (readable by you only) and replacing the headers saved before",
        helpFor: ["list": "send this header with every request to the feed's own scheme, host and port"],
        saved: .showCredentials,
        manual: #"""
            With
            .BR sync ,
            .B add
            and
            .BR list :
            send this header (a cookie, \fBAuthorization: Bearer\fR \fItoken\fR, a Referer a host wants) with every
            request to the feed's own scheme, host and port: the feed, its pages, and every episode, transcript, chapters
            and artwork file there; never to another host, not even after a redirect.
            Repeatable.
            With
            .B sync
            and
            .BR add ,
            saved with the show (in its subscription record, readable by you only), replacing the headers saved before;
            only for feeds named on the command line.
            A login in the feed URL
            .RI ( https://user:password@host/feed )
            is treated the same way: sent as HTTP Basic to that origin only, saved, and never kept or shown in a URL.
            """#)
    static let netrcFile: Option<String> = .value(
        "--netrc-file", "FILE", .path,
        summary: "logins by host from FILE",
        help: "read logins from FILE (the .netrc format of curl and wget: machine HOST login USER password PW) "
            + "instead of ~/.netrc, which is read when it exists; each login goes to the host it names; a saved "
            + "setting (the path, never the passwords)", completion: .file, saved: .show(.netrcFile), config: true,
        describe: { $0.netrcFile },
        manual: #"""
            Read logins from
            .I file
            (the
            .B .netrc
            format of curl and wget:
            .BI machine " host " login " user " password " password" ,
            and
            .BR default )
            instead of
            .IR ~/.netrc ,
            which is read whenever it exists.
            Each login goes to the host it names, as in curl.
            With
            .B sync
            and
            .BR add ,
            the path is saved with the show; the passwords stay in the file.
            A file named here that cannot be read is a usage error (exit 2).
            """#,
        setting: { $0.netrcFile = $1 })
    static let userAgent: Option<String> = .value(
        "--user-agent", "STRING", .userAgent,
        summary: "the User-Agent to send",
        help: "send STRING as the User-Agent (default podarchive/VERSION) for hosts that refuse unknown "
            + "clients; a saved setting", saved: .show(.userAgent), config: true,
        describe: { $0.userAgent.map(ShellWord.quoted) },
        manual: #"""
            Send
            .I string
            as the User\-Agent instead of
            .BR podarchive/ \fIversion\fR,
            for hosts that refuse clients they do not know.
            With
            .B sync
            and
            .BR add ,
            a saved setting.
            """#,
        setting: { $0.userAgent = $1 })
    static let limitRate: Option<Int64?> = .value(
        "--limit-rate", "RATE", .rate, summary: "cap the bandwidth",
        help: "read at most RATE bytes a second in all, across shows and downloads (500K, 2M; at least 1K), "
            + "as wget and curl do: for a nightly run on a shared connection; 0 for no limit (over the "
            + "configuration file's)", config: true,
        manual: #"""
            With
            .B sync
            and
            .BR "verify \-\-repair" :
            read at most
            .I rate
            bytes a second in all, across every show and download of the run
            .RB ( 500K ,
            .BR 2M ;
            at least 1K), as wget and curl do; for a nightly run on a connection others share.
            .B 0
            means no limit, over the configuration file's
            .BR limit\-rate .
            """#)
    static let baseURL: Option<String> = .value(
        "--base-url", "URL", .webURL, summary: "the archive's public URL",
        help: "the URL the archive root is served at (http://nas.local/podcasts/): each feed.xml then points at "
            + "its files with absolute URLs, as podcast apps on other machines need; saved for the syncs that "
            + "refresh the site", saved: .archive,
        manual: #"""
            With
            .BR site :
            the URL the archive root is served at
            .RB ( http://nas.local/podcasts/ );
            each
            .B feed.xml
            then points at its files with absolute URLs, as podcast apps on other machines need (without it, relative).
            Saved for the syncs that refresh the site.
            """#)
    static let out: Option<String> = .value(
        "--out", "DIR", .text, summary: "publish into a folder of its own",
        help: "write the pages and feeds into DIR instead of the archive root, with every archived file they "
            + "name linked into it (hard links, else symbolic links, else copies), so a server serves DIR and "
            + "never sees the archive's own .podarchive folders; saved for the syncs that refresh the site. "
            + "DIR is the site's: a folder in it that is a symbolic link is refused, and what the site "
            + "published there that the archive no longer holds is removed (never a file it did not write)",
        completion: .directory, excludes: ["--no-out"], saved: .archive,
        manual: #"""
            With
            .BR site :
            publish the site into
            .I dir
            (outside the archive), saved for the syncs that refresh it, until
            .BR \-\-no\-out .
            .I dir
            is the site's: a folder in it that is a symbolic link is refused, naming it, and what the site
            published there that the archive no longer holds (a forgotten episode, a show gone) is removed
            and said; a file the site did not write is never removed.
            """#)
    static let noOut: Option<Bool> = .flag(
        "--no-out", summary: "publish into the archive again",
        help: "forget a saved --out: the site is written in the archive root again", excludes: ["--out"],
        saved: .archive,
        manual: #"""
            With
            .BR site :
            forget a saved
            .BR \-\-out :
            the site is written in the archive root again (what was published in the folder stays there).
            """#)
    static let site: Option<Bool> = .flag(
        "--site", summary: "refresh the web pages after each sync",
        help: "after syncing, write the archive's web pages and podcast feeds again (as podarchive site does); "
            + "a setting of the archive, saved: every later sync does it too (--no-site stops)",
        excludes: ["--no-site"], saved: .archive, manualAlso: ["--no-site"],
        manual: #"""
            With
            .BR sync :
            write the site again after syncing, as
            .B podarchive site
            does; a setting of the archive, saved, so every later sync does it too, until
            .BR \-\-no\-site .
            """#)
    static let noSite: Option<Bool> = .flag(
        "--no-site", sets: false, summary: "stop refreshing the web pages",
        help: "turn a saved --site off", excludes: ["--site"], saved: .archive)
}
