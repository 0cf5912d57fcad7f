// The options of `export`: the file to write and the shows to put in it.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum WARCOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [warc.descriptor, shows.descriptor]

    static let warc: Option<String> = .value(
        "--warc", "FILE", .path, summary: "write a WARC 1.1 file",
        help: "write the archive as a WARC 1.1 file (ISO 28500, what the web archives take), each record gzipped "
            + "when FILE ends in .gz; written beside FILE under a temporary name and renamed when complete",
        completion: .file,
        manual: #"""
            With
            .BR export :
            write the archive as a WARC 1.1 file (ISO 28500), the format the Internet Archive and national libraries
            take, each record a gzip member of its own when
            .I file
            ends in
            .BR .gz .
            It is written beside
            .I file
            under a temporary name and renamed when complete: a failure leaves nothing under
            .IR file 's
            name.
            """#)
    static let shows: Option<String> = .value(
        "--show", "SHOW", .path, summary: "only this show (repeatable)",
        help: "export only SHOW of the archive: its title, folder name or feed URL; repeatable", completion: .shows,
        manual: #"""
            With
            .BR export :
            export only
            .IR show ,
            a show of the archive: its title, its folder name in the archive root, or a subscription's feed
            URL (a path only when it is one of the root's show folders).
            Repeatable.
            """#)
}
