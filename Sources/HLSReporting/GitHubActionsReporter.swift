package import HLSCheck

/// GitHub Actions workflow commands, which the runner turns into annotations on the pull
/// request: `::error file=PATH,line=N,col=C,title=hlscheck RULE::MESSAGE`, one `::group::` per
/// stream.
///
/// GitHub keeps at most 10 annotations of each type (error, warning, notice) per step and drops
/// the rest silently. So the first 10 of each type are workflow commands; later ones are printed
/// as plain compiler-style lines in their stream's group, and a closing line says how many were
/// not annotated and where to see them. `summary` is the Markdown for `$GITHUB_STEP_SUMMARY`.
package struct GitHubActionsReporter: Sendable {
    /// Annotations GitHub keeps per type and step.
    package var annotationLimit: Int
    /// The most findings of one rule in one file listed (`--max-per-rule`, as in the text
    /// report); nil for no limit.
    package var maximumPerRule: Int?

    /// Makes a reporter that annotates at most `annotationLimit` findings of each type and lists
    /// at most `maximumPerRule` of one rule in one file.
    package init(annotationLimit: Int = 10, maximumPerRule: Int? = TextReporter.defaultMaximumPerRule) {
        self.annotationLimit = annotationLimit
        self.maximumPerRule = maximumPerRule
    }

    /// One workflow command line per unsuppressed finding, for every report, in report order.
    package func render(_ reports: [CheckReport]) -> String {
        var out = ""
        var annotated: [Severity: Int] = [:]
        var notAnnotated: [Severity: Int] = [:]
        var omitted = 0
        for report in reports {
            out +=
                "::group::\(Self.escapeData(TerminalText.escaped("hlscheck \(report.input): \(Self.verdict(report))", keepingLineBreaks: true)))\n"
            var cap = PerRuleCap(maximum: maximumPerRule)
            // An excused finding is not an annotation on the pull request.
            for diagnostic in report.diagnostics where !diagnostic.suppressed {
                guard cap.admits(diagnostic) else { continue }
                if annotated[diagnostic.severity, default: 0] < annotationLimit {
                    annotated[diagnostic.severity, default: 0] += 1
                    out += command(diagnostic) + "\n"
                } else {
                    notAnnotated[diagnostic.severity, default: 0] += 1
                    out += TextReporter().line(for: diagnostic) + "\n"
                }
            }
            out += cap.omissionLines(format: "github").map { $0 + "\n" }.joined()
            omitted += cap.omittedCount
            out += "::endgroup::\n"
        }
        if !notAnnotated.isEmpty {
            let counts = Severity.allCases.reversed().compactMap { severity in
                notAnnotated[severity].map { "\($0) more \(Self.name(severity))\($0 == 1 ? "" : "s")" }
            }
            // Say only what is true: the job summary lists its first rows, not every finding.
            out +=
                "hlscheck: GitHub keeps \(annotationLimit) annotations of each type per step; not annotated: "
                + counts.joined(separator: ", ")
                + ". They are listed above in their stream's group"
                + (omitted > 0
                    ? " (\(maximumPerRule ?? 0) per rule and file; \(plural(omitted, "finding")) not listed)" : "")
                + "; the job summary lists the first \(Self.summaryFindingLimit) findings; --format json lists every one.\n"
        }
        return out
    }

    /// "2 errors, 1 warning", "passes", "could not be checked".
    static func verdict(_ report: CheckReport) -> String {
        if report.inputError != nil { return "could not be checked" }
        let counts = [(Severity.error, "error"), (.warning, "warning"), (.note, "note")].compactMap { severity, noun in
            report.count(severity) > 0 ? plural(report.count(severity), noun) : nil
        }
        return (report.fails ? "fails" : "passes") + (counts.isEmpty ? "" : " (\(counts.joined(separator: ", ")))")
    }

    static func name(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    // MARK: - Job summary

    /// Most finding rows the summary lists (GitHub accepts 1 MiB of summary per step).
    package static let summaryFindingLimit = 200

    /// Markdown for `$GITHUB_STEP_SUMMARY`: a table of the streams with their verdicts, then the
    /// findings (the first `summaryFindingLimit`), each rule linked to docs/rules.md. Text from
    /// playlists is escaped: the summary renders Markdown and HTML.
    package func summary(_ reports: [CheckReport]) -> String {
        var out = "### hlscheck\n\n"
        guard !reports.isEmpty else { return out + "No stream to check.\n\n" }
        out += "| stream | verdict | errors | warnings | notes | variants |\n|---|---|---:|---:|---:|---:|\n"
        for report in reports {
            let verdict = report.inputError != nil ? "❌ could not be checked" : report.fails ? "❌ fails" : "✅ passes"
            out +=
                "| \(Self.cell(report.input)) | \(verdict) | \(report.count(.error)) | \(report.count(.warning)) | "
                + "\(report.count(.note)) | \(report.variants.count) |\n"
        }
        let findings = reports.flatMap { report in
            report.diagnostics.filter { !$0.suppressed }.map { (report.documentationURL, $0) }
        }
        if !findings.isEmpty {
            // The truth about what the table holds: a summary that looks complete and is not
            // would hide findings from the one page people read.
            out +=
                findings.count > Self.summaryFindingLimit
                ? "\nThe first \(Self.summaryFindingLimit) of \(findings.count) findings (every one is in --format json):\n"
                : "\n\(findings.count == 1 ? "The finding" : "All \(findings.count) findings"):\n"
            out += "\n| where | severity | rule | message |\n|---|---|---|---|\n"
            for (documentation, diagnostic) in findings.prefix(Self.summaryFindingLimit) {
                let place = diagnostic.place ?? diagnostic.location?.uri ?? ""
                // A link only to a page that is configured to exist; else the id, which `hlscheck rules ID` explains.
                let rule =
                    RuleDocumentation.url(for: diagnostic.rule, documentation: documentation)
                    .map { "[\(Self.cell(diagnostic.rule))](\($0))" } ?? "`\(Self.cell(diagnostic.rule))`"
                out +=
                    "| \(Self.cell(place)) | \(diagnostic.severity.rawValue) | \(rule) | \(Self.cell(diagnostic.shownMessage)) |\n"
            }
            if findings.count > Self.summaryFindingLimit {
                out +=
                    "\n\(findings.count - Self.summaryFindingLimit) more findings are not listed here: see the JSON report (--format json), which lists every one.\n"
            }
        }
        let suppressed = reports.reduce(0) { $0 + $1.suppressedCount }
        if suppressed > 0 { out += "\n\(plural(suppressed, "finding")) suppressed in the playlists.\n" }
        return out + "\n"
    }

    /// A table cell: Markdown and HTML specials escaped, control characters shown, one line.
    static func cell(_ text: String) -> String {
        var out = ""
        for character in TerminalText.escaped(text, keepingLineBreaks: false) {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "|", "\\", "`", "*", "_", "[", "]", "(", ")", "#", "!", "~": out += "\\\(character)"
            case "\n", "\r": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// Text from playlists goes through `TerminalText.escaped` first: the log view renders
    /// escape sequences. Line breaks are left to `escapeData`.
    func command(_ diagnostic: Diagnostic) -> String {
        let name =
            switch diagnostic.severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
        var properties: [String] = []
        if let location = diagnostic.location {
            properties.append(
                "file=\(Self.escapeProperty(TerminalText.escaped(location.uri, keepingLineBreaks: true)))")
            if location.line > 0 {
                properties.append("line=\(location.line)")
                if location.column > 0 { properties.append("col=\(location.column)") }
            }
        }
        properties.append("title=\(Self.escapeProperty("hlscheck \(diagnostic.rule)"))")
        return
            "::\(name) \(properties.joined(separator: ","))::\(Self.escapeData(TerminalText.escaped(diagnostic.shownMessage, keepingLineBreaks: true)))"
    }

    /// The message after `::`; GitHub's runner decodes `%25`, `%0D` and `%0A`.
    static func escapeData(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A property value, where `:` and `,` would also end the value early.
    static func escapeProperty(_ text: String) -> String {
        var out = ""
        for character in escapeData(text).unicodeScalars {
            switch character {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
