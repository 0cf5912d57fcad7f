# zsh zsh-complete.zsh FPATH_DIR LINE...: for each command line, every completion zsh's completion system offers
# for it, one a line, then a line "=", the line as completion left it (what the user sees: a show inserted with its
# quoting and suffix), then a line "--" (used by CompletionSessionTests).
# An interactive zsh in a pseudo-terminal (zpty) loads the scripts of FPATH_DIR with compinit; compadd is wrapped to
# print each match between \x01 marks (and add it) and each completion ends with a \x02 line (both made at run time, so the
# echoed input never carries them); the line is then cleared for the next.
zmodload zsh/zpty || { print -u2 'zsh/zpty is missing'; exit 1 }
zpty z zsh -f -i
zpty -w z "fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () {
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
  typeset -a __hits; builtin compadd -A __hits "$@"; local h
  for h in $__hits; do print -r -- "${(#):-1}$h${(#):-1}"; done
  builtin compadd "$@"
}'
zpty -w z 'completion-done () { print -r -- "${(#):-2}"; comppostfuncs=( completion-done ) }'
zpty -w z "bindkey '^I' complete-word"
# No list of matches drawn (a long one would stop at "do you wish to see all N possibilities?").
zpty -w z 'unsetopt auto_list list_ambiguous'
zpty -w z 'show-buffer () { print -r -- "${(#):-3}$BUFFER${(#):-3}" }; zle -N show-buffer; bindkey "^B" show-buffer'
zpty -w z 'comppostfuncs=( completion-done )'
local line mark=$'\x01' done=$'\x02' shown=$'\x03'
for request in "${@[2,-1]}"; do
  zpty -w -n z "$request"$'\t'
  while zpty -r z line; do
    [[ $line == *$done* ]] && break
    [[ $line == *$mark*$mark* ]] && print -r -- "${${line#*$mark}%%$mark*}"
  done
  print -r -- "="
  zpty -w -n z $'\C-b'
  while zpty -r z line; do
    [[ $line == *$shown*$shown* ]] && { print -r -- "${${line#*$shown}%%$shown*}"; break }
  done
  print -r -- "--"
  zpty -w -n z $'\C-u'
done
zpty -d z
