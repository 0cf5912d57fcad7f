// Each command's paragraphs in the man page's COMMANDS, in roff, written by hand: ManualPage puts them under the
// command's name and summary, which come from the command's declaration.

enum CommandProse {
    /// The roff under each command's heading, by command name.
    static let text: [String: String] = [
        "sync": #"""
        Downloads every episode of
        .I feed
        not archived yet into
        .IR dir / "feed title" /.
        Episodes that failed before, and files deleted by hand, are fetched again.
        The feed is asked for with If\-None\-Match and If\-Modified\-Since; when the server answers 304, only those
        are tried.
        An interrupted download resumes with a Range request when its server named its version (ETag or
        Last\-Modified), takes ranges and sent it as it is; one sent compressed starts again.
        A sync locks its feed folder with
        .BR flock (2),
        so two syncs of one feed never run at once.
        With no
        .I feed
        (and no
        .B \-\-opml
        or
        .BR \-\-feeds ),
        it syncs every show
        .I dir
        is subscribed to.
        A feed synced is subscribed, and the show settings given with it (see
        .BR "SHOW SETTINGS" )
        are saved with it.
        Each show syncs with the options on the command line, else its saved settings, else the defaults.
        Up to
        .B \-\-feed\-jobs
        shows sync at once; each show's lines are printed together, in subscription order.
        """#,
        "add": #"""
        Subscribes
        .I dir
        to each
        .I feed
        without downloading anything: the feed is read, its folder chosen and created, and the settings given saved
        with it, merged into those saved before as
        .B sync
        merges them (each one given replaces its saved value, the others stay;
        .B \-\-clear
        forgets one).
        A feed that cannot be read is not subscribed (exit 3).
        .IP
        .B sync
        and
        .B add
        also take a show's web page or its Apple Podcasts link.
        A page (told from its bytes, not its URL) is followed to the feed its head names with
        .BR "<link rel=\(dqalternate\(dq>" ;
        of several, the first that reads as a feed with at least one episode, the others listed with
        .BR \-\-verbose .
        An Apple Podcasts link
        .RI ( https://podcasts.apple.com/ country /podcast/ slug /id N,
        or an episode's, with
        .BR ?i= )
        is looked up with the iTunes lookup API and its
        .B feedUrl
        followed the same way.
        The feed's URL is what is saved.
        An address is read as a feed first, and followed as a page only when it sends no feed.
        A page is never sent the login or headers given with it: an address given with a login or
        .B \-\-header
        is read first without them, and they bind to the feed's origin, never the page's.
        A page that names no feed, or a link the directory cannot resolve, is one line naming it, exit 3.
        """#,
        "search": #"""
        Asks the podcast directory (Apple Podcasts) for shows matching the
        .IR term s
        and prints each one's title, author, episode count and feed URL, which
        .B add
        and
        .B sync
        take as it is.
        No show found is said on standard error (exit 0); a directory that cannot be asked or answers with anything
        but its JSON is exit 3.
        """#,
        "remove": #"""
        Unsubscribes each show, named by its feed URL or its folder's name.
        No file is deleted.
        An unknown show is a usage error (exit 2).
        """#,
        "forget": #"""
        Forgets episodes of a show for good.
        The show is named by its folder's name, its title or its feed URL; each episode by its title, its GUID or its
        file's name.
        Each episode's file, companions and sidecar are deleted (not with
        .BR \-\-keep\-files )
        and its entry leaves the index: kept in
        .I show/.podarchive/forgotten.json
        instead, the episode is never fetched again, even while the feed lists it;
        .B verify
        no longer looks for it, the site no longer lists it, and
        .B list \-\-archived
        no longer shows it.
        .B forget \-\-undo
        takes episodes back: a kept file is in the index again at once, else the next
        .B sync
        fetches them, whatever the show's saved filter leaves out.
        It holds the show's lock as a sync does
        .RB ( \-\-wait ).
        A name that matches no episode, or several, is a usage error (exit 2) and nothing changes; an episode
        forgotten already is said to be (exit 0).
        A forget killed part way is finished by the next command that takes the show's lock to write (a plain
        .B verify
        changes nothing).
        An older podarchive does not know the record and fetches forgotten episodes again.
        """#,
        "feeds": #"""
        Lists the subscriptions in the order they were added: each show's title, episodes and bytes archived, the
        newest episode's date, episodes failing or gone upstream, and when and how its last sync ended, then its feed
        and folder, and the URL a subscription replaced when another URL of the show took it over (with the
        .B add \-\-separate
        that keeps both).
        Here and in
        .BR sync 's
        lines a show whose folder is not named after its title alone (a second show of one title, in
        .IR "Title (2)" )
        is named with its folder,
        .IR "Title (in Title (2)/)" .
        With
        .BR \-\-json ,
        one JSON object; with
        .BR \-\-opml ,
        OPML 2.0, which podcast apps and
        .B sync \-\-opml
        read back.
        Feed URLs in the OPML are redacted (a token's value is REDACTED); a redacted URL read back by
        .B sync \-\-opml
        or
        .B add
        is matched to the subscription it stands for, and otherwise named and skipped (exit 3), never fetched.
        .B \-\-include\-secrets
        writes each URL whole, with its login and token (not its headers), to move subscriptions to another app.
        """#,
        "list": #"""
        Prints the episodes of
        .I feed
        in document order without downloading anything, then those of the further pages and archive documents it
        links to, each episode once (see
        .BR \-\-first\-page ).
        """#,
        "verify": #"""
        Rechecks every archived file in
        .I dir
        (a feed folder, or an archive root holding feed folders; default: the archive root) against the size and
        SHA\-256 its index recorded, and lists each file that is missing, resized or changed; also each damaged
        record of a show's index journal, and two index entries that name one file or one GUID (which
        .B \-\-repair
        leaves alone, exit 5).
        An archive it may read but not write (a read\-only mount) is checked with each show's lock taken on its lock
        file as it is, or, with no lock file, without the lock, said once on standard error;
        .B \-\-repair
        there stops with exit 5, naming the lock file.
        """#,
        "site": #"""
        Writes the archive's web pages and podcast feeds from what it holds, without the network:
        .IR dir /index.html
        (every show, with its cover, episodes, size and newest episode),
        .IR dir /feeds.opml,
        and in each show's folder
        .B index.html
        (its episodes newest first, each with a player of the archived file, its date, duration, size, show notes,
        transcripts and chapters, and a filter box) and
        .B feed.xml
        (RSS 2.0 with iTunes tags: one item per archived episode with its original GUID, and an enclosure pointing
        at the archived file, so any podcast app can subscribe to the archive).
        The pages load nothing from elsewhere and work opened as files or served by any static server.
        Show notes go through an allow\-list: no script, frame, object, style, event handler or
        .BR javascript: / data:
        link survives, and remote images become links.
        Each page is replaced whole; a show whose index has not changed is left alone.
        With
        .BI \-\-out " dir"
        (saved), the pages go into
        .I dir
        instead, with every archived file they name linked into it (hard links where the file system allows, else
        symbolic links, else copies; a line says how many of each), so a server can serve
        .I dir
        and never see the archive's
        .I .podarchive
        folders, whose records a reader has no use for.
        Serving the archive root itself needs a server that refuses dot\-files;
        .B python3 \-m http.server
        does not.
        """#,
        "export": #"""
        Writes the archive in
        .I dir
        (default: the archive root), or the shows named with
        .BR \-\-show ,
        as one WARC 1.1 file (ISO 28500), the format the Internet Archive and national libraries take: a
        .B warcinfo
        record; for each archived episode, transcript, chapters and artwork file a
        .B resource
        record with the URL it was fetched from (logins and tokens redacted, as the archive keeps it), when it was
        fetched, its type, length and SHA\-1 digests (base32, as the web archives index them); each episode's
        .I .info.json
        sidecar as a
        .B metadata
        record referring to it; and every kept revision of each feed.
        The archive keeps no HTTP status or headers, so no
        .B response
        records are written.
        Each file is read twice, in chunks (once to hash it, once to copy it), so memory stays small whatever the
        files' sizes.
        On a terminal a progress line is redrawn in place.
        A failure (a file that cannot be read, a full disk) leaves nothing under the export's name, and Ctrl\-C
        stops it the same way.
        A file inside a show's folder is refused (exit 2): it could take an archived file's place.
        """#,
        "credentials": #"""
        Says, for each show with a secret (a login,
        .B \-\-header
        values, a feed URL carrying a token), where it is kept: a 0600 file in the configuration folder's
        .I credentials/
        (0700), named by the archive's ID and the show's.
        An archive written by an earlier podarchive keeps them inside the archive, in its subscription records, where
        anyone the archive is served or copied to can read them; every sync then uses them and says so once.
        .B \-\-move
        writes them to the configuration folder, then deletes them from the records and redacts the URLs in the
        shows' sidecars, history and download records.
        Every machine that syncs the archive then needs the same configuration folder (see
        .BR PODARCHIVE_CONFIG_DIR ).
        A show whose secrets the configuration folder lacks fails with a message naming it and the file expected
        (exit 3); the other shows still sync.
        """#,
        "config": #"""
        Prints every setting the configuration file may set, as that file would say it
        .RB ( "key = value" ),
        with the value a run uses and, in a comment, where it comes from:
        .B command line
        (the options given to
        .B config
        itself),
        .B saved
        (with
        .IR show ,
        a folder name or feed URL: that show's saved settings),
        .B environment
        .RB ( $PODARCHIVE_DIR
        for
        .BR to ),
        .BI "config file:" line\fR,
        or
        .BR default .
        With
        .BR \-\-json ,
        one JSON object (see
        .BR \-\-json ).
        See
        .B CONFIGURATION FILE
        below.
        """#,
        "completions": #"""
        Prints the completion script for
        .BR bash ,
        .B zsh
        or
        .BR fish ,
        made from the same table of options the parser uses
        .RB ( "make install"
        installs all three).
        """#,
        "help": #"""
        Shows help for a command.
        """#,
    ]
}
