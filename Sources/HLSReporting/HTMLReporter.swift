package import HLSCheck
package import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MediaFormats
import HLSPlaylist

/// One self-contained HTML page for people (docs/html-report.md): an index of the streams with
/// their counts and most frequent rule, then per stream its verdict, what must be fixed and what
/// should be (first, so the first screen names the failing rules), the variant table, a bit-rate
/// chart per variant, the posters it carries and every finding. Light or dark, as the reader's
/// system prefers.
///
/// Nothing is fetched when it is opened — the style sheet is inline, the charts are inline SVG,
/// a poster is a `data:` URI, and a Content-Security-Policy forbids every request and every
/// script. Everything is written through libxml2 (`XMLDocumentWriter`), which escapes every
/// string from a playlist; a poster's bytes are embedded only when their header was read as
/// JPEG or PNG (`PosterImage`).
package struct HTMLReporter: Sendable {
    /// When the report was made, shown in its header; nil shows none (stable output for tests).
    package var generated: String?

    package init(generated: String? = nil) {
        self.generated = generated
    }

    /// `date` in UTC as "2026-11-21 10:00 UTC".
    package static func generated(at date: Date) -> String {
        guard let time = UTCTime(secondsSince1970: date.timeIntervalSince1970, roundingToMilliseconds: true) else {
            return "1970-01-01 00:00 UTC"
        }
        return "\(time.date) \(time.time.prefix(5)) UTC"
    }

    /// How a stream came out, as the page's colour says it.
    enum Verdict {
        case passes, passesWithFindings, fails, notChecked

        init(_ report: CheckReport) {
            if report.inputError != nil {
                self = .notChecked
            } else if report.fails {
                self = .fails
            } else if report.diagnostics.contains(where: { !$0.suppressed }) {
                self = .passesWithFindings
            } else {
                self = .passes
            }
        }

        var label: String {
            switch self {
            case .passes: "Passes"
            case .passesWithFindings: "Passes, with findings"
            case .fails: "Fails"
            case .notChecked: "Not checked"
            }
        }

        var cssClass: String {
            switch self {
            case .passes: "verdict pass"
            case .passesWithFindings: "verdict warn"
            case .fails: "verdict fail"
            case .notChecked: "verdict fail"
            }
        }
    }

    /// The page, as one string (tests, and callers that want it whole).
    package func render(_ reports: [CheckReport]) throws -> String {
        let buffer = ReportBuffer()
        try write(reports, to: buffer)
        return buffer.text
    }

    /// Writes the page into `sink` as it is made: memory stays that of one stream's tables, not
    /// of the page. Throws the sink's error when it refused bytes, else an `XMLWriterError`.
    package func write(_ reports: [CheckReport], to sink: some ReportSink) throws {
        let writer = try XMLDocumentWriter(.html, to: sink)
        do {
            try write(reports, with: writer)
        } catch {
            throw writer.sinkError ?? error
        }
    }

    private func write(_ reports: [CheckReport], with writer: XMLDocumentWriter) throws(XMLWriterError) {
        try writer.startElement("html")
        try writer.attribute("lang", "en")
        try writeHead(reports, to: writer)
        try writer.startElement("body")

        try writer.startElement("header")
        try writer.attribute("class", "page-head")
        try writer.fullElement("h1", text: "hlscheck report")
        var meta = "hlscheck \(HLSCheckVersion.current) · \(reports.count) stream\(reports.count == 1 ? "" : "s")"
        if let generated { meta += " · \(generated)" }
        try writer.fullElement("p", ["class": "meta"], text: meta)
        if reports.count > 1 {
            try writer.startElement("ul")
            try writer.attribute("class", "overview")
            for (index, report) in reports.enumerated() {
                let verdict = Verdict(report)
                try writer.startElement("li")
                try writer.fullElement("span", ["class": verdict.cssClass], text: verdict.label)
                try writer.text(" ")
                try writer.fullElement("a", ["href": "#\(Self.streamID(index))"], text: report.input)
                // Counts per severity and the rule found most, so that a row of "Fails" tells
                // the streams apart.
                try writer.startElement("span")
                try writer.attribute("class", "overview-counts")
                try writer.fullElement(
                    "span", ["class": "count error"], text: Self.plural(report.count(.error), "error"))
                try writer.fullElement(
                    "span", ["class": "count warning"], text: Self.plural(report.count(.warning), "warning"))
                try writer.fullElement("span", ["class": "count note"], text: Self.plural(report.count(.note), "note"))
                if let top = Self.topRule(report) {
                    try writer.text(" ")
                    try writer.fullElement("span", ["class": "top-rule"], text: "most: ")
                    try writer.fullElement("code", ["class": "rule"], text: top.rule)
                    if top.count > 1 { try writer.text(" ×\(top.count)") }
                }
                try writer.fullEndElement()
                try writer.fullEndElement()
            }
            try writer.fullEndElement()
        }
        try writer.fullEndElement()

        try writer.startElement("main")
        for (index, report) in reports.enumerated() {
            try writeStream(report, index: index, to: writer)
        }
        try writer.fullEndElement()

        try writer.startElement("footer")
        try writer.text(
            "Bit rates in bit/s as RFC 8216 §4.3.4.2 measures them (bytes × 8 / EXTINF); peak over windows of 0.5–1.5 × the target duration. "
        )
        try writer.text("A value marked ≥ is a lower bound: some segment could not be read.")
        try writer.fullEndElement()

        try writer.fullEndElement()  // body
        try writer.fullEndElement()  // html
        _ = try writer.finish()
    }

    private func writeHead(_ reports: [CheckReport], to writer: XMLDocumentWriter) throws(XMLWriterError) {
        try writer.startElement("head")
        try writer.element("meta", attributes: ["charset": "utf-8"])
        try writer.element("meta", attributes: ["name": "viewport", "content": "width=device-width, initial-scale=1"])
        // Nothing may be fetched and nothing may run, whatever a playlist managed to put in the page.
        try writer.element(
            "meta",
            attributes: [
                "http-equiv": "Content-Security-Policy",
                "content":
                    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
            ])
        try writer.element("meta", attributes: ["name": "generator", "content": "hlscheck \(HLSCheckVersion.current)"])
        let title = reports.count == 1 ? "hlscheck: \(reports[0].input)" : "hlscheck report (\(reports.count) streams)"
        try writer.fullElement("title", text: title)
        try writer.startElement("style")
        try writer.constantMarkup(HTMLStyleSheet.css)
        try writer.fullEndElement()
        try writer.fullEndElement()
    }

    static func streamID(_ index: Int) -> String { "stream-\(index + 1)" }
    static func variantID(_ stream: Int, _ variant: Int) -> String { "s\(stream + 1)-variant-\(variant + 1)" }
    static func chartID(_ stream: Int, _ variant: Int) -> String { "\(variantID(stream, variant))-chart" }
    static func findingID(_ stream: Int, _ finding: Int) -> String { "s\(stream + 1)-finding-\(finding + 1)" }

    private func writeStream(_ report: CheckReport, index: Int, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let verdict = Verdict(report)
        try writer.startElement("section")
        try writer.attribute("class", "stream")
        try writer.attribute("id", Self.streamID(index))
        try writer.attribute("aria-labelledby", "\(Self.streamID(index))-title")

        try writer.startElement("header")
        try writer.attribute("class", "stream-head")
        try writer.fullElement("h2", ["id": "\(Self.streamID(index))-title"], text: report.input)
        try writer.startElement("p")
        try writer.attribute("class", verdict.cssClass)
        try writer.fullElement("strong", text: verdict.label)
        try writer.text(" — " + Self.counts(report))
        try writer.fullEndElement()
        try writer.fullEndElement()

        if let error = report.inputError {
            try writer.fullElement("p", ["class": "input-error"], text: error.description)
        }
        try writeFixSummary(report, stream: index, to: writer)
        let belonging = VariantFindings(report)
        if !report.variants.isEmpty {
            try writeVariantTable(report, stream: index, belonging: belonging, to: writer)
            try writeCharts(report, stream: index, to: writer)
            try writePosters(report, stream: index, to: writer)
        }
        try writeFindings(report, stream: index, belonging: belonging, to: writer)
        try writer.fullEndElement()
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    /// The rule with the most unsuppressed findings (the most severe first on a tie, then by id).
    static func topRule(_ report: CheckReport) -> (rule: String, count: Int)? {
        var counts: [String: (count: Int, severity: Severity)] = [:]
        for diagnostic in report.diagnostics where !diagnostic.suppressed {
            let old = counts[diagnostic.rule] ?? (0, diagnostic.severity)
            counts[diagnostic.rule] = (old.count + 1, max(old.severity, diagnostic.severity))
        }
        return counts.max { a, b in
            (a.value.count, a.value.severity, b.key) < (b.value.count, b.value.severity, a.key)
        }.map { ($0.key, $0.value.count) }
    }

    /// The findings that fail the stream (at or above its `failureThreshold`: must fix) and the
    /// other errors and warnings (should fix), each grouped by rule in order of first appearance:
    /// the rule, how often, the first message, a link to the first finding in the full list.
    private func writeFixSummary(_ report: CheckReport, stream: Int, to writer: XMLDocumentWriter)
        throws(XMLWriterError)
    {
        let shown = report.diagnostics.indices.filter {
            !report.diagnostics[$0].suppressed && report.diagnostics[$0].severity != .note
        }
        let fails = { (index: Int) in report.failureThreshold.map { report.diagnostics[index].severity >= $0 } ?? false
        }
        let groups: [(title: String, cssClass: String, findings: [Int])] = [
            ("Must fix", "must-fix", shown.filter(fails)), ("Should fix", "should-fix", shown.filter { !fails($0) }),
        ]
        guard groups.contains(where: { !$0.findings.isEmpty }) else { return }
        try writer.startElement("div")
        try writer.attribute("class", "fix-summary")
        for group in groups where !group.findings.isEmpty {
            try writer.startElement("section")
            try writer.attribute("class", group.cssClass)
            try writer.fullElement("h3", text: "\(group.title) (\(group.findings.count))")
            try writer.startElement("ul")
            var order: [String] = []
            var byRule: [String: [Int]] = [:]
            for index in group.findings {
                let rule = report.diagnostics[index].rule
                if byRule[rule] == nil { order.append(rule) }
                byRule[rule, default: []].append(index)
            }
            for rule in order {
                let indices = byRule[rule] ?? []
                guard let first = indices.first else { continue }
                let diagnostic = report.diagnostics[first]
                try writer.startElement("li")
                try writer.fullElement(
                    "a", ["href": "#\(Self.findingID(stream, first))", "class": "rule-link"], text: rule)
                if indices.count > 1 { try writer.fullElement("span", ["class": "times"], text: " ×\(indices.count)") }
                try writer.text(" ")
                try writer.fullElement("span", ["class": "message"], text: diagnostic.shownMessage)
                if let place = diagnostic.place ?? diagnostic.location?.uri {
                    try writer.text(" ")
                    try writer.fullElement(
                        "span", ["class": "place"], text: indices.count > 1 ? "first at \(place)" : place)
                }
                try writer.fullEndElement()
            }
            try writer.fullEndElement()
            try writer.fullEndElement()
        }
        try writer.fullEndElement()
    }

    /// "2 errors, 1 warning, 0 notes (1 suppressed)".
    static func counts(_ report: CheckReport) -> String {
        var text = [
            plural(report.count(.error), "error"), plural(report.count(.warning), "warning"),
            plural(report.count(.note), "note"),
        ]
        .joined(separator: ", ")
        if report.suppressedCount > 0 { text += " (\(report.suppressedCount) suppressed)" }
        return text
    }

    /// Which findings belong to which variant: those in its media playlist, and those on its line
    /// of the input. Built once per stream in one pass over the findings, so that the variant
    /// table (a count and a link per variant) and the findings (a link to their variant's chart)
    /// cost variants + findings, not their product.
    struct VariantFindings {
        /// Per key (a playlist path, a line of the input): how many findings, the first one.
        private var byPlaylist: [String: (count: Int, first: Int)] = [:]
        private var byLine: [Int: (count: Int, first: Int)] = [:]
        /// The first variant with each playlist, with each line of the input.
        private var variantByPlaylist: [String: Int] = [:]
        private var variantByLine: [Int: Int] = [:]
        private let input: String

        init(_ report: CheckReport) {
            input = report.input
            for (index, variant) in report.variants.enumerated() {
                if variantByPlaylist[variant.playlist] == nil { variantByPlaylist[variant.playlist] = index }
                if variantByLine[variant.line] == nil { variantByLine[variant.line] = index }
            }
            for (index, diagnostic) in report.diagnostics.enumerated() {
                guard let location = diagnostic.location else { continue }
                let playlist = byPlaylist[location.uri]
                byPlaylist[location.uri] = ((playlist?.count ?? 0) + 1, playlist?.first ?? index)
                if location.uri == report.input {
                    let line = byLine[location.line]
                    byLine[location.line] = ((line?.count ?? 0) + 1, line?.first ?? index)
                }
            }
        }

        /// How many findings belong to `variant`, and the first of them.
        func findings(of variant: VariantSummary) -> (count: Int, first: Int?) {
            let playlist = byPlaylist[variant.playlist]
            // A media playlist checked alone is its own variant: its line's findings are among
            // its playlist's already.
            let line = variant.playlist == input ? nil : byLine[variant.line]
            let firsts = [playlist?.first, line?.first].compactMap { $0 }
            return ((playlist?.count ?? 0) + (line?.count ?? 0), firsts.min())
        }

        /// The first variant a finding at `location` belongs to.
        func variant(at location: SourceLocation) -> Int? {
            let lined = location.uri == input ? variantByLine[location.line] : nil
            return [variantByPlaylist[location.uri], lined].compactMap { $0 }.min()
        }
    }

    private func writeVariantTable(
        _ report: CheckReport, stream: Int, belonging: VariantFindings, to writer: XMLDocumentWriter
    )
        throws(XMLWriterError)
    {
        try writer.fullElement("h3", text: "Variants")
        try writer.startElement("div")
        try writer.attribute("class", "table-wrap")
        try writer.startElement("table")
        try writer.attribute("class", "variants")
        try writer.startElement("thead")
        try writer.startElement("tr")
        for (heading, numeric) in [
            ("Variant", false), ("Kind", false), ("BANDWIDTH", true), ("AVERAGE-\u{200B}BANDWIDTH", true),
            ("Measured peak", true),
            ("Measured average", true), ("Codecs", false), ("Segments", true), ("Poster", true), ("Findings", true),
        ] {
            try writer.fullElement("th", numeric ? ["scope": "col", "class": "num"] : ["scope": "col"], text: heading)
        }
        try writer.fullEndElement()
        try writer.fullEndElement()
        try writer.startElement("tbody")
        for (variantIndex, variant) in report.variants.enumerated() {
            let lowerBound = variant.measurementComplete == false ? "≥ " : ""
            try writer.startElement("tr")
            try writer.startElement("th")
            try writer.attribute("scope", "row")
            try writer.fullElement("a", ["href": "#\(Self.variantID(stream, variantIndex))"], text: variant.uri)
            try writer.fullElement("span", ["class": "place"], text: "line \(variant.line)")
            try writer.fullEndElement()
            let kind = variant.audioOnly ? "audio only" : (variant.resolution.map { "video \($0)" } ?? "video")
            try writer.fullElement("td", text: kind)
            try writer.fullElement("td", ["class": "num"], text: variant.declaredBandwidth?.formattedBitrate ?? "—")
            try writer.fullElement(
                "td", ["class": "num"], text: variant.declaredAverageBandwidth?.formattedBitrate ?? "—")
            try writer.fullElement(
                "td", ["class": "num"],
                text: variant.measuredPeakBitrate.map { lowerBound + $0.formattedBitrate } ?? "—")
            try writer.fullElement(
                "td", ["class": "num"],
                text: variant.measuredAverageBitrate.map { lowerBound + $0.formattedBitrate } ?? "—")
            // Declared CODECS, and what the segments hold when that differs.
            try writer.startElement("td")
            try writer.attribute("class", "codecs")
            let declared = variant.codecs.declared.map {
                $0.split(separator: ",", omittingEmptySubsequences: false).joined(separator: ", ")
            }
            // Cut as the text table cuts a cell: a CODECS value expanded by EXT-X-DEFINE would
            // otherwise be repeated whole in every row (JSON has it whole).
            try writer.text(declared.map(Table.fitted) ?? "none declared")
            let found = variant.codecs.detected.joined(separator: ", ")
            if !found.isEmpty
                && Set(variant.codecs.detected)
                    != Set(variant.codecs.declared?.split(separator: ",").map(String.init) ?? [])
            {
                try writer.fullElement("span", ["class": "found"], text: "found: " + Table.fitted(found))
            }
            try writer.fullEndElement()
            let segments: String
            switch (variant.segmentsMeasured, variant.segmentCount) {
            case let (measured?, total?): segments = "\(measured) of \(total)"
            case let (nil, total?): segments = "not read (\(total))"
            default: segments = "—"
            }
            try writer.fullElement(
                "td",
                [
                    "class": variant.segmentsMeasured.map { $0 < (variant.segmentCount ?? 0) } == true
                        ? "num partial" : "num"
                ], text: segments)
            try writer.fullElement("td", ["class": "num"], text: variant.artwork.map { Self.bytes($0.maxBytes) } ?? "—")
            let findings = belonging.findings(of: variant)
            try writer.startElement("td")
            try writer.attribute("class", "num")
            if let first = findings.first {
                try writer.fullElement("a", ["href": "#\(Self.findingID(stream, first))"], text: String(findings.count))
            } else {
                try writer.text("0")
            }
            try writer.fullEndElement()
            try writer.fullEndElement()
        }
        try writer.fullEndElement()
        try writer.fullEndElement()
        try writer.fullEndElement()
    }

    private func writeCharts(_ report: CheckReport, stream: Int, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        try writer.fullElement("h3", text: "Bit rate per variant")
        for (variantIndex, variant) in report.variants.enumerated() {
            let id = Self.variantID(stream, variantIndex)
            try writer.startElement("figure")
            try writer.attribute("class", "chart-figure")
            try writer.attribute("id", id)
            try writer.startElement("figcaption")
            try writer.fullElement("span", ["class": "variant-uri"], text: variant.uri)
            try writer.text(" ")
            try writer.fullElement(
                "span", ["class": "place"], text: variant.audioOnly ? "audio only" : (variant.resolution ?? "video"))
            try writer.fullEndElement()
            guard let series = report.bitrateSeries[variant.playlist], !series.segments.isEmpty else {
                let reason =
                    if variant.segmentCount == nil {
                        "Its media playlist could not be read: no chart."
                    } else if variant.segmentsMeasured != nil && variant.segmentCount != 0 {
                        "The check kept no per-segment detail (CheckConfiguration.keepsSegmentDetail): no chart."
                    } else {
                        "Its segments were not read (--playlist-only, or none listed): no chart."
                    }
                try writer.fullElement("p", ["class": "no-chart"], text: reason)
                try writer.fullEndElement()
                continue
            }
            let budget = variant.audioOnly ? report.audioOnlyBudget : nil
            let chart = BitrateChart(
                series: series, variant: variant, budget: budget, idPrefix: Self.chartID(stream, variantIndex))
            // A chart narrower than its min-width (a phone) scrolls sideways instead of shrinking
            // its text below legibility.
            try writer.startElement("div")
            try writer.attribute("class", "chart-scroll")
            try chart.write(to: writer)
            try writer.fullEndElement()
            try writeLegend(chart, variant: variant, to: writer)
            try writer.fullEndElement()
        }
    }

    private func writeLegend(_ chart: BitrateChart, variant: VariantSummary, to writer: XMLDocumentWriter)
        throws(XMLWriterError)
    {
        let series = chart.series
        try writer.startElement("ul")
        try writer.attribute("class", "legend")
        func item(_ swatch: String, _ text: String) throws(XMLWriterError) {
            try writer.startElement("li")
            try writer.fullElement("span", ["class": "swatch \(swatch)", "aria-hidden": "true"])
            try writer.text(text)
            try writer.fullEndElement()
        }
        try item("sw-bar", "segment bit rate")
        if series.segments.contains(where: { ($0.posterBytes ?? 0) > 0 }) { try item("sw-poster", "poster's share") }
        if series.segments.contains(where: { $0.bytes != nil && $0.posterBytes == nil }) {
            try item("sw-unknown", "content not inspected (encrypted, no key)")
        }
        if series.segments.contains(where: { $0.bytes == nil }) { try item("sw-hole", "not read: no data") }
        if let peak = series.peakBitrate {
            try item(
                "sw-window",
                "peak window (0.5–1.5 × target duration \(series.targetDuration) s): \(peak.formattedBitrate)")
        }
        for line in chart.references { try item("sw-\(line.cssClass)", "\(line.name) \(line.value.formattedBitrate)") }
        try writer.fullEndElement()
        if let combination = variant.peakCombination, combination.count > 1 {
            try writer.fullElement(
                "p", ["class": "note"],
                text:
                    "The variant's measured peak (\(variant.measuredPeakBitrate?.formattedBitrate ?? "—")) also counts \(combination.dropFirst().joined(separator: ", ")), played with it; the chart shows \(series.playlist) alone."
            )
        }
        if variant.measurementComplete == false {
            try writer.fullElement(
                "p", ["class": "note"],
                text: "Not every segment could be read: measured values are lower bounds and no advice is computed.")
        }
    }

    private func writePosters(_ report: CheckReport, stream: Int, to writer: XMLDocumentWriter) throws(XMLWriterError) {
        let carrying = report.variants.enumerated().filter { $0.element.artwork != nil }
        let audioOnly = report.variants.contains(where: \.audioOnly)
        guard !carrying.isEmpty || audioOnly else { return }
        try writer.fullElement("h3", text: "Poster")
        if carrying.isEmpty {
            let reason =
                report.variants.allSatisfy({ $0.segmentsMeasured == nil })
                ? "Segments were not read (--playlist-only): whether they carry a poster is unknown."
                : report.variants.allSatisfy({ $0.segmentsInspected == 0 })
                    ? "Segments are encrypted and were not decrypted: whether they carry a poster is unknown."
                    : "No segment that was read carries a poster (ID3 APIC)."
            try writer.fullElement("p", ["class": "no-image"], text: reason)
            return
        }
        var shown: [String: String] = [:]  // content hash → the variant whose figure shows it
        for (variantIndex, variant) in carrying {
            guard let artwork = variant.artwork else { continue }
            let hashes = report.bitrateSeries[variant.playlist]?.posterHashes ?? []
            try writer.startElement("figure")
            try writer.attribute("class", "poster")
            try writer.attribute("id", "\(Self.variantID(stream, variantIndex))-poster")
            var embedded = false
            for hash in hashes {
                if let first = shown[hash] {
                    try writer.fullElement("p", ["class": "note"], text: "The same image as \(first) carries.")
                    continue
                }
                guard let image = report.posterImages[hash] else { continue }
                shown[hash] = variant.uri
                embedded = true
                try writer.element(
                    "img",
                    attributes: [
                        "src": "data:\(image.format.rawValue);base64,\(Data(image.bytes).base64EncodedString())",
                        "alt": "The poster carried by \(variant.uri)",
                        "width": String(Self.displaySize(image).width),
                        "height": String(Self.displaySize(image).height),
                    ])
            }
            if !embedded && hashes.allSatisfy({ shown[$0] == nil }) {
                try writer.fullElement(
                    "p", ["class": "no-image"], text: Self.missingImageReason(report, hashes: hashes))
            }
            try writer.startElement("figcaption")
            try writer.fullElement("span", ["class": "variant-uri"], text: variant.uri)
            try writer.startElement("dl")
            func fact(_ name: String, _ value: String) throws(XMLWriterError) {
                try writer.fullElement("dt", text: name)
                try writer.fullElement("dd", text: value)
            }
            let image = hashes.lazy.compactMap { report.posterImages[$0] }.first
            try fact(
                "Size",
                Self.bytes(image?.bytes.count ?? artwork.maxBytes)
                    + (hashes.count > 1 ? " (largest of \(hashes.count) images)" : ""))
            if let image {
                try fact("Pixels", "\(image.width) × \(image.height)")
            } else if let width = artwork.width, let height = artwork.height {
                try fact("Pixels", "\(width) × \(height)")
            }
            try fact("Type", artwork.mimeType.isEmpty ? "—" : artwork.mimeType)
            // Segments whose content was not inspected may or may not carry one: say how many.
            let uninspected =
                report.bitrateSeries[variant.playlist]?.segments.filter { $0.posterBytes == nil }.count ?? 0
            try fact(
                "Segments with a poster",
                "\(artwork.segmentsWithArtwork) of \(variant.segmentCount.map(String.init) ?? "?")"
                    + (uninspected > 0 ? " (\(uninspected) not inspected)" : ""))
            if let share = artwork.peakShare, variant.measurementComplete == true {
                try fact("Share of the peak", share.formattedBitrate)
            }
            if variant.audioOnly, let budget = report.audioOnlyBudget {
                if let largest = variant.largestPosterBytes {
                    try fact("Budget \(budget.formattedBitrate)", "at most \(Self.bytes(largest)) fit in every segment")
                } else if variant.measurementComplete == true {
                    try fact("Budget \(budget.formattedBitrate)", "no poster fits: the audio alone exceeds the budget")
                } else {
                    try fact("Budget \(budget.formattedBitrate)", "no advice: not every segment could be read")
                }
            }
            try writer.fullEndElement()  // dl
            try writer.fullEndElement()  // figcaption
            try writer.fullEndElement()  // figure
        }
    }

    /// Shown at most 320 px wide, aspect kept; the file holds the full image.
    static func displaySize(_ image: PosterImage) -> (width: Int, height: Int) {
        guard image.width > 320 else { return (image.width, image.height) }
        return (320, max(1, image.height * 320 / image.width))
    }

    static func missingImageReason(_ report: CheckReport, hashes: [String]) -> String {
        if hashes.isEmpty { return "Image not shown: no segment whose content was inspected carries it." }
        return
            "Image not shown: only a JPEG or PNG that decodes, with a readable header, is shown (at most \(PosterImage.maximumCount) images of \(bytes(PosterImage.maximumBytes)) each per stream)."
    }

    private func writeFindings(
        _ report: CheckReport, stream: Int, belonging: VariantFindings, to writer: XMLDocumentWriter
    ) throws(XMLWriterError) {
        try writer.fullElement("h3", text: "Findings")
        guard !report.diagnostics.isEmpty else {
            try writer.fullElement("p", ["class": "no-findings"], text: "No findings.")
            return
        }
        try writer.startElement("ol")
        try writer.attribute("class", "findings")
        for (index, diagnostic) in report.diagnostics.enumerated() {
            try writer.startElement("li")
            try writer.attribute("id", Self.findingID(stream, index))
            try writer.attribute(
                "class", "finding \(diagnostic.severity.rawValue)\(diagnostic.suppressed ? " suppressed" : "")")
            try writer.startElement("p")
            try writer.attribute("class", "finding-head")
            try writer.fullElement(
                "span", ["class": "severity"],
                text: diagnostic.suppressed
                    ? "suppressed \(diagnostic.severity.rawValue)" : diagnostic.severity.rawValue)
            try writer.text(" ")
            try writer.fullElement("code", ["class": "rule"], text: diagnostic.rule)
            // path:line:col, or the path alone for a finding about a whole file (line 0).
            if let place = diagnostic.place ?? diagnostic.location?.uri {
                try writer.text(" ")
                try writer.fullElement(
                    "a", ["href": "#\(Self.findingID(stream, index))", "class": "place"], text: place)
            }
            if let location = diagnostic.location, let variant = belonging.variant(at: location) {
                // To the segment's bar when the finding is about a segment, else to the chart.
                let chart = report.bitrateSeries[report.variants[variant].playlist].map {
                    BitrateChart(
                        series: $0, variant: report.variants[variant], budget: nil,
                        idPrefix: Self.chartID(stream, variant))
                }
                try writer.text(" ")
                if let chart, location.uri == chart.series.playlist, chart.hasBar(line: location.line) {
                    try writer.fullElement(
                        "a", ["href": "#\(chart.segmentAnchor(line: location.line))", "class": "to-chart"],
                        text: "segment in chart")
                } else {
                    try writer.fullElement(
                        "a", ["href": "#\(Self.variantID(stream, variant))", "class": "to-chart"], text: "chart")
                }
            }
            try writer.fullEndElement()
            try writer.fullElement("p", ["class": "message"], text: diagnostic.shownMessage)
            if let fix = diagnostic.fix {
                // What `hlscheck fix` writes: the proposed line, as it would stand in the playlist.
                try writer.startElement("p")
                try writer.attribute("class", "fix")
                try writer.text(
                    fix.inserted
                        ? "hlscheck fix adds after line \(fix.line): " : "hlscheck fix makes line \(fix.line): ")
                try writer.fullElement("code", ["class": "proposed-line"], text: fix.text)
                try writer.text(" — \(fix.description)")
                try writer.fullEndElement()
            }
            try writer.fullEndElement()
        }
        try writer.fullEndElement()
    }

    /// "7,342 bytes" (thousands grouped for reading).
    static func bytes(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var grouped = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (count < 0 ? "-" : "") + grouped + (count == 1 ? " byte" : " bytes")
    }
}
