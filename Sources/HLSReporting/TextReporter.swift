public import HLSCheck

/// Compiler-style lines (`path:line:col: error: message [rule-id]`) and a one-line summary: what
/// a person reads in a terminal or a CI log. The variant table of each stream (declared against
/// measured bit rates, codecs, the poster) is a detail shown on request (`--show-variants`),
/// fitted to the width of the terminal.
public struct TextReporter: Sendable {
    /// ANSI colours for a terminal; never in files or pipes.
    package var color: Bool

    /// Findings and the summary only: no variant tables, no blank lines, no line that names
    /// `hlscheck rules` (`--quiet`). Wins over `showsVariants`.
    package var quiet: Bool

    /// Each stream's variant table after its findings (`--show-variants`).
    package var showsVariants: Bool

    /// The columns a variant table fits in (a terminal's width); nil for no limit (a file, a
    /// pipe: each variant stays on one line, for grep). A table wider than this is printed as
    /// several narrower ones, each led by the URI column.
    package var width: Int?

    /// The most lines of one rule in one file (`--max-per-rule`, 100 by default); one line after
    /// them says how many more there are. nil: no limit. One broken line repeated 80 000 times
    /// would otherwise bury every other finding of the log.
    package var maximumPerRule: Int? = TextReporter.defaultMaximumPerRule

    /// `--max-per-rule`'s default.
    package static let defaultMaximumPerRule = 100

    /// Makes a reporter; `color` adds ANSI colours (only for a terminal), `quiet` prints findings
    /// and the summary only, `showsVariants` adds each stream's variant table, fitted to `width`
    /// columns when given.
    public init(color: Bool = false, quiet: Bool = false, showsVariants: Bool = true, width: Int? = nil) {
        self.color = color
        self.quiet = quiet
        self.showsVariants = showsVariants
        self.width = width
    }

    /// The text report of every input, in order: findings (and variant tables), then the summary.
    public func render(_ reports: [CheckReport]) -> String {
        var tally = ReportTally()
        for report in reports { tally.add(report) }
        return reports.map(render(stream:)).joined() + ending(tally)
    }

    private var tables: Bool { showsVariants && !quiet }

    /// What follows the streams' parts: the command that explains each rule found (not with
    /// `quiet`), then the summary line. Without tables, one blank line sets the summary apart
    /// from the findings above it (none when nothing was printed above).
    package func ending(_ tally: ReportTally) -> String {
        let separated = !quiet && !tables && (!tally.rules.isEmpty || tally.mediaPlaylists > 0)
        return (separated ? "\n" : "") + (quiet ? "" : documentation(tally)) + summaryLine(tally) + "\n"
    }

    /// One stream's part of the report (its findings, and its variant table when shown), without
    /// the summary: what `hlscheck check` prints as soon as that stream is done. `render` is these
    /// parts, in input order, then the summary line.
    package func render(stream report: CheckReport) -> String {
        var out = ""
        var cap = PerRuleCap(maximum: maximumPerRule)
        for diagnostic in report.diagnostics where !diagnostic.suppressed {
            if cap.admits(diagnostic) { out += line(for: diagnostic) + "\n" }
        }
        out += cap.omissionLines(format: "text").map { $0 + "\n" }.joined()
        if let multivariant = report.multivariantPlaylists {
            out += mediaPlaylistNote(report.input, multivariant) + "\n"
        }
        guard tables else { return out }
        if !report.variants.isEmpty {
            if report.diagnostics.contains(where: { !$0.suppressed }) { out += "\n" }
            out += "Variants of \(TerminalText.escaped(report.input))\n"
            out += variantTable(report.variants)
        }
        return out + "\n"
    }

    /// The command that explains every rule that found something (`hlscheck rules ID…`, in the
    /// terminal, whatever is published where), once per rule, alphabetically.
    func documentation(_ tally: ReportTally) -> String {
        let rules = tally.rules.sorted()
        guard !rules.isEmpty else { return "" }
        return
            "What each rule checks and how to fix it: hlscheck rules \(rules.map { TerminalText.escaped($0) }.joined(separator: " "))\n\n"
    }

    /// A media playlist was checked on its own: a passing check says nothing about the stream's
    /// variants, so say what did not run and, when known, what to check instead.
    func mediaPlaylistNote(_ input: String, _ multivariant: [String]) -> String {
        let instead =
            multivariant.isEmpty
            ? "check the stream's multivariant playlist for them"
            : "check \(multivariant.map { TerminalText.escaped($0) }.joined(separator: " or ")), which references it"
        return paint(TerminalText.escaped(input), "1")
            + " is a media playlist: the checks of a multivariant playlist (audio-only variant, BANDWIDTH, renditions) did not run; "
            + instead
    }

    func line(for diagnostic: Diagnostic) -> String {
        // Text from playlists is escaped: a control character must not drive the terminal.
        let place = diagnostic.place.map { paint("\(TerminalText.escaped($0)):", "1") + " " } ?? ""
        let code =
            switch diagnostic.severity {
            case .error: "1;31"
            case .warning: "1;33"
            case .note: "1;36"
            }
        return
            "\(place)\(paint(diagnostic.severity.rawValue + ":", code)) \(TerminalText.escaped(diagnostic.shownMessage)) [\(diagnostic.rule)]"
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func variantTable(_ variants: [VariantSummary]) -> String {
        let header = [
            "URI", "AUDIO-ONLY", "PEAK declared/measured", "AVERAGE declared/measured", "CODECS",
            "RESOLUTION", "SEGMENTS", "POSTER",
        ]
        let rows = variants.map { variant -> [String] in
            [
                TerminalText.escaped(variant.uri),
                variant.audioOnly ? "yes" : "no",
                pair(variant.declaredBandwidth, variant.measuredPeakBitrate),
                pair(variant.declaredAverageBandwidth, variant.measuredAverageBitrate),
                variant.codecs.declared.map { TerminalText.escaped($0) } ?? "-",
                variant.resolution ?? "-",
                segments(variant),
                poster(variant),
            ]
        }
        let table = Table(header: header, rows: rows)
        let note =
            table.shortensCells
            ? "  (a cell longer than \(Table.maximumCellWidth) characters is shortened in the middle with …; --format json has it whole)\n"
            : ""
        return table.render(indent: "  ", width: width) + note
    }

    /// "3 (18.0 s)", or "measured 2 of 3 (18.0 s)" when some could not be read.
    private func segments(_ variant: VariantSummary) -> String {
        guard let count = variant.segmentCount else { return "unreadable" }
        let total = "\(count) (\(formatSeconds(variant.duration ?? 0)))"
        guard let measured = variant.segmentsMeasured, measured < count else { return total }
        return "measured \(measured) of \(total)"
    }

    private func pair(_ declared: Int?, _ measured: Int?) -> String {
        let left = declared?.formattedBitrate ?? "-"
        guard let measured else { return left }
        return "\(left) / \(measured.formattedBitrate)"
    }

    private func poster(_ variant: VariantSummary) -> String {
        guard let artwork = variant.artwork else {
            guard variant.audioOnly, variant.measuredPeakBitrate != nil else { return "-" }
            // Encrypted segments hlscheck could not decrypt were measured, not read.
            return variant.segmentsInspected == 0 ? "not read" : "none"
        }
        var text = "\(artwork.maxBytes) B"
        if let width = artwork.width, let height = artwork.height { text += " \(width)x\(height)" }
        text += " in \(artwork.segmentsWithArtwork)/\(variant.segmentCount ?? 0)"
        if let share = artwork.peakShare { text += " (+\(share.formattedBitrate))" }
        return text
    }

    /// "3 streams checked: 1 error, 2 warnings, 0 notes (4 suppressed, 3 by the baseline)".
    package func summaryLine(_ tally: ReportTally) -> String {
        let checked = tally.streams - tally.unreadable
        let inputs =
            (checked == 1 ? "1 stream" : "\(checked) streams") + " checked"
            + (tally.unreadable > 0 ? ", \(tally.unreadable) could not be read" : "")
        let baselined = tally.baselined > 0 ? ", \(tally.baselined) by the baseline" : ""
        return
            "\(inputs): \(plural(tally.errors, "error")), \(plural(tally.warnings, "warning")), \(plural(tally.notes, "note"))"
            + (tally.suppressed > 0 ? " (\(tally.suppressed) suppressed\(baselined))" : "")
    }
}

/// The counts of a run's summary line, gathered stream by stream so that a run that prints
/// only text need not keep every stream's report until the end.
package struct ReportTally: Sendable, Hashable {
    package var streams = 0
    package var unreadable = 0
    package var errors = 0
    package var warnings = 0
    package var notes = 0
    package var suppressed = 0
    package var baselined = 0
    /// Inputs that were media playlists: the text report says what did not run for each.
    package var mediaPlaylists = 0
    /// The rules with an unsuppressed finding (the text report's "Rules:" links, listed in
    /// alphabetical order so that a concurrent run prints what a sequential one does).
    package var rules: Set<String> = []

    package init() {}

    package mutating func add(_ report: CheckReport) {
        streams += 1
        unreadable += report.inputError == nil ? 0 : 1
        errors += report.count(.error)
        warnings += report.count(.warning)
        notes += report.count(.note)
        suppressed += report.suppressedCount
        baselined += report.baselinedCount
        mediaPlaylists += report.multivariantPlaylists == nil ? 0 : 1
        for diagnostic in report.diagnostics where !diagnostic.suppressed { rules.insert(diagnostic.rule) }
    }
}

func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

/// "12.0 s". Total on any Double: one sign for negative values, and a value that is not finite
/// or too large for tenths in an Int prints as Swift writes it.
func formatSeconds(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds.magnitude < 1e15 else { return "\(seconds) s" }
    let tenths = Int((seconds.magnitude * 10).rounded())
    let sign = seconds < 0 && tenths > 0 ? "-" : ""
    return "\(sign)\(tenths / 10).\(tenths % 10) s"
}

/// A plain left-aligned text table. Every column is as wide as its widest cell, so one cell
/// would widen every row: a cell is cut to `maximumCellWidth` characters, keeping its start and
/// its end (a URI's folder and file name) around an ellipsis. A 512 KB URI among 1 000 variants
/// made 514 MB of padding before.
struct Table {
    var header: [String]
    var rows: [[String]]

    /// The widest a cell is printed, in characters.
    static let maximumCellWidth = 60

    /// Whether some cell is cut.
    var shortensCells: Bool {
        rows.contains { $0.contains { Self.isTooWide($0) } }
    }

    static func isTooWide(_ cell: String) -> Bool {
        cell.utf8.count > maximumCellWidth && cell.count > maximumCellWidth
    }

    /// `cell`, or its first and last characters around "…", `maximumCellWidth` in all.
    static func fitted(_ cell: String) -> String {
        guard isTooWide(cell) else { return cell }
        let kept = maximumCellWidth - 1
        return String(cell.prefix(kept / 2)) + "…" + String(cell.suffix(kept - kept / 2))
    }

    /// `message` with every double-quoted value longer than a cell cut as a cell is (`fitted`):
    /// a value a playlist spelled out (an EXT-X-DEFINE expansion, a 1 MB URI) is quoted in a
    /// message once per finding, and would otherwise make a report hundreds of times the size
    /// of the playlist. One pass; an unpaired quote leaves the rest as it is.
    static func fittingQuotedValues(_ message: String) -> String {
        guard message.utf8.count > maximumCellWidth, message.contains("\"") else { return message }
        var out = ""
        var rest = message[...]
        while let open = rest.firstIndex(of: "\""),
            let close = rest[rest.index(after: open)...].firstIndex(of: "\"")
        {
            out += rest[...open]
            out += fitted(String(rest[rest.index(after: open)..<close]))
            out += "\""
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The table, one line per row. When its lines would be wider than `width` columns, the
    /// columns are dealt into several tables, one below the other, each as wide as fits and each
    /// led by the first column (the URI, which names the row): nothing is cut, and a row of each
    /// part still reads on its own. A column wider than `width` by itself gets a part of its own.
    func render(indent: String, width: Int? = nil) -> String {
        let all = [header] + rows.map { $0.map(Self.fitted) }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        var parts: [[Int]] = []
        if let width, header.count > 2 {
            var part = [0], used = indent.count + widths[0]
            for column in header.indices.dropFirst() {
                if part.count > 1, used + 2 + widths[column] > width {
                    parts.append(part)
                    (part, used) = ([0], indent.count + widths[0])
                }
                part.append(column)
                used += 2 + widths[column]
            }
            parts.append(part)
        } else {
            parts = [Array(header.indices)]
        }
        return parts.map { columns in
            all.map { row in
                var line = indent
                for (position, column) in columns.enumerated() {
                    let cell = row[column]
                    line +=
                        position == columns.count - 1
                        ? cell : cell + String(repeating: " ", count: max(0, widths[column] - cell.count) + 2)
                }
                return line + "\n"
            }.joined()
        }.joined(separator: "\n")
    }
}

/// `--max-per-rule`: at most `maximum` findings of one rule in one file are shown; the others
/// are counted, and one line per rule and file says how many were left out. The text report and
/// the GitHub workflow commands share it; JSON and SARIF keep every finding (SARIF up to its
/// own limit, `SARIFReporter.maximumResults`).
struct PerRuleCap {
    struct Key: Hashable {
        var rule: String
        var file: String
    }

    /// nil: every finding is shown.
    var maximum: Int?
    private var shown: [Key: Int] = [:]
    /// Findings left out per rule and file, in the order the first of each was left out.
    private var omitted: [(key: Key, count: Int)] = []
    private var omittedIndex: [Key: Int] = [:]

    init(maximum: Int?) { self.maximum = maximum }

    /// Whether `diagnostic` is shown; when not, it is counted.
    mutating func admits(_ diagnostic: Diagnostic) -> Bool {
        guard let maximum else { return true }
        let key = Key(rule: diagnostic.rule, file: diagnostic.location?.uri ?? "")
        let count = shown[key, default: 0]
        if count < maximum {
            shown[key] = count + 1
            return true
        }
        if let index = omittedIndex[key] {
            omitted[index].count += 1
        } else {
            omittedIndex[key] = omitted.count
            omitted.append((key, 1))
        }
        return false
    }

    /// How many findings were left out in all.
    var omittedCount: Int { omitted.reduce(0) { $0 + $1.count } }

    /// One line per rule and file with findings left out: how many, and where they all are.
    func omissionLines(format: String) -> [String] {
        guard let maximum else { return [] }
        return omitted.map { key, count in
            let file = key.file.isEmpty ? "" : " in \(TerminalText.escaped(key.file))"
            return
                "hlscheck: \(plural(count, "more finding")) of \(key.rule)\(file) not shown (the \(format) report shows \(maximum) per rule and file: --max-per-rule); --format json lists every one"
        }
    }
}

extension Diagnostic {
    /// The message as every report but JSON shows it: quoted values cut as the text table cuts
    /// its cells (`Table.fittingQuotedValues`). JSON, the report that keeps everything, has it whole.
    package var shownMessage: String { Table.fittingQuotedValues(message) }

    /// `path:line:col` or `path:line`; nil without a location or at line 0 (the whole file: an
    /// input that could not be read, whose message names it).
    var place: String? {
        location.flatMap { $0.line > 0 ? $0.description : nil }
    }
}
