// The options of `forget`: a type of their own, as `HookOptions`, while `OptionTable` is held to its size.
import ArchiverCore
import Foundation

/// `--undo` and `--keep-files`.
enum ForgetOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [undo.descriptor, keepFiles.descriptor]

    static let undo: Option<Bool> = .flag(
        "--undo",
        help: #"""
            take forgotten episodes back: a kept file is in the index again at once, else the next sync fetches it

            They are no longer unwanted; a kept file must be whole as recorded. The next `sync` fetches the others
            whatever the show's saved filter leaves out.
            """#,
        excludes: ["--keep-files"])
    static let keepFiles: Option<Bool> = .flag(
        "--keep-files",
        help: #"""
            keep the forgotten episodes' files: leave each one's file, companions and sidecar where they are; only the
            archive (the index, the site, `verify`) forgets it
            """#)
}
