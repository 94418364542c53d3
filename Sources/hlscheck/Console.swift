import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HLSCheck
import MediaFormats

/// What the terminal allows: colour and a progress line redrawn in place.
enum Terminal {
    /// Colour on a file descriptor: a terminal, `NO_COLOR` unset or empty (no-color.org), and
    /// `TERM` not `dumb`.
    static func allowsColor(_ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Bool
    {
        isatty(descriptor) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    /// A line redrawn in place (carriage return, erase to end of line): a terminal whose `TERM`
    /// is not `dumb`, outside CI. Never in a pipe, a file or a CI log — not even a CI runner that
    /// gives the job a pseudo-terminal (`CI` set, as GitHub Actions, GitLab CI and most others do).
    static func allowsRedraw(_ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Bool
    {
        let ci = environment["CI"].map { !["", "0", "false"].contains($0.lowercased()) } ?? false
        return isatty(descriptor) == 1 && environment["TERM"] != "dumb" && !ci
    }

    /// The columns text written to `descriptor` must fit in: `COLUMNS` when set to a number
    /// (as a user or a script asks), else the width of the terminal; nil for a pipe or a file
    /// (no terminal to fit: a table row stays one line, for grep and diff).
    static func textWidth(_ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> Int?
    {
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        return ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// Columns of the terminal on `descriptor` (`COLUMNS` or 80 when it cannot be asked).
    static func width(_ descriptor: Int32) -> Int {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? "") ?? 80
    }
}

/// Standard output for reports, and the progress line on standard error: one owner, so a
/// report is never written into the middle of a progress line and two reports never interleave.
actor Console {
    nonisolated let showsProgress: Bool
    private let total: Int
    private let slots: SegmentSlots
    private var done = 0
    private var visible = false
    private var finished = false
    private let start = Date()

    /// `showsProgress`: standard error is a terminal that can redraw, and not `--quiet`.
    init(showsProgress: Bool, total: Int, slots: SegmentSlots) {
        self.showsProgress = showsProgress
        self.total = total
        self.slots = slots
    }

    /// Writes report text to standard output, the progress line out of the way (the next
    /// `redraw` brings it back).
    func print(_ text: String) {
        guard !text.isEmpty else { return }
        clear()
        writeStandardOutput(text)
    }

    /// Counts a stream done; the next redraw shows it.
    func streamDone() {
        done += 1
    }

    /// Draws the progress line again (also called by a timer, for the rate and ETA).
    func redraw() async {
        guard showsProgress, !finished else { return }
        let segments = await slots.completed
        let line = Self.progressLine(
            done: done, total: total, segments: segments, elapsed: Date().timeIntervalSince(start),
            width: Terminal.width(STDERR_FILENO))
        writeStandardError("\r\u{1B}[K" + line)
        visible = true
    }

    /// Removes the progress line, leaving the cursor at the start of an empty line.
    func clear() {
        guard visible else { return }
        writeStandardError("\r\u{1B}[K")
        visible = false
    }

    /// Removes the progress line for good: the run is over.
    func finish() {
        clear()
        finished = true
    }

    /// "hlscheck: 3/10 streams, 412 segments, 85 segments/s, ETA 0:07", cut to `width - 1`
    /// columns (a line that wraps cannot be redrawn in place).
    static func progressLine(done: Int, total: Int, segments: Int, elapsed: TimeInterval, width: Int) -> String {
        var parts = ["hlscheck: \(done)/\(total) streams"]
        if segments > 0 {
            parts.append("\(segments) segment\(segments == 1 ? "" : "s")")
            if elapsed >= 0.5 { parts.append("\(Int((Double(segments) / elapsed).rounded())) segments/s") }
        } else if elapsed >= 0.5, done > 0 {
            parts.append(fixedPoint(Double(done) / elapsed, decimals: 1) + " streams/s")
        }
        if done > 0, done < total {
            let remaining = elapsed / Double(done) * Double(total - done)
            parts.append("ETA " + clock(remaining))
        }
        let line = parts.joined(separator: ", ")
        return String(line.prefix(max(10, width - 1)))
    }

    static func clock(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds < 360_000 else { return "--" }
        let whole = Int(seconds.rounded())
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let two = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}

/// Unbuffered writes (write(2)), so text streamed during the run and the final report leave in
/// the order they were written.
func writeStandardOutput(_ text: String) {
    writeAll(STDOUT_FILENO, Array(text.utf8))
}

/// Bytes as they are: a diff for patch(1) carries a playlist's bytes, valid UTF-8 or not.
func writeStandardOutput(bytes: [UInt8]) {
    writeAll(STDOUT_FILENO, bytes)
}

func writeStandardError(_ text: String) {
    writeAll(STDERR_FILENO, Array(text.utf8))
}

/// All of `text`, in as many write(2) calls as it takes; a closed pipe or a full disk ends it
/// quietly (the exit code still says how the run went).
private func writeAll(_ descriptor: Int32, _ text: [UInt8]) {
    var bytes = text[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        bytes = bytes.dropFirst(written)
    }
}
