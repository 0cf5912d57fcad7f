// The options of `export`: the file to write and the shows to put in it.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; the commands bind those they take.
enum WARCOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [warc.descriptor, shows.descriptor]

    static let warc: Option<String> = .value(
        "--warc", "FILE", .path,
        help: #"""
            write a WARC 1.1 file (ISO 28500, what the Internet Archive and national libraries take), each record
            gzipped when <FILE> ends in `.gz`; written beside <FILE> under a temporary name and renamed when complete,
            so a failure leaves nothing under its name
            """#,
        completion: .file)
    static let shows: Option<String> = .value(
        "--show", "SHOW", .path,
        help: #"""
            only this show: export only <SHOW> of the archive, its title, folder name or feed URL (a path only when it
            is one of the root's show folders); repeatable
            """#, completion: .shows)
}
