// Several shows at once: each show's lines go into a buffer of its own, and the buffers are printed whole, in the
// shows' order, as soon as every show before them is done; on a terminal, one status line below them says how
// many are done and which are running. One show (or --feed-jobs 1) writes straight to the terminal, with live
// progress per download (`SyncRunConsole` chooses).
import ArchiverCore
import Foundation

/// What one show wrote, standard output and error in the order written.
final class ShowBuffer: Sendable {
    private let chunks: Locked<[(error: Bool, printed: Printed)]> = Locked([])

    /// The show's standard output.
    var output: any TextOutput { Stream(buffer: self, error: false) }
    /// The show's standard error.
    var errors: any TextOutput { Stream(buffer: self, error: true) }

    fileprivate func append(_ printed: Printed, error: Bool) {
        chunks.withLock { chunks in chunks.append((error, printed)) }
    }

    /// Writes everything to `output` and `errors`, in order.
    func replay(to output: any TextOutput, errors: any TextOutput) {
        for chunk in chunks.current { (chunk.error ? errors : output).write(chunk.printed) }
    }

    private struct Stream: TextOutput {
        let buffer: ShowBuffer
        let error: Bool
        func write(_ text: String) { buffer.append(Printed(text), error: error) }
        func write(_ printed: Printed) { buffer.append(printed, error: error) }
    }
}

/// Prints each show's buffer once it and every show before it are done; on a terminal, keeps one status line
/// below what is printed (cleared before each print, gone at the end).
final class OrderedPrinter: Sendable {
    private let buffers: [ShowBuffer]
    private let names: [String]
    private let output: any TextOutput
    private let errors: any TextOutput
    private let terminal: TerminalInfo
    /// Which shows are done and running, and what is on screen; printing happens while holding it, so output
    /// stays in show order.
    private let state = Locked(Progress())

    private struct Progress {
        var done: Set<Int> = []
        var running: Set<Int> = []
        var nextToPrint = 0
        var statusShown = false
    }

    init(shows names: [String], output: any TextOutput, errors: any TextOutput, terminal: TerminalInfo) {
        buffers = names.map { _ in ShowBuffer() }
        self.names = names
        self.output = output
        self.errors = errors
        self.terminal = terminal
    }

    func buffer(_ index: Int) -> ShowBuffer { buffers[index] }

    /// Show `index` has started.
    func started(_ index: Int) {
        state.withLock { progress in
            progress.running.insert(index)
            drawStatus(&progress)
        }
    }

    /// Show `index` is done: print it, and the shows after it that were waiting for it.
    func finished(_ index: Int) {
        state.withLock { progress in
            progress.done.insert(index)
            progress.running.remove(index)
            clearStatus(&progress)
            while progress.done.contains(progress.nextToPrint) {
                buffers[progress.nextToPrint].replay(to: output, errors: errors)
                progress.nextToPrint += 1
            }
            drawStatus(&progress)
        }
    }

    /// The run is over: the status line goes.
    func end() {
        state.withLock { clearStatus(&$0) }
    }

    private func clearStatus(_ progress: inout Progress) {
        guard progress.statusShown else { return }
        output.write(Printed.control("\r\u{1B}[K"))
        progress.statusShown = false
    }

    /// `3 of 40 shows done; syncing Show A, Show B...`, cut to the terminal's width (a wrapped line could not be
    /// cleared).
    private func drawStatus(_ progress: inout Progress) {
        guard terminal.live, progress.done.count < names.count else { return }
        let syncing = progress.running.sorted().map { names[$0] }.joined(separator: ", ")
        let line = "\(progress.done.count) of \(names.count) shows done; syncing \(syncing)"
        output.write(
            Printed.control("\r\u{1B}[K") + SyncConsole.cut(InertText.of(line), to: max(20, terminal.columns() - 1)))
        progress.statusShown = true
    }
}
