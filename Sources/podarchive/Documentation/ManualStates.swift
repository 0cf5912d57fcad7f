// The man page's table of the states of an episode that is not on disk: how each comes about, what each command says
// of it, and how it is undone. Each row is checked by `StatesTableTests`, through the built binary.

/// EPISODES NOT ON DISK.
enum ManualStates {
    static let text = #"""
        .SH EPISODES NOT ON DISK
        An archived episode's file may be missing from its show's folder on purpose, or not. The index says which (see
        THE INDEX), and every command reads it the same way. None of the states below but the last is ever fetched again
        by \fBsync\fR or by \fBverify \-\-repair\fR, and none of them is a problem of the archive (exit 0), but an offloaded
        copy that no longer matches its record.
        .TP
        \fBforgotten\fR (\fBforget\fR; \fBskipped\fR when it was never downloaded)
        Its entry leaves the index for \fB<show>/.podarchive/forgotten.json\fR, its files deleted unless
        \fB\-\-keep\-files\fR. \fBverify\fR, \fBlist \-\-archived\fR, \fBsite\fR and \fBexport\fR no longer see it. Undone
        by \fBforget \-\-undo\fR: a kept file is indexed again at once, else the next sync fetches it.
        .TP
        \fBoffloaded\fR (\fBoffload \-\-into\fR \fIDIR\fR, or a show's saved \fB\-\-keep\-last\fR/\fB\-\-keep\-days\fR with \fB\-\-into\fR)
        Its file, companions and sidecar moved to \fIDIR\fR\fB/<show>/\fR, each copy checked against the index first.
        \fBverify\fR checks them there when \fIDIR\fR is reachable (a damaged copy is a problem there, exit 1, never
        repaired) and otherwise says \fBoffloaded My Show/Pilot.mp3: in /mnt/cold/My Show, not reachable now, so not
        checked\fR; its summary counts them (\fB; 2 offloaded\fR). \fBlist \-\-archived\fR marks it \fBoffloaded to
        /mnt/cold/My Show on 2026\-11\-29\fR; the site marks it \fBoffloaded\fR with no player and no link (where it went
        is not the site's readers' business) and leaves it out of the show's podcast feed; \fBexport\fR leaves it out and
        says so (\fB; left out: 2 episodes offloaded\fR). Undone by \fBoffload \-\-restore\fR. \fBforget\fR of it
        leaves its copies in \fIDIR\fR and says so: it deletes only what is in the archive.
        .TP
        \fBdeleted by retention\fR (\fBoffload \-\-delete\fR, or a saved \fB\-\-keep\-last\fR/\fB\-\-keep\-days\fR with \fB\-\-delete\fR)
        Its files deleted on purpose. \fBverify\fR counts it (\fB; 1 deleted by retention\fR), \fBlist \-\-archived\fR
        marks it \fBdeleted by retention on 2026\-11\-29\fR, the site marks it, \fBexport\fR leaves it out and says so.
        Undone by \fBforget \-\-undo\fR \fIshow\fR \fIepisode\fR: the next sync fetches it again while the feed lists it
        (and a saved retention may let it go again).
        .TP
        \fBhanded off\fR (an \fB\-\-exec\fR hook that succeeded moved or removed the file: \fBmv "$PODARCHIVE_FILE" ...\fR)
        Recorded before the hook's run is: not fetched again, and the hook not run again. \fBverify\fR counts it
        (\fB; 3 handed off by a hook\fR), \fBlist \-\-archived\fR marks it \fBhanded off by a hook on ...\fR, the site
        marks it, \fBexport\fR leaves it out. Undone by \fBforget \-\-undo\fR: the next sync fetches it again (and runs no
        hook for it). Killed between a hook's move and its record, the episode is still owed its hook: the next sync finds
        its file missing, fetches it again and runs the hook again (at least once, as hooks are across a crash).
        .TP
        \fBdeleted by hand\fR (the file removed outside podarchive)
        A loss, not a choice: the next \fBsync\fR fetches it again (while the feed lists it), \fBverify\fR says \fBmissing
        My Show/Pilot.mp3\fR (exit 1) and \fBverify \-\-repair\fR fetches it. \fBlist \-\-archived\fR and the site still list
        it, and \fBexport\fR stops (exit 5) rather than write an archive without it. To remove an episode for good, use
        \fBforget\fR or \fBoffload \-\-delete\fR.
        .PP
        An index that holds an offloaded, deleted or handed\-off episode is written as format version 5, which an older
        podarchive refuses (exit 5) rather than fetch those episodes again; once none is left (every one restored or taken
        back) it is written as before.
        """#
}
