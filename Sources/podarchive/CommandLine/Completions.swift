// `podarchive completions bash|zsh|fish`: the completion scripts, made from the option table (as gh, kubectl and
// rustup do). `make install` installs their output; nothing here is kept by hand.

enum Completions {
    static let shells = ["bash", "zsh", "fish"]

    /// The commands, with what each is for.
    static let commands: [(name: String, summary: String)] = [
        ("sync", "archive every episode not archived yet"),
        ("list", "show the episodes of a feed"),
        ("verify", "recheck archived files against their SHA-256"),
        ("add", "subscribe to feeds without downloading"),
        ("remove", "unsubscribe a show, keeping its files"),
        ("feeds", "list the subscribed shows"),
        ("site", "write the web pages and podcast feeds"),
        ("credentials", "where secrets are kept; move them out"),
        ("completions", "print a shell completion script"),
        ("help", "show help for a command"),
    ]

    /// What each command's operands are: feeds (files or URLs) or a folder.
    private static let operands: [String: ValueCompletion] = [
        "sync": .file, "list": .file, "verify": .directory, "add": .file, "remove": .shows,
    ]

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash()
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    // MARK: - bash

    /// Names are read into COMPREPLY a line at a time (`mapfile`) and marked as file names (`compopt`), so a
    /// folder named "My Show" is one completion, quoted as the shell needs.
    private static func bash() -> String {
        let names = commands.map(\.name).joined(separator: " ")
        var valueCases: [String] = []
        for option in OptionTable.all where option.takesValue {
            let patterns = option.commands.map { "\($0):\(option.name)" }.joined(separator: "|")
            valueCases.append("        \(patterns)) \(bashValues(option.completion)); return ;;")
        }
        var commandCases: [String] = []
        for command in OptionTable.commands {
            let flags = OptionTable.options(for: command).map(\.name).joined(separator: " ")
            commandCases.append(
                """
                        \(command))
                            if [[ $cur == -* ]]; then
                                COMPREPLY=($(compgen -W "\(flags)" -- "$cur"))
                            else
                                \(bashValues(operands[command] ?? .none))
                            fi ;;
                """)
        }
        return """
            # bash completion for podarchive, made by `podarchive completions bash`.
            _podarchive_names() {
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen "$1" -- "$2")
            }
            # The shows of the archive root ($PODARCHIVE_DIR, else ~/Podcasts): the folder names `remove` takes.
            _podarchive_shows() {
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(cd "${PODARCHIVE_DIR:-$HOME/Podcasts}" 2>/dev/null && compgen -d -- "$1")
            }
            _podarchive() {
                local cur prev cmd
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                cmd="${COMP_WORDS[1]}"
                if [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W "\(names) --help --version" -- "$cur"))
                    return
                fi
                case "$cmd:$prev" in
            \(valueCases.joined(separator: "\n"))
                esac
                case "$cmd" in
            \(commandCases.joined(separator: "\n"))
                    completions) COMPREPLY=($(compgen -W "\(shells.joined(separator: " "))" -- "$cur")) ;;
                    help) COMPREPLY=($(compgen -W "\(names)" -- "$cur")) ;;
                esac
            }
            complete -F _podarchive podarchive

            """
    }

    /// fish: the show folders of the archive root ($PODARCHIVE_DIR, else ~/Podcasts).
    private static let fishShows =
        "'(for d in (set -q PODARCHIVE_DIR; and echo $PODARCHIVE_DIR; or echo $HOME/Podcasts)/*/; basename $d; end)'"

    private static func bashValues(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return "COMPREPLY=()"
        case .file: return "_podarchive_names -f \"$cur\""
        case .directory: return "_podarchive_names -d \"$cur\""
        case .shows: return "_podarchive_shows \"$cur\""
        case .words(let words):
            // Suggestions with spaces in them: one a line, so each stays whole.
            let list = words.map { "'\($0)'" }.joined(separator: " ")
            return "mapfile -t COMPREPLY < <(printf '%s\\n' \(list) | grep -F -- \"$cur\")"
        }
    }

    // MARK: - zsh

    private static func zsh() -> String {
        let commandValues = commands.map { "'\($0.name)[\($0.summary)]'" }.joined(separator: " ")
        var cases: [String] = []
        for command in OptionTable.commands {
            var specs = OptionTable.options(for: command).map { zshSpec($0) }
            switch (command, operands[command] ?? .none) {
            // The show folders of the archive root, wherever the shell is.
            case ("remove", _): specs.append("'*:show:_files -W ${PODARCHIVE_DIR:-$HOME/Podcasts} -/'")
            case (_, .directory): specs.append("'1:folder:_files -/'")
            case (_, .file): specs.append(["sync", "add"].contains(command) ? "'*:feed:_files'" : "'1:feed:_files'")
            default: break
            }
            cases.append("        \(command)) _arguments \(specs.joined(separator: " ")) ;;")
        }
        return """
            #compdef podarchive
            # zsh completion for podarchive, made by `podarchive completions zsh`.
            _podarchive() {
                if (( CURRENT == 2 )); then
                    _values 'command' \(commandValues)
                    return
                fi
                case $words[2] in
            \(cases.joined(separator: "\n"))
                    completions) _values 'shell' \(shells.joined(separator: " ")) ;;
                    help) _values 'command' \(commands.map(\.name).joined(separator: " ")) ;;
                esac
            }
            _podarchive "$@"

            """
    }

    private static func zshSpec(_ option: OptionDescriptor) -> String {
        if option.name == "--help" { return "'(-h --help)'{-h,--help}'[show help]'" }
        let exclusions = option.excludes.isEmpty ? "" : "(\(option.excludes.joined(separator: " ")))"
        var spec = "\(exclusions)\(option.name)[\(option.summary)]"
        if let value = option.value {
            switch option.completion {
            case .none: spec += ":\(value.lowercased()): "
            case .file: spec += ":\(value.lowercased()):_files"
            case .directory: spec += ":\(value.lowercased()):_files -/"
            case .shows: spec += ":\(value.lowercased()):_files -W ${PODARCHIVE_DIR:-$HOME/Podcasts} -/"
            case .words(let words):
                spec += ":\(value.lowercased()):(\(words.map { "\"\($0)\"" }.joined(separator: " ")))"
            }
        }
        return "'\(spec)'"
    }

    // MARK: - fish

    private static func fish() -> String {
        var lines = [
            "# fish completion for podarchive, made by `podarchive completions fish`.",
            "set -l commands \(commands.map(\.name).joined(separator: " "))",
            "complete -c podarchive -f",
        ]
        for command in commands {
            lines.append(
                "complete -c podarchive -n \"not __fish_seen_subcommand_from $commands\" -a \(command.name) "
                    + "-d '\(command.summary)'")
        }
        lines.append(
            "complete -c podarchive -n \"not __fish_seen_subcommand_from $commands\" -l version -d 'show the version'")
        lines.append("complete -c podarchive -n \"__fish_seen_subcommand_from sync list add\" -F")
        lines.append(
            "complete -c podarchive -n \"__fish_seen_subcommand_from verify\" -a '(__fish_complete_directories)'")
        // remove: the show folders of the archive root.
        lines.append("complete -c podarchive -n \"__fish_seen_subcommand_from remove\" -f -a \(fishShows)")
        lines.append(
            "complete -c podarchive -n \"__fish_seen_subcommand_from completions\" -a '\(shells.joined(separator: " "))'"
        )
        lines.append("complete -c podarchive -n \"__fish_seen_subcommand_from help\" -a \"$commands\"")
        for option in OptionTable.all {
            let condition = "-n \"__fish_seen_subcommand_from \(option.commands.joined(separator: " "))\""
            var line = "complete -c podarchive \(condition)"
            line += option.name == "--help" ? " -s h -l help" : " -l \(option.name.dropFirst(2))"
            if option.takesValue {
                switch option.completion {
                case .none: line += " -x"
                case .file: line += " -r -F"
                case .directory: line += " -x -a '(__fish_complete_directories)'"
                case .shows: line += " -x -a \(fishShows)"
                case .words(let words): line += " -x -a '\(words.map { "\"\($0)\"" }.joined(separator: " "))'"
                }
            }
            lines.append(line + " -d '\(option.summary)'")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
