// The options of `forget`: a type of their own, as `HookOptions`, while `OptionTable` is held to its size.

/// `--undo` and `--keep-files`, listed in `OptionTable.all` with the rest.
enum ForgetOptions {
    static let all: [OptionDescriptor] = [
        .flag(
            "--undo", \.undo, commands: [.forget], summary: "take forgotten episodes back",
            help: "take the episodes back: no longer unwanted, the next sync fetches them again",
            excludes: ["--keep-files"],
            manual: #"""
                With
                .BR forget :
                take the episodes named back instead: they are no longer unwanted, and the next
                .B sync
                fetches them again (or takes their files back into the index, if they were kept).
                """#),
        .flag(
            "--keep-files", \.keepFiles, commands: [.forget], summary: "keep the forgotten episodes' files",
            help: "leave the episode's file, companions and sidecar where they are; only the archive forgets it",
            manual: #"""
                With
                .BR forget :
                leave the episode's file, its companions and its sidecar on disk; the index, the site and
                .B verify
                forget it all the same.
                """#),
    ]
}
