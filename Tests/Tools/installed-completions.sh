#!/usr/bin/env bash
# installed-completions.sh PREFIX: after `make install PREFIX=PREFIX`, a fresh bash, zsh and fish each find
# podarchive's completions where that prefix's system would have them looked for, and complete `podarchive sy` to
# `sync` (used by .ci/run). bash (bash-completion's loader) looks in each $XDG_DATA_DIRS folder, here PREFIX/share
# as the XDG default (/usr/local/share:/usr/share) names /usr/local's; zsh runs compinit with PREFIX's
# site-functions on $fpath (as a zsh of that prefix has them); fish runs as a plain shell, no XDG_DATA_DIRS.
# Every shell runs under a timeout; a shell that is not installed fails the check.
set -euo pipefail
prefix="$1"
fail() { echo "installed completions: $*"; exit 1; }
export PATH="$prefix/bin:/usr/bin:/bin" HOME="$prefix"

loader=/usr/share/bash-completion/bash_completion
[ -r "$loader" ] || fail "bash-completion is not installed ($loader)"
got="$(timeout 20 env XDG_DATA_DIRS="$prefix/share:/usr/share" bash --norc --noprofile -c "source $loader
    __load_completion podarchive || exit 1
    COMP_WORDS=(podarchive sy); COMP_CWORD=1; _podarchive; printf '%s\n' \"\${COMPREPLY[@]}\"")" \
    || fail "bash found no completion for podarchive under $prefix"
[ "$got" = sync ] || fail "bash completed 'podarchive sy' to '$got'"

got="$(timeout 20 zsh -f -c "fpath=('$prefix/share/zsh/site-functions' \$fpath); autoload -U compinit
    compinit -u -D; print -r -- \$_comps[podarchive]")" || fail "zsh failed"
[ "$got" = _podarchive ] || fail "zsh found no completion for podarchive under $prefix (got '$got')"

# fish as a plain shell has it (no XDG_DATA_DIRS): make install chose a folder this fish reads.
got="$(timeout 20 env -u XDG_DATA_DIRS fish -c 'complete -C "podarchive sy"' | cut -f1)" || fail "fish failed"
[ "$got" = sync ] || fail "fish completed 'podarchive sy' to '$got' (make install put it where fish does not look)"
echo "installed completions: bash, zsh and fish find podarchive's under $prefix"
