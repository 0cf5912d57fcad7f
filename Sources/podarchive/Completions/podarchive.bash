# bash completion for podarchive. Installed by `make install` into share/bash-completion/completions.
_podarchive() {
    local current previous command
    current="${COMP_WORDS[COMP_CWORD]}"
    previous="${COMP_WORDS[COMP_CWORD-1]}"
    command="${COMP_WORDS[1]}"
    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "sync list verify help --help --version" -- "$current"))
        return
    fi
    case "$previous" in
        --to) COMPREPLY=($(compgen -d -- "$current")); return ;;
        --opml|--feeds) COMPREPLY=($(compgen -f -- "$current")); return ;;
        --jobs|--retries|--timeout|--wait|--limit|--since|--match) return ;;
    esac
    case "$command" in
        sync)
            if [[ $current == -* ]]; then
                COMPREPLY=($(compgen -W "--to --opml --feeds --name --metadata --dry-run --quiet --verbose --json --limit --since --match --jobs --retries --timeout --wait --help" -- "$current"))
            else
                COMPREPLY=($(compgen -f -- "$current"))
            fi ;;
        list)
            if [[ $current == -* ]]; then
                COMPREPLY=($(compgen -W "--json --limit --since --match --help" -- "$current"))
            else
                COMPREPLY=($(compgen -f -- "$current"))
            fi ;;
        verify)
            if [[ $current == -* ]]; then
                COMPREPLY=($(compgen -W "--repair --to --jobs --retries --timeout --wait --help" -- "$current"))
            else
                COMPREPLY=($(compgen -d -- "$current"))
            fi ;;
        help) COMPREPLY=($(compgen -W "sync list verify help" -- "$current")) ;;
    esac
}
complete -F _podarchive podarchive
