// The zsh and fish completion scripts, from the same tables as bash's.

extension Completions {
    // MARK: - zsh

    static func zsh() -> String {
        let commandValues = Commands.entries.map {
            ShellWord.quoted("\($0.name)[\(zshDescription($0.info.summary))]")
        }.joined(separator: " ")
        var cases: [String] = []
        for command in optionCommands {
            var specs = command.options.map { zshSpec($0, command) }
            let many = command.info.repeats ? "*" : "1"
            switch command.info.completion {
            case .file: specs.append(ShellWord.quoted("\(many):feed:_files"))
            case .directory: specs.append(ShellWord.quoted("\(many):folder:_files -/"))
            // The show folders of the archive root, wherever the shell is.
            case .shows: specs.append(ShellWord.quoted("\(many):show:\(zshAction(.shows))"))
            // A show, then its episodes.
            case .showThenEpisodes:
                specs += [
                    ShellWord.quoted("1:show:_podarchive_shows"), ShellWord.quoted("*:episode:_podarchive_episodes"),
                ]
            case .none, .words: break
            }
            if command.name == showsAfterFlag.command, let last = specs.indices.last {
                // `list --archived SHOW`: a show of the archive, not a feed.
                specs[last] = ShellWord.quoted(
                    "1:feed or show:{ if (( ${words[(I)\(showsAfterFlag.flag)]} )); then _podarchive_shows; "
                        + "else _files; fi }")
            }
            cases.append("        \(command.name)) _arguments \(specs.joined(separator: " ")) ;;")
        }
        return """
            #compdef podarchive
            # zsh completion for podarchive, made by `podarchive completions zsh`.
            # The archive root as podarchive config says it (the configuration file's to, $PODARCHIVE_DIR), else
            # $PODARCHIVE_DIR, else ~/Podcasts.
            _podarchive_root() {
                local root
                root=$(command podarchive config 2>/dev/null | sed -n -E \(ShellWord.quoted(rootFromConfig)))
                print -r -- "${root:-${PODARCHIVE_DIR:-$HOME/Podcasts}}"
            }
            # The show folders of the archive root, by the names the commands take (no trailing slash, no
            # dot-folder such as .podarchive).
            _podarchive_shows() {
                local -a shows expl
                shows=( "$(_podarchive_root)"/*(N/:t) )
                _wanted shows expl show compadd -a shows
            }
            # The archived episodes of the show named first ($line[1], unquoted), by file name, as forget takes
            # them (read from its index by podarchive list --archived; no network).
            _podarchive_episodes() {
                local -a episodes expl
                episodes=( ${(f)"$(command podarchive list --archived ${(Q)line[1]} 2>/dev/null | sed -n -E \(ShellWord.quoted(episodeFiles)))"} )
                _wanted episodes expl episode compadd -a episodes
            }
            _podarchive() {
                if (( CURRENT == 2 )); then
                    _values 'command' \(commandValues)
                    return
                fi
                # The command is the word _arguments reads as the one its options follow.
                local command=$words[2]
                shift words
                (( CURRENT-- ))
                case $command in
            \(cases.joined(separator: "\n"))
                    completions) _values 'shell' \(shells.joined(separator: " ")) ;;
                    help) _arguments \(helpSpecs) ;;
                esac
            }
            _podarchive "$@"

            """
    }

    /// `help`'s specs: `--man`, and a command's name.
    private static var helpSpecs: String {
        ShellWord.quoted("--man[\(zshDescription(HelpCommand.manSummary))]") + " "
            + ShellWord.quoted("1:command:(\(Commands.names.joined(separator: " ")))")
    }

    /// One option's `_arguments` spec: `'(excluded)'{-q,--quiet}'[summary]'`, then `:value:action`.
    private static func zshSpec(_ option: OptionDescriptor, _ command: CommandEntry) -> String {
        let spellings = (option.short.map { ["-\($0)"] } ?? []) + [option.name]
        let excluded = command.options.filter { option.excludes.contains($0.name) }.flatMap {
            ($0.short.map { ["-\($0)"] } ?? []) + [$0.name]
        }
        // An option with a short name excludes its other spelling; a repeatable one may come again.
        let group = (option.short == nil ? [] : spellings) + excluded
        var tail = "[\(zshDescription(option.summary))]"
        if let value = option.value {
            tail += ":\(zshDescription(value.lowercased(), colons: true)):\(zshAction(option.completion))"
        }
        let prefix = group.isEmpty ? "" : "(\(group.joined(separator: " ")))"
        guard spellings.count > 1 else { return ShellWord.quoted(prefix + option.name + tail) }
        return ShellWord.quoted(prefix) + "{\(spellings.joined(separator: ","))}" + ShellWord.quoted(tail)
    }

    private static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return " "
        case .file: return "_files"
        case .directory: return "_files -/"
        case .shows, .showThenEpisodes: return "_podarchive_shows"
        case .words(let words):
            return "("
                + words.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(
                    separator: " ") + ")"
        }
    }

    // MARK: - fish

    /// fish: the show folders of the archive root (see `fishRoot`).
    private static let fishShows = fishQuoted("(for d in (__podarchive_root)/*/; basename $d; end)")

    /// fish: the archive root as podarchive config says it, else $PODARCHIVE_DIR, else ~/Podcasts.
    private static var fishRoot: [String] {
        [
            "function __podarchive_root",
            "    set -l root",
            "    type -q podarchive; and set root (command podarchive config 2>/dev/null | sed -n -E "
                + "\(fishQuoted(rootFromConfig)))",
            "    if test -n \"$root\"; echo $root; else if set -q PODARCHIVE_DIR; echo $PODARCHIVE_DIR; "
                + "else; echo $HOME/Podcasts; end",
            "end",
            // The first operand after the command (skipping options and the values of those that take one).
            "function __podarchive_show",
            "    set -l skip 0",
            "    for word in (commandline -opc)[3..-1]",
            "        if test $skip = 1; set skip 0; continue; end",
            "        if contains -- $word \(fishValueSpellings); set skip 1; continue; end",
            "        string match -q -- '-*' $word; and continue",
            "        echo $word; return 0",
            "    end",
            "    return 1",
            "end",
            "function __podarchive_episodes",
            "    set -l show (__podarchive_show); or return",
            "    command podarchive list --archived $show 2>/dev/null | sed -n -E \(fishQuoted(episodeFiles))",
            "end",
        ]
    }

    /// fish: every option's spellings that take a value, for `__podarchive_show` to skip with their values.
    private static var fishValueSpellings: String {
        Array(Set(Commands.entries.flatMap(valueSpellings))).sorted().joined(separator: " ")
    }

    static func fish() -> String {
        let all = Commands.names.joined(separator: " ")
        var lines =
            [
                "# fish completion for podarchive, made by `podarchive completions fish`.",
                "set -l commands \(all)",
                "complete -c podarchive -f",
            ] + fishRoot
        for command in Commands.entries {
            lines.append(
                "complete -c podarchive -n \"not __fish_seen_subcommand_from $commands\" -a \(command.name) "
                    + "-d \(fishQuoted(command.info.summary))")
        }
        lines.append(
            "complete -c podarchive -n \"not __fish_seen_subcommand_from $commands\" -l version -d 'show the version'")
        for command in optionCommands {
            var condition = "-n \"__fish_seen_subcommand_from \(command.name)\""
            if command.name == showsAfterFlag.command {
                let archived = "__fish_contains_opt \(showsAfterFlag.flag.dropFirst(2))"
                lines.append(
                    "complete -c podarchive -n \"__fish_seen_subcommand_from \(command.name); and \(archived)\" -f -a \(fishShows)"
                )
                condition = "-n \"__fish_seen_subcommand_from \(command.name); and not \(archived)\""
            }
            switch command.info.completion {
            case .showThenEpisodes:
                let seen = "__fish_seen_subcommand_from \(command.name)"
                lines.append(
                    "complete -c podarchive -n \"\(seen); and not __podarchive_show >/dev/null\" -f -a \(fishShows)")
                lines.append(
                    "complete -c podarchive -n \"\(seen); and __podarchive_show >/dev/null\" -f -a '(__podarchive_episodes)'"
                )
            case .file: lines.append("complete -c podarchive \(condition) -F")
            case .directory: lines.append("complete -c podarchive \(condition) -a '(__fish_complete_directories)'")
            case .shows: lines.append("complete -c podarchive \(condition) -f -a \(fishShows)")
            case .none, .words: break
            }
        }
        lines.append(
            "complete -c podarchive -n \"__fish_seen_subcommand_from completions\" -a \(fishQuoted(shells.joined(separator: " ")))"
        )
        lines.append("complete -c podarchive -n \"__fish_seen_subcommand_from help\" -a \"$commands\"")
        for option in OptionCatalog.all {
            let commands = Commands.entries.filter {
                $0.options.contains { $0.name == option.name && $0.value == option.value }
            }.map(\.name)
                .joined(separator: " ")
            var line = "complete -c podarchive -n \"__fish_seen_subcommand_from \(commands)\""
            line += option.short.map { " -s \($0)" } ?? ""
            line += " -l \(option.name.dropFirst(2))"
            if option.takesValue {
                switch option.completion {
                case .none: line += " -x"
                case .file: line += " -r -F"
                case .directory: line += " -x -a '(__fish_complete_directories)'"
                case .shows, .showThenEpisodes: line += " -x -a \(fishShows)"
                case .words(let words):
                    line += " -x -a \(fishQuoted(words.map(ShellWord.quoted).joined(separator: " ")))"
                }
            }
            lines.append(line + " -d \(fishQuoted(option.summary))")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
