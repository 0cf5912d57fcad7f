// The man page's prose, written by hand in roff, once: ManualPage puts it around what it makes from the command and
// option declarations. Reference facts live here (and in ManualTopics); the README and docs/ link to the page.

enum ManualProse {
    /// The line under NAME.
    static let name = #"""
        podarchive \- keep podcasts for good: archive every episode of a feed, safely
        """#

    /// DESCRIPTION: what podarchive does and what it reads.
    static let description = #"""
        .B podarchive
        reads a podcast feed (RSS 2.0 with iTunes and Podcasting 2.0 tags, Atom, JSON Feed 1.0/1.1, or a plain JSON
        array of episodes), downloads every episode it has not archived yet, moves each file to its permanent place
        and sets its modification date to the episode's publication date.
        Run again, it fetches only what is new.
        .PP
        .I feed
        is an http or https URL, or a local file path (a
        .B file://
        URL is read as a path).
        Any other scheme is refused, before the request and on every redirect.
        .PP
        A plain JSON array of episodes has one object per episode:
        .B url
        (the file; the only field needed),
        .BR title ,
        .B published
        (an RSS date),
        .B guid
        or
        .BR id ,
        .B type
        and
        .BR length .
        An object with
        .B enclosure
        instead of
        .B url
        is not read; the summary counts it as skipped and
        .B \-\-verbose
        names it.
        .PP
        Each episode is streamed to a hidden file in its feed folder and renamed into place only when it is complete
        and checked: HTTP 2xx, exactly Content\-Length bytes, and not an HTML page served in place of audio.
        Its SHA\-256 is computed while it streams and recorded in the index.
        An existing file is never overwritten; two episodes with the same title are kept as
        .I Title.mp3
        and
        .IR "Title (2).mp3" .
        """#

    /// What SHOW SETTINGS says before the list of settings.
    static let showSettings = #"""
        A show keeps the settings it was last synced or added with: given with a feed to
        .B sync
        or
        .BR add ,
        they are saved with its subscription. They are:
        """#

    /// What SHOW SETTINGS says after the list.
    static let showSettingsOrder = #"""
        Each show syncs with the options on the command line, else its saved settings, else the environment and the
        configuration file, else the defaults.
        .B podarchive feeds
        shows each show's saved settings;
        .B podarchive config
        .I show
        shows where each value a run would use comes from.
        """#

    /// EXIT STATUS after the codes: how they combine, and what each covers beyond its line in `help`.
    static let exitStatus = #"""
        The order says what to do first: an archive that cannot be written, then a usage error (it needs you to
        change something, such as a bad line in a feed list), then a feed that could not be read, then a locked feed,
        then failed episodes (tried again next run). An interrupted run exits 130 or 143 whatever else happened.
        .PP
        Code 1 also covers a hook
        .RB ( \-\-exec )
        that failed or timed out (its episode stays archived and the hook is tried again on the next run), an episode
        whose URL offers a torrent or a playlist instead of media (it fails the run that finds it, and not the next), and
        a damaged record of the index's journal folded away by a command that writes a show's index (the next sync finds
        its episode again; see
        .BR "THE INDEX" ).
        Code 2 also covers a feed given with a scheme other than http(s) or a path,
        .B verify
        of a folder that holds no archive, and an
        .B export
        into the archive itself or of a
        .B \-\-show
        the archive does not hold; a bad line in a feed list is reported and skipped, the other feeds still sync, and
        the run ends with 2.
        Code 3 also covers a show's web page that links to no feed, and an Apple Podcasts link the podcast directory
        cannot resolve, or a directory that cannot be asked
        .RB ( search
        too).
        Code 4: the message names the other process's ID.
        Code 5 covers a full disk (checked against Content\-Length before a download starts), an unwritable or
        read\-only folder, a damaged or newer index, and
        .B verify \-\-repair
        finding two index entries that name one file or one GUID (neither is touched); the run stops, the index stays
        valid and nothing half\-written is visible.
        Code 130: the run stops cleanly, keeping partial downloads for the next run to resume; one line says how many
        it resumes and how many it starts again (their server named no ETag or Last\-Modified, took no ranges, or sent
        them compressed); locks are released. A second signal, or a stop that takes longer than 10 seconds, exits at
        once.
        """#

    /// ENVIRONMENT.
    static let environment = #"""
        .TP
        .B NO_COLOR
        When set and not empty, no colours; progress is still redrawn on a terminal.
        .TP
        .B TERM
        When
        .B dumb
        or unset, no escape codes at all: the plain lines, as when standard output is not a terminal.
        .TP
        .B COLUMNS
        The width to fit progress lines to when the terminal does not say.
        .TP
        .B PODARCHIVE_DIR
        The archive root when
        .B \-\-to
        is not given (over the configuration file's
        .BR to ).
        .TP
        .B PODARCHIVE_CONFIG_DIR
        The configuration folder: where the configuration file
        .RI ( config )
        is read and the credentials of private feeds are kept
        .RI ( credentials/ ).
        Else
        .IR $XDG_CONFIG_HOME/podarchive ,
        else
        .IR ~/.config/podarchive .
        A folder podarchive may not write (a mounted Kubernetes Secret, a read\-only link) is read as it is; giving new
        credentials then fails with a message.
        .TP
        .B PODARCHIVE_DIRECTORY_URL
        Where the podcast directory's API is asked (Apple Podcasts links and
        .BR search );
        .I https://itunes.apple.com
        unless set. A value that is not an http(s) URL is a usage error (exit 2) when the directory is asked, never
        replaced by Apple's;
        .B config
        shows the directory a run would ask.
        .TP
        .B HOME
        The archive root is
        .I $HOME/Podcasts
        when neither is given, and
        .I $HOME/.netrc
        is read for logins when it exists.
        .TP
        .BR http_proxy ", " https_proxy ", " no_proxy
        Proxies, as curl reads them (libcurl does the reading): every request goes through the proxy named for its
        scheme, except those to the hosts
        .B no_proxy
        lists.
        """#

    /// CONFIGURATION FILE, before its list of keys.
    static let configurationFile = #"""
        .I config
        in the configuration folder (see
        .BR PODARCHIVE_CONFIG_DIR )
        gives defaults for every run: one
        .B key = value
        a line, where the key is the long name of an option without its dashes (see its keys below;
        .B podarchive config
        lists them with their values), and the value is what the option takes
        .RB ( true " or " false
        for a switch;
        .B metadata = false
        is
        .BR \-\-no\-metadata ).
        A
        .B #
        at the start of a line or after a space starts a comment (quote a value that holds one); spaces around the key
        and the value, and one pair of quotes around the value, are taken off; a value starting with
        .B ~/
        starts in your home folder.
        Each value is a default: the command line comes first, then a show's saved settings, then the environment
        .RB ( $PODARCHIVE_DIR ),
        then the file, then the built\-in default.
        Values from the file are never saved with a show.
        An unknown key, a key set twice, a line without
        .BR = ,
        or a value its option refuses is a usage error (exit 2) naming the file, the line and the value, for every command
        but
        .B help
        and
        .BR completions .
        """#

    /// CONFIGURATION FILE, after its list of keys.
    static let configurationExample = #"""
        For example:
        .PP
        .RS
        .nf
        # ~/.config/podarchive/config
        to = ~/Podcasts
        jobs = 2
        limit\-rate = 500K
        name = {date} {title}
        .fi
        .RE
        """#

    /// SEE ALSO.
    static let seeAlso = #"""
        .BR curl (1),
        .BR flock (2),
        .BR crontab (5)
        """#
}
