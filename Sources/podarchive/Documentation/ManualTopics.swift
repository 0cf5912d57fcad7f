// The man page's reference topics, written by hand in roff, once: the files podarchive writes (checked against
// ArchiveLayout), how they are named, the index, when a download is complete, file dates. ManualPage puts them after
// CONFIGURATION FILE.

enum ManualTopics {
    /// FILES: every file podarchive writes, as ArchiveLayout names them.
    static let files = #"""
        The configuration folder
        .RI ( config
        below) is
        .BR $PODARCHIVE_CONFIG_DIR ,
        else
        .IR $XDG_CONFIG_HOME/podarchive ,
        else
        .IR ~/.config/podarchive .
        The archive root
        .RI ( root )
        is
        .BR \-\-to ,
        else
        .BR $PODARCHIVE_DIR ,
        else the configuration file's
        .BR to ,
        else
        .IR ~/Podcasts .
        .TP
        .IR config /config
        The configuration file (see
        .BR "CONFIGURATION FILE" ).
        .TP
        .IR config /credentials/ "archive.show" .json
        A private show's real feed URL, login and headers: 0600, in a 0700 folder.
        .TP
        .IR root /.podarchive/feeds/ id .json
        A subscription: its feed URL (redacted when it carries a token), folder, saved settings and last sync; no secret.
        .TP
        .IR root /.podarchive/archive.json
        The archive's ID (which keys its credentials in the configuration folder, wherever the archive is mounted)
        and the key of its hashes.
        .TP
        .IR root /.podarchive/site.json
        .BR "podarchive site" 's
        settings:
        .BR \-\-base\-url ,
        .BR \-\-out ,
        and whether sync refreshes the site.
        .TP
        .IR root /.podarchive/library.json
        The library folder sync --library refreshes after each sync (until --no-library).
        .TP
        .IR root /.podarchive/site\-published.json
        What
        .B site \-\-out
        published into its folder, so that stale files are removed.
        .TP
        .IR root /.podarchive/lock
        Locked while folders of the archive move.
        .TP
        .IR root /index.html ", " root /feeds.opml
        .BR "podarchive site" :
        every show, and their feeds.
        .TP
        .IR root / "feed title" /
        One folder per feed, named after its title (see
        .BR "FILE NAMES" ).
        .TP
        .IR show /index.html ", " show /feed.xml
        .BR "podarchive site" :
        the show's page and its podcast feed.
        .TP
        .IR show / "episode title" . ext
        An episode: its extension from the enclosure URL, else its MIME type;
        .IR "episode title (2)" . ext
        for a second episode with the same title; subfolders with
        .BR \-\-name .
        .TP
        .IR show / "episode title" .info.json ", " show /cover. ext
        With
        .BR \-\-metadata ,
        the episode's sidecar; always, the show's artwork
        .RB ( .jpg ", " .jpeg ", " .png ", " .webp ", " .gif :
        its bytes say).
        .TP
        .IR show / "episode title" .transcript.html.txt
        An HTML transcript, kept as text (never a live
        .BR .html ).
        .TP
        .IR show /.podarchive/index.json
        What is archived, and the episodes that failed (see
        .BR "THE INDEX" ).
        .TP
        .IR show /.podarchive/index.journal
        Episodes archived since the index was last written whole, one checksummed line each; folded into it when a
        sync or
        .B verify \-\-repair
        ends (so present only after a run was killed; see
        .BR "THE INDEX" ).
        .TP
        .IR show /.podarchive/downloads.log
        The show's download records, a line each: a download's validator (ETag or Last\-Modified), expected size and,
        once complete, its SHA\-256 and target name.
        An archive written by 0.1.0 has a
        .BI download\- hash .json
        record file per download instead; it is read as it is.
        .TP
        .IR show /.podarchive/download\- hash .part
        A download in progress, resumed by the next attempt.
        .TP
        .IR show /.podarchive/feed.json
        The feed's ETag and Last\-Modified, for the next conditional fetch; the archive documents read, when the feed
        was last read in full, what that sync wanted (a fingerprint of its filter) and left undone.
        .TP
        .IR show /.podarchive/history/ time .xml.gz ", " show /.podarchive/history/current.xml
        Each revision of the feed document, gzip\-compressed, every URL in it redacted (so a private feed's tokens are
        not kept); never overwritten: a later one within the same second is
        .IR time _002.
        .I current.xml
        (or
        .IR current.json )
        is the newest one as it was fetched.
        .TP
        .IR show /.podarchive/companions.json
        Companions (transcripts, chapters, artwork) that failed, and how often.
        .TP
        .IR show /.podarchive/hooks.json
        What the hook
        .RB ( \-\-exec )
        did for each episode.
        .TP
        .IR show /.podarchive/forgotten.json
        The episodes forgotten for good
        .RB ( forget ).
        .TP
        .IR show /.podarchive/numbers.json
        The number {number} gave each episode, by a hash of its key (only where a --name uses it).
        .TP
        .IR show /.podarchive/renames.json
        The renames a rename planned and has not finished: written first, finished by the next command that locks.
        .TP
        .IR show /.podarchive/credentials\-move.json
        The mark of a
        .B credentials \-\-move
        not finished in this show: written before the move's first effect, removed when no place in the show's folder
        holds a secret any more.
        .TP
        .IR show /.podarchive/site.stamp
        What the show's pages of the site were made from.
        .TP
        .IR show /.podarchive/lock
        Locked by the running sync
        .RB ( flock (2));
        holds its process ID, then how the show's last sync ended (one JSON line, written in place, so a run with
        nothing new rewrites no file).
        .TP
        .IR show /.podarchive/damaged\- name
        A damaged file a repair keeps aside for the instant of the rename that replaces it.
        .TP
        .BI . name .tmp\- host . pid ...
        The temporary file of an atomic write of
        .IR name ,
        naming the host and process that write it: a later run removes what a killed one left (under a show's lock,
        anything of the show's; elsewhere a dead process's of its own host), never a file another machine sharing the
        archive is writing.
        .PP
        No file under the archive root holds a password, a header value or a token: URLs are kept without their
        login and with the value of every secret\-looking query, path
        .RB ( ;jsessionid= )
        or fragment parameter
        .RB ( token ,
        .BR key ,
        .BR api_key ,
        .BR auth ,
        .BR sig ,
        .BR signature ,
        .BR session ,
        .BR jwt ,
        .BR password ,
        .BR secret ,
        .BR access_token ,
        .BR code ,
        .BR X\-Amz\-* ,
        .BR X\-Goog\-* ,
        and the like) as REDACTED; a GUID or URL that identifies an episode and carries a secret is kept as a keyed
        hash of itself.
        .PP
        The installed
        .B podarchive.service
        (a systemd user unit, started nightly by
        .BR podarchive.timer )
        syncs every show of the archive root it names
        .RB ( to ),
        else of
        .IR ~/Podcasts .
        Enable it with
        .BR "systemctl \-\-user enable \-\-now podarchive.timer" .
        """#

    /// FILE NAMES: how episodes, sidecars and show folders are named.
    static let fileNames = #"""
        Files are named as
        .B \-\-name
        says (see OPTIONS); the index records each file's path relative to the feed folder. Names are chosen so that
        two files never share a sidecar. The sidecar of
        .B \-\-metadata
        holds \fBtitle\fR, \fBdescription\fR, \fBguid\fR, \fBurl\fR (the enclosure), \fBlink\fR (the episode's page),
        \fBimage\fR, \fBpublished\fR, \fBduration\fR (seconds), \fBepisode\fR, \fBseason\fR, \fBtype\fR, \fBfeed\fR
        (\fBtitle\fR, \fBurl\fR), and \fBfile\fR, \fBsize\fR, \fBsha256\fR, \fBarchived\fR. It is written after the file
        is in place and indexed, so a crash can leave a file without its sidecar (written on the next run that reads the
        feed), never a sidecar that takes an episode's name. The feed's artwork is \fBitunes:image\fR, else RSS
        \fBimage\fR, Atom \fBlogo\fR/\fBicon\fR, JSON Feed \fBicon\fR. Show notes are only read with
        \fB\-\-metadata\fR: they are most of a feed's bytes.
        .PP
        A feed without a title is named after its URL's host and path (\fBexample.com\-podcast\-feed\fR). A second feed
        with the same title gets \fBTitle (2)\fR, unless it shares episodes with the first (the same show at a new URL),
        which then continues in the existing folder. Once a feed has a folder it keeps it, even if its title changes.
        .PP
        The names \fBpodarchive site\fR writes are the site's, compared without case (as macOS's file systems do): no show
        folder is called \fBindex.html\fR, \fBfeeds.opml\fR or \fBsearch\-index.js\fR (a show of that title is kept in
        \fBindex.html (2)\fR), and no episode, companion or \fB\-\-name\fR subfolder takes \fBindex.html\fR,
        \fBfeed.xml\fR, \fBsearch\-notes.js\fR, \fBsearch\-transcripts.json\fR or \fBcover.jpg\fR
        (\fB.jpeg\fR, \fB.png\fR, \fB.webp\fR, \fB.gif\fR) in its show's folder: an episode \fBfeed\fR whose enclosure is
        \fB.xml\fR is \fBfeed (2).xml\fR, as for any other clash. An archive an earlier version gave such a name is fixed
        by the next \fBsync\fR or \fBsite\fR: the folder or file is renamed to the next free name (a file with its sidecar
        and the companions named after it, its dates and extended attributes kept; never over another file), the index or
        subscription record names it there, and the run says so in one line. One that cannot be renamed stays as it was,
        said in one line too.
        """#

    /// THE INDEX: index.json, its journal, what older versions make of them, and rebuilding it.
    static let index = #"""
        \fBindex.json\fR (format version 2; 3 when it keeps a redacted URL or a keyed hash, which an older podarchive
        refuses rather than fetch a URL without its token; 4, with \fB"keptApart": true\fR, for a show added with
        \fB\-\-separate\fR, which an older podarchive refuses rather than let another URL of the show take its folder over;
        5 while an episode's files are away on purpose, each such entry with an \fBaway\fR record: see EPISODES NOT ON DISK)
        names the show (\fBtitle\fR, and \fBauthor\fR once a sync has read one: the library's artist; an older podarchive
        ignores it) and lists each archived episode under \fBepisodes\fR: \fBkey\fR (its GUID, else its enclosure URL), \fBguid\fR,
        \fBtitle\fR, \fBurl\fR, \fBfile\fR (the name in the feed folder), \fBsize\fR in bytes, \fBsha256\fR (hex),
        \fBpublished\fR and \fBarchived\fR (UTC, \fBYYYY\-MM\-DDTHH:MM:SSZ\fR); and under \fBfailures\fR each episode that
        could not be archived yet (\fBkey\fR, \fBguid\fR, \fBtitle\fR, \fBurl\fR, \fBtype\fR, \fBpublished\fR,
        \fBreason\fR, \fBfailed\fR), retried on every run. An episode counts as archived when its GUID, its exact enclosure
        URL, or (when at most one side has a GUID) its URL without a tracking query matches an entry. Version 1 indexes are
        read as they are. A damaged index stops the run with exit code 5 and is left as it is; move it aside to rebuild.
        .PP
        \fBindex.journal\fR holds one line per episode archived (or repaired) since \fBindex.json\fR was written whole: the
        CRC\-32 of the entry's JSON (8 hex digits), a space, the entry as JSON (the same fields as in \fBepisodes\fR) and a
        newline; the format is the one the journal has always had. Every reader (\fBsync\fR, \fBverify\fR, \fBfeeds\fR,
        \fBlist \-\-archived\fR, \fBsite\fR) applies its intact records to \fBindex.json\fR in order and skips a torn or
        damaged one (its checksum does not match, or its newline is missing); the records after it still apply.
        .IP \(bu 2
        A \fBtorn last record\fR is what a crash leaves between an episode's rename and its record: the next sync adopts
        that episode from its download record, and nothing is reported.
        .IP \(bu 2
        A \fBdamaged record before the last\fR is damage no crash leaves (the disk, an edit). \fBverify\fR names the
        journal and the record's position (\fBdamaged  My Show/.podarchive/index.journal: record 2 of 3 cannot be read\fR,
        exit 1) and changes nothing.
        .PP
        Every command that writes a show's index (\fBsync\fR, \fBadd\fR, \fBforget\fR, \fBforget \-\-undo\fR, \fBverify
        \-\-repair\fR, \fBcredentials \-\-move\fR, and \fBsite\fR when it moves a file off a name it writes) first folds a
        journal with a torn or damaged record into \fBindex.json\fR, all in one way: it marks the show's saved validators
        incomplete (\fB<show>/.podarchive/feed.json\fR, durably), so the next sync reads the feed in full (no \fB304\fR
        shortcut), then writes the index without the record. A damaged record is said in one line on standard error, and
        the command exits 1 (after doing what it was asked):
        .PP
        .nf
        .RS
        podarchive: My Show/.podarchive/index.journal: record 2 of 3 cannot be read (the index's journal); the records after it were applied and the journal folded without it: the next sync reads the feed in full and finds its episode again, a file already in the folder adopted
        .RE
        .fi
        .PP
        A torn last record is folded the same way, without a word. The sync that reads the feed in full (the next one, or
        \fBsync\fR itself when it was the command) finds that episode again: its file is adopted as any unindexed file in
        the folder is (at the name it would get, with the size the feed gives; else downloaded and compared with the file
        of that name, the same bytes adopted rather than kept twice), with its transcripts, chapters and artwork, and with
        the sync's time as its \fBarchived\fR date. An episode the feed no longer lists stays on disk, unindexed, until the
        index is rebuilt.
        .PP
        A sync folds the journal into \fBindex.json\fR when it ends, or when the journal passes 1 MB, and \fBverify
        \-\-repair\fR when it ends, so a journal exists only after a run was killed (or beside a damaged one, until a
        command writes the index).
        .PP
        \fBAn older podarchive and the journal.\fR The format is unchanged, so an older podarchive reads this version's
        journal and this version reads an older one. A podarchive that has the journal but predates this rule stops reading
        at the first torn or damaged record: the intact records after it are ignored, its \fBverify\fR says nothing about
        them (exit 0, "all intact"), and its next sync folds the journal without them. It deletes nothing: the episodes of
        those records look unindexed to it, and it adopts their files as above or downloads them again. A podarchive older
        than the journal reads \fBindex.json\fR alone: every journal episode looks unindexed to it, and it does the same.
        Either way the next run of this version folds the journal in; run this version's \fBverify\fR first to see which
        records were damaged.
        .PP
        \fBindex.json\fR is refused as damaged when it is larger than 512 MB or nested deeper than 64 levels (podarchive
        writes 5), before it is parsed: \fBsync\fR, \fBverify\fR and \fBlist \-\-archived\fR stop with exit 5 and one line
        naming it, \fBfeeds\fR names the problem under its show, and \fBsite\fR leaves the show out.
        .PP
        A damaged \fBindex.json\fR stops the sync of that show (exit 5) and is left as it is. To rebuild it, move it aside
        and sync again:
        .PP
        .nf
        .RS
        mv ~/"Podcasts/My Show/.podarchive/index.json" ~/"Podcasts/My Show/.podarchive/index.json.damaged"
        podarchive sync https://feeds.example.com/show.xml
        .RE
        .fi
        .PP
        Files already in the folder are adopted, never downloaded twice: an episode whose file is where its name would put
        it, with the size the feed gives, is hashed and recorded without a download; one whose size the feed does not give
        is downloaded and, when the bytes are the same, recorded under the file already there. Only an episode whose bytes
        differ gets a second file (\fBTitle (2).mp3\fR).
        """#

    /// COMPLETE DOWNLOADS: when a body is complete and kept.
    static let downloads = #"""
        A body (an episode, a transcript, chapters, artwork, a feed or a page of it) is complete only when its own framing
        says so, and only then is it kept:
        .IP \(bu 2
        sent as it is, with a \fBContent\-Length\fR: exactly that many bytes; chunked: its last chunk; with neither (the
        body ends when the connection closes): whatever arrived before a clean close;
        .IP \(bu 2
        sent compressed (\fBContent\-Encoding: gzip\fR or \fBdeflate\fR, which podarchive asks for only for feeds, pages,
        transcripts and chapters, and \fBidentity\fR for media): podarchive inflates it itself, and it is complete only at
        its compressed stream's end with its check good (gzip's CRC\-32 and length, one member or several; zlib's
        Adler\-32; raw deflate, as some servers send it, its final block), and when the compressed bytes are the
        \fBContent\-Length\fR announced. A stream cut short, damaged, or followed by more bytes is a failure, retried as
        any other; nothing of it is kept, and it is fetched again from its start (its partial holds decoded bytes, so it is
        never resumed with \fBRange\fR). A body in any other encoding (\fBbr\fR, \fBzstd\fR, \fBcompress\fR) is refused,
        naming it;
        .IP \(bu 2
        whatever its framing, the size the server announced before for the same version of the file (its strong ETag, in
        the show's download record) must hold: an answer with that ETag and another size (a \fB200\fR to a resume carrying
        only the rest of the file) is not kept, and the download starts again, held to the same size in later runs too. A
        Last\-Modified date or a weak ETag names no one version (servers that insert ads serve several sizes under one
        date): it only decides whether a partial download may be resumed.
        .PP
        The feed's \fBlength\fR attribute decides nothing (servers that insert ads make it wrong): only when a body ends
        with its connection and is shorter than it is the body taken for a cut, not kept, and asked for again from its
        first byte (\fBits body ended with the connection after 200000 bytes, short of the 300000 the feed gives as its
        length; ...\fR); the same size again, on the next try or in a later run (the failure recorded in the index keeps
        the size), is the file. A body whose connection closes before its \fBContent\-Length\fR says so (\fBthe connection
        closed after 100000 of 300000 bytes\fR) and is resumed where its server names a version of it. On macOS, URLSession
        decodes compressed bodies itself and hides the stream's end: there a compressed body is kept as URLSession hands it
        over (still never resumed), and only bodies sent as they are are held to their length.
        """#

    /// NOTES: file dates, links, cron.
    static let notes = #"""
        After the move, each file's \fBmodification date\fR is set to the episode's publication date, so \fBls \-lt\fR and
        every file manager sort episodes by when they were published. An episode without a date keeps its download time;
        podarchive never invents a date.
        .PP
        Each file also records where it came from in the extended attribute \fBuser.xdg.origin.url\fR, as \fBcurl
        \-\-xattr\fR and \fBwget \-\-xattr\fR do (\fBgetfattr \-n user.xdg.origin.url FILE\fR), where the file system keeps
        extended attributes; elsewhere it is silently left out.
        .PP
        The \fBcreation (birth) date\fR is set too on macOS. On Linux it cannot be: the kernel has no call to set a birth
        time (\fBFileManager\fR silently ignores it), so on Linux the creation date stays the time of download.
        .PP
        A show folder may be a symbolic link (to put a show on another disk): podarchive follows it. Its \fB.podarchive\fR
        state folder, the lock file, the index and the partial downloads are never followed through a link: a link there
        stops the sync of that show with exit 5 (\fBit is a symbolic link, which podarchive never follows for its
        state\fR), and nothing is written through it.
        .PP
        podarchive locks each feed itself, so a crontab line needs no
        .BR flock (1)
        wrapper:
        .PP
        .nf
        .RS
        17 3 * * *  podarchive sync https://feeds.example.com/show.xml \-\-to /srv/podcasts >/dev/null
        .RE
        .fi
        """#

    /// EXAMPLES.
    static let examples = #"""
        .nf
        podarchive sync https://feeds.example.com/show.xml
        podarchive sync https://feeds.example.com/show.xml \-\-to /srv/podcasts \-\-jobs 8
        podarchive list ./saved\-feed.xml \-\-json
        podarchive sync https://feeds.example.com/show.xml \-\-until 2023\-12\-31 \-\-min\-duration 10m \-\-episodes 1\-50 \-n
        podarchive sync https://feeds.example.com/show.xml \-\-exclude '(?i)sponsored' \-\-match\-in both
        podarchive sync https://feeds.example.com/video.xml \-\-prefer 'video/mp4;height<=480,smallest' \-n
        podarchive verify /srv/podcasts \-\-repair
        .fi
        """#

    /// The topics, each under its heading.
    static var text: String {
        [
            ".SH FILES", files,
            ".SH FILE NAMES", fileNames,
            ".SH THE INDEX", index,
            ".SH COMPLETE DOWNLOADS", downloads,
            ManualStates.text,
            ".SH NOTES", notes,
            ".SH EXAMPLES", examples,
        ].joined(separator: "\n")
    }
}
