// The options of `forget`: a type of their own, as `HookOptions`, while `OptionTable` is held to its size.
import ArchiverCore
import Foundation

/// `--undo` and `--keep-files`.
enum ForgetOptions {
    /// Every option of this file, in the order help and the man page list them.
    static let declared: [OptionDescriptor] = [undo.descriptor, keepFiles.descriptor]

    static let undo: Option<Bool> = .flag(
        "--undo", summary: "take forgotten episodes back",
        help: "take the episodes back: a kept file is in the index again at once, else the next sync fetches it",
        excludes: ["--keep-files"],
        manual: #"""
            With
            .BR forget :
            take the episodes named back instead: they are no longer unwanted; a file that was kept, whole as
            recorded, is in the index again at once, and the others are fetched by the next
            .BR sync ,
            whatever the show's saved filter leaves out.
            """#)
    static let keepFiles: Option<Bool> = .flag(
        "--keep-files", summary: "keep the forgotten episodes' files",
        help: "leave the episode's file, companions and sidecar where they are; only the archive forgets it",
        manual: #"""
            With
            .BR forget :
            leave the episode's file, its companions and its sidecar on disk; the index, the site and
            .B verify
            forget it all the same.
            """#)
}
