public import HLSCheck

/// Compiler-style lines (`path:line:col: error: message [rule-id]`), then the variant table
/// and a one-line summary: what a person reads in a terminal or a CI log.
public struct TextReporter: Sendable {
    /// ANSI colours for a terminal; never in files or pipes.
    public var color: Bool

    public init(color: Bool = false) {
        self.color = color
    }

    public func render(_ reports: [CheckReport]) -> String {
        var out = ""
        for report in reports {
            for diagnostic in report.diagnostics where !diagnostic.suppressed {
                out += line(for: diagnostic) + "\n"
            }
            if !report.variants.isEmpty {
                if report.diagnostics.contains(where: { !$0.suppressed }) { out += "\n" }
                out += "Variants of \(report.input)\n"
                out += variantTable(report.variants)
            }
            out += "\n"
        }
        out += summaryLine(reports) + "\n"
        return out
    }

    func line(for diagnostic: Diagnostic) -> String {
        let place = diagnostic.location.map { paint("\($0.description):", "1") + " " } ?? ""
        let code = switch diagnostic.severity {
        case .error: "1;31"
        case .warning: "1;33"
        case .note: "1;36"
        }
        return "\(place)\(paint(diagnostic.severity.rawValue + ":", code)) \(diagnostic.message) [\(diagnostic.rule)]"
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func variantTable(_ variants: [VariantSummary]) -> String {
        let header = ["URI", "AUDIO-ONLY", "PEAK declared/measured", "AVERAGE declared/measured", "CODECS",
                      "RESOLUTION", "SEGMENTS", "POSTER"]
        let rows = variants.map { variant -> [String] in
            [
                variant.uri,
                variant.audioOnly ? "yes" : "no",
                pair(variant.declaredBandwidth, variant.measuredPeakBitrate),
                pair(variant.declaredAverageBandwidth, variant.measuredAverageBitrate),
                variant.codecs.declared ?? "-",
                variant.resolution ?? "-",
                variant.segmentCount.map { "\($0) (\(formatSeconds(variant.duration ?? 0)))" } ?? "unreadable",
                poster(variant),
            ]
        }
        return Table(header: header, rows: rows).render(indent: "  ")
    }

    private func pair(_ declared: Int?, _ measured: Int?) -> String {
        let left = declared?.formattedBitrate ?? "-"
        guard let measured else { return left }
        return "\(left) / \(measured.formattedBitrate)"
    }

    private func poster(_ variant: VariantSummary) -> String {
        guard let artwork = variant.artwork else {
            return variant.audioOnly && variant.measuredPeakBitrate != nil ? "none" : "-"
        }
        var text = "\(artwork.maxBytes) B"
        if let width = artwork.width, let height = artwork.height { text += " \(width)x\(height)" }
        text += " in \(artwork.segmentsWithArtwork)/\(variant.segmentCount ?? 0)"
        if let share = artwork.peakShare { text += " (+\(share.formattedBitrate))" }
        return text
    }

    func summaryLine(_ reports: [CheckReport]) -> String {
        let errors = reports.reduce(0) { $0 + $1.count(.error) }
        let warnings = reports.reduce(0) { $0 + $1.count(.warning) }
        let notes = reports.reduce(0) { $0 + $1.count(.note) }
        let suppressed = reports.reduce(0) { $0 + $1.suppressedCount }
        let inputs = reports.count == 1 ? "1 stream" : "\(reports.count) streams"
        return "\(inputs) checked: \(plural(errors, "error")), \(plural(warnings, "warning")), \(plural(notes, "note"))"
            + (suppressed > 0 ? " (\(suppressed) suppressed)" : "")
    }
}

func plural(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}

func formatSeconds(_ seconds: Double) -> String {
    // EXTINF:1e23 is grammatical: a sum of durations need not fit an Int (Int(_:) would trap).
    let tenths = Int(exactly: (seconds * 10).rounded()) ?? .max
    return "\(tenths / 10).\(tenths % 10) s"
}

/// A plain left-aligned text table.
struct Table {
    var header: [String]
    var rows: [[String]]

    func render(indent: String) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            var line = indent
            for (column, cell) in row.enumerated() {
                let isLast = column == row.count - 1
                line += isLast ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
            }
            return line
        }.joined(separator: "\n") + "\n"
    }
}
