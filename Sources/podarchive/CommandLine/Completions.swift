// `podarchive completions bash|zsh|fish`: the completion scripts, made from the command and option tables (as gh,
// kubectl and rustup do). `make install` installs their output; nothing here is kept by hand. Every text from the
// tables goes into the script through one quoting function per shell (as swift-argument-parser's generators do),
// so an apostrophe or a bracket in a summary cannot end a string early.

enum Completions {
    static let shells = CompletionsCommand.shells

    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash()
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    /// The commands that take options, with their declarations.
    static var optionCommands: [CommandEntry] {
        Commands.entries.filter(\.info.readsConfiguration)
    }

    /// A command whose operand is a show of the archive instead when a flag is given: `list --archived SHOW`.
    static let showsAfterFlag = (command: "list", flag: OutputOptions.archived.descriptor.name)

    /// A sed expression taking each episode's file name from `podarchive list --archived SHOW`'s lines
    /// `DATE  SIZE  TITLE  [FILE]` (then, for one the feed no longer lists, `  removed upstream (...)`): what
    /// `forget` accepts for an episode, read from the show's index as `list --archived` reads it, with no network.
    static let episodeFiles = #"s/^[0-9-]{10}  .*  \[(.*)\](  removed upstream \(.*)?$/\1/p"#

    /// The options of `command` that take a value, spelled as on a command line: the words an operand is not.
    static func valueSpellings(_ command: CommandEntry) -> [String] {
        command.options.filter(\.takesValue).flatMap { [$0.name] + ($0.short.map { ["-\($0)"] } ?? []) }
    }

    /// A sed expression taking the archive root from `podarchive config`'s line `to = ROOT    # source`, so a
    /// script completes the shows of the root a command would use (the configuration file's `to` included).
    static let rootFromConfig =
        #"s/^to = (.*[^ ]) +# (command line|environment|config file|default)(:[0-9]+)?( \(PODARCHIVE_DIR\))?$/\1/p"#

    // MARK: - Quoting

    /// `text` as one word for fish: single quotes, with `\` and `'` escaped by a backslash.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: #"\"#, with: #"\\"#).replacingOccurrences(of: "'", with: #"\'"#) + "'"
    }

    /// `text` inside a zsh `_arguments` or `_values` description, `[...]`: `\`, `[` and `]` escaped (and `:`
    /// where `colons` says, as in a value's message, which a colon would end).
    static func zshDescription(_ text: String, colons: Bool = false) -> String {
        var escaped = ""
        for character in text {
            if "\\[]".contains(character) || (colons && character == ":") { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    // MARK: - bash

    /// Names are read into COMPREPLY a line at a time (`mapfile`) and marked as file names (`compopt`), so a
    /// folder named "My Show" is one completion, quoted as the shell needs.
    private static func bash() -> String {
        let names = Commands.names.joined(separator: " ")
        var valueCases: [String] = []
        for command in optionCommands {
            for option in command.options where option.takesValue {
                let spellings = [option.name] + (option.short.map { ["-\($0)"] } ?? [])
                let patterns = spellings.map { "\(command.name):\($0)" }
                valueCases.append(
                    "        \(patterns.joined(separator: "|"))) \(bashValues(option.completion)); return ;;")
            }
        }
        var commandCases: [String] = []
        for command in optionCommands {
            let flags = command.options.flatMap { option in
                (option.short.map { ["-\($0)"] } ?? []) + [option.name]
            }
            commandCases.append(
                """
                        \(command.name))
                            if [[ $cur == -* ]]; then
                                COMPREPLY=($(compgen -W \(ShellWord.quoted(flags.joined(separator: " "))) -- "$cur"))
                            else
                                \(bashOperand(command))
                            fi ;;
                """)
        }
        return """
            # bash completion for podarchive, made by `podarchive completions bash`.
            _podarchive_names() {
                compopt -o filenames 2>/dev/null
                mapfile -t COMPREPLY < <(compgen "$1" -- "$2")
            }
            # The archive root as podarchive config says it (the configuration file's to, $PODARCHIVE_DIR), else
            # $PODARCHIVE_DIR, else ~/Podcasts (a podarchive not on the PATH, or one without config).
            _podarchive_root() {
                local root
                root=$(command podarchive config 2>/dev/null | sed -n -E \(ShellWord.quoted(rootFromConfig)))
                printf '%s\\n' "${root:-${PODARCHIVE_DIR:-$HOME/Podcasts}}"
            }
            # Each line of standard input that begins with $1, into COMPREPLY (names with spaces stay whole).
            _podarchive_starting() {
                local name
                COMPREPLY=()
                compopt -o filenames 2>/dev/null
                while IFS= read -r name; do [[ -n $name && $name == "$1"* ]] && COMPREPLY+=("$name"); done
            }
            # The shows of the archive root: the folder names `remove` takes (no dot-folder such as .podarchive).
            _podarchive_shows() {
                _podarchive_starting "$1" < <(cd "$(_podarchive_root)" 2>/dev/null && compgen -d -- "$1" | grep -v '^[.]')
            }
            # The archived episodes of show $1 by file name, as forget takes them (podarchive list --archived).
            _podarchive_episodes() {
                _podarchive_starting "$2" < <(command podarchive list --archived "$1" 2>/dev/null \\
                    | sed -n -E \(ShellWord.quoted(episodeFiles)))
            }
            # The first operand of the line before the word completed, unquoted: words after the command that are
            # neither an option nor the value of one of the options $1 lists.
            _podarchive_operand() {
                local i word
                for (( i = 2; i < COMP_CWORD; i++ )); do
                    word=${COMP_WORDS[i]}
                    if [[ " $1 " == *" $word "* ]]; then (( i++ )); continue; fi
                    [[ $word == -* ]] && continue
                    case $word in
                        \\'*\\') word=${word:1:${#word}-2} ;;
                        \\"*\\") word=${word:1:${#word}-2} ;;
                        *) word=$(printf '%s' "$word" | sed -E 's/\\\\(.)/\\1/g') ;;
                    esac
                    printf '%s\\n' "$word"
                    return
                done
            }
            _podarchive() {
                local cur prev cmd
                cur="${COMP_WORDS[COMP_CWORD]}"
                prev="${COMP_WORDS[COMP_CWORD-1]}"
                cmd="${COMP_WORDS[1]}"
                if [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W \(ShellWord.quoted(names + " --help --version")) -- "$cur"))
                    return
                fi
                case "$cmd:$prev" in
            \(valueCases.joined(separator: "\n"))
                esac
                case "$cmd" in
            \(commandCases.joined(separator: "\n"))
                    completions) COMPREPLY=($(compgen -W \(ShellWord.quoted(shells.joined(separator: " "))) -- "$cur")) ;;
                    help) COMPREPLY=($(compgen -W \(ShellWord.quoted(names + " --man --help")) -- "$cur")) ;;
                esac
            }
            complete -F _podarchive podarchive

            """
    }

    /// What completes `command`'s operands in bash.
    private static func bashOperand(_ command: CommandEntry) -> String {
        if command.name == showsAfterFlag.command {
            return
                "if [[ \" ${COMP_WORDS[*]} \" == *\" \(showsAfterFlag.flag) \"* ]]; then _podarchive_shows \"$cur\"; "
                + "else \(bashValues(command.info.completion)); fi"
        }
        guard command.info.completion == .showThenEpisodes else { return bashValues(command.info.completion) }
        let skipped = ShellWord.quoted(valueSpellings(command).joined(separator: " "))
        return "local show; show=$(_podarchive_operand \(skipped)); "
            + "if [[ -n $show ]]; then _podarchive_episodes \"$show\" \"$cur\"; else _podarchive_shows \"$cur\"; fi"
    }

    private static func bashValues(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: return "COMPREPLY=()"
        case .file: return "_podarchive_names -f \"$cur\""
        case .directory: return "_podarchive_names -d \"$cur\""
        case .shows, .showThenEpisodes: return "_podarchive_shows \"$cur\""
        case .words(let words):
            // Suggestions with spaces in them: one a line, so each stays whole.
            let list = words.map(ShellWord.quoted).joined(separator: " ")
            return "mapfile -t COMPREPLY < <(printf '%s\\n' \(list) | grep -F -- \"$cur\")"
        }
    }
}
