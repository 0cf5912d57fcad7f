// The options of `offload`: which episodes leave the archive's folders, and where they go.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once.
enum OffloadOptions {
    /// The retention `sync` saves with a show, in help order.
    static func bound<Root: CarriesShowSettings>() -> [BoundOption<Root>] {
        [keepLast.setting(), keepDays.setting(), into.setting(), delete.setting()]
    }

    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [
        keepLast.descriptor, keepDays.descriptor, before.descriptor, into.descriptor, delete.descriptor,
        restore.descriptor,
    ]

    static let keepLast: Option<Int> = .value(
        "--keep-last", "N", .number(in: 1...1_000_000),
        help: #"""
            keep the newest <N> episodes of each show in the archive (by publication date, else the date archived);
            the older ones go

            `podarchive offload 'Show' --keep-last 20 --into /mnt/cold` keeps twenty and moves the rest. Given to
            `sync` (with `--into` or `--delete`), a saved setting: after each sync of the show, what falls outside
            the window goes, so cron keeps a rolling window (`--clear keep-last` stops it).
            """#, excludes: ["--keep-days", "--before", "--restore"], saved: .show(.keepLast), config: true,
        describe: { $0.text(of: .keepLast) }, setting: { $0[.keepLast] = .count($1) })
    static let keepDays: Option<Int> = .value(
        "--keep-days", "D", .number(in: 1...1_000_000),
        help: #"""
            keep the episodes published in the last <D> days; older ones go (undated ones count from when they were
            archived); a saved setting with `sync`, as `--keep-last`
            """#, excludes: ["--keep-last", "--before", "--restore"], saved: .show(.keepDays), config: true,
        describe: { $0.text(of: .keepDays) }, setting: { $0[.keepDays] = .count($1) })
    static let before: Option<Written<Date>> = .value(
        "--before", "DATE", .date,
        help: #"""
            the episodes published before <DATE> go (2025-01-31, or RFC 3339; undated ones count from when they were
            archived)
            """#, excludes: ["--keep-last", "--keep-days", "--restore"])
    static let into: Option<String> = .value(
        "--into", "DIR", .ruled(ShowSettings.checkInto),
        help: #"""
            move the episodes that go, with their companions and sidecars, into <DIR> (another disk, a mounted
            bucket), in a folder of the show's name; each copy is checked against the index before the archive's
            file is deleted

            <DIR> must be an absolute path to a folder outside the archive. The index records where each went, so no
            sync fetches it again, `verify` checks it there when <DIR> is reachable, and `offload --restore` brings
            it back. With `sync`, saved with the show's `--keep-last` or `--keep-days`.
            """#, completion: .directory, excludes: ["--delete", "--restore"], saved: .show(.into),
        config: true, describe: { $0.text(of: .into) }, setting: { $0[.into] = .text($1) })
    static let delete: Option<Bool> = .flag(
        "--delete",
        help: #"""
            delete the episodes that go, with their companions and sidecars, instead of moving them: the index
            records them as deleted on purpose, so no sync fetches them again; with `sync`, saved with the show's
            `--keep-last` or `--keep-days`
            """#, excludes: ["--into", "--restore"], saved: .show(.delete), config: true,
        describe: { $0.text(of: .delete) }, setting: { $0[.delete] = .flag(true) })
    static let restore: Option<Bool> = .flag(
        "--restore",
        help: #"""
            bring back every offloaded episode of each show from where the index says it went

            Each copy is checked against the index before the one there is deleted.
            """#, excludes: ["--keep-last", "--keep-days", "--before", "--into", "--delete"])
}
