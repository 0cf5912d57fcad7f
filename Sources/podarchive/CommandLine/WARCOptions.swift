// The options of `export`: the WARC file or the library folder to write, and the shows to put in it.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum WARCOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [
        warc.descriptor, library.descriptor, noLibrary.descriptor, shows.descriptor,
    ]

    static let noLibrary: Option<Bool> = .flag(
        "--no-library",
        help: #"""
            stop refreshing the library a `sync --library` saved (what it wrote there stays)
            """#, excludes: ["--library"], saved: .archive)

    static let warc: Option<String> = .value(
        "--warc", "FILE", .path,
        help: #"""
            write a WARC 1.1 file (ISO 28500, what the Internet Archive and national libraries take), each record
            gzipped when <FILE> ends in `.gz`; written beside <FILE> under a temporary name and renamed when complete,
            so a failure leaves nothing under its name
            """#,
        completion: .file)
    static let library: Option<String> = .value(
        "--library", "DIR", .path,
        help: #"""
            write a library for players and media servers into <DIR> instead of a WARC file: a folder per show with its
            art as `folder.<ext>` and `cover.<ext>`, and a copy of each episode here named date first (`2024-05-01
            Title.mp3`), tagged from what the archive kept: an MP3 with ID3v2.4 (title, show as album and album
            artist, the show's author as artist (the show's title until a sync has kept the author), date, episode
            and season, the description, the episode's or show's JPEG or PNG art, and the chapters of its
            Podcasting 2.0 chapters file), an M4A or MP4 with iTunes atoms (title, album, album artist, artist,
            date, description, a JPEG or PNG cover, the chapters as a Nero `chpl`), an Ogg Opus or Vorbis file with
            Vorbis comments (the same, the chapters as CHAPTERnnn); other files (WebM, FLAC, PDF, ...) copied
            untagged, cloned where the file system can, never hard-linked

            The archive's files are only read. What the library wrote is recorded in `<DIR>/.podarchive-library.json`:
            a rerun rewrites only what changed and removes what it wrote whose episode the archive no longer holds,
            never a file it did not write. What the copies will take is said before the first is written, and refused
            when the disk cannot hold them. Episodes offloaded or deleted by retention are left out and said.
            """#,
        completion: .directory, excludes: ["--warc"])
    static let shows: Option<String> = .value(
        "--show", "SHOW", .path,
        help: #"""
            only this show: export only <SHOW> of the archive, its title, folder name or feed URL (a path only when it
            is one of the root's show folders); repeatable
            """#, completion: .shows)
}
