# fish completion for podarchive. Installed by `make install` into share/fish/vendor_completions.d.
set -l commands sync list verify help
complete -c podarchive -f
complete -c podarchive -n "not __fish_seen_subcommand_from $commands" -a sync -d 'Archive every episode not archived yet'
complete -c podarchive -n "not __fish_seen_subcommand_from $commands" -a list -d 'Show the episodes of a feed'
complete -c podarchive -n "not __fish_seen_subcommand_from $commands" -a verify -d 'Recheck archived files against their SHA-256'
complete -c podarchive -n "not __fish_seen_subcommand_from $commands" -a help -d 'Show help for a command'
complete -c podarchive -n "not __fish_seen_subcommand_from $commands" -l version -d 'Show the version'
complete -c podarchive -n "__fish_seen_subcommand_from sync list" -F
complete -c podarchive -n "__fish_seen_subcommand_from sync verify" -l to -r -a '(__fish_complete_directories)' -d 'Archive root'
complete -c podarchive -n "__fish_seen_subcommand_from sync verify" -l jobs -r -d 'Episodes downloading at once'
complete -c podarchive -n "__fish_seen_subcommand_from sync verify" -l retries -r -d 'Tries after failures that may pass'
complete -c podarchive -n "__fish_seen_subcommand_from sync verify" -l timeout -r -d 'Seconds each episode may take'
complete -c podarchive -n "__fish_seen_subcommand_from sync verify" -l wait -r -d 'Seconds to wait for another sync'
complete -c podarchive -n "__fish_seen_subcommand_from sync list" -l json -d 'Print JSON'
complete -c podarchive -n "__fish_seen_subcommand_from verify" -l repair -d 'Download damaged files again'
complete -c podarchive -n "__fish_seen_subcommand_from help" -a "$commands"
complete -c podarchive -s h -l help -d 'Show help'
complete -c podarchive -n "__fish_seen_subcommand_from sync" -l quiet -d 'Print only errors'
complete -c podarchive -n "__fish_seen_subcommand_from sync" -l verbose -d 'Also say what was skipped'
complete -c podarchive -n "__fish_seen_subcommand_from sync list" -l limit -r -d 'Only the newest N episodes'
complete -c podarchive -n "__fish_seen_subcommand_from sync list" -l since -r -d 'Only episodes published since a date'
complete -c podarchive -n "__fish_seen_subcommand_from sync list" -l match -r -d 'Only titles matching a regular expression'
complete -c podarchive -n "__fish_seen_subcommand_from sync" -l opml -r -F -d 'OPML subscription list'
complete -c podarchive -n "__fish_seen_subcommand_from sync" -l feeds -r -F -d 'File of feeds, one a line'
complete -c podarchive -n "__fish_seen_subcommand_from sync" -l name -x -a '{title} "{date} {title}" "{episode:03} {title}"' -d 'File name template'
complete -c podarchive -n "__fish_seen_subcommand_from sync" -l metadata -d 'Write sidecars and the feed artwork'
complete -c podarchive -n "__fish_seen_subcommand_from sync" -l dry-run -d 'Only say what would be downloaded'
