import Foundation
import HLSCheck
@testable import HLSReporting
import MediaFormats
import MediaInspection
import Testing
import TestSupport

/// Checks a stream with its segments read and its posters kept, as `--format html` does.
func checkForHTML(_ path: String, root: String? = nil) async throws -> CheckReport {
    var configuration = CheckConfiguration()
    configuration.keepsSegmentDetail = true
    configuration.confinement.root = root
    return try await Checker(configuration: configuration).check(path)
}

/// The image bytes of the first APIC frame of a segment, read independently of the report.
func apicBytes(_ path: String) async throws -> [UInt8] {
    let pictures = try await SegmentInspector(source: LocalSegmentSource()).extractPictures(SegmentRequest(uri: path))
    return try #require(pictures.first?.data)
}

/// The packed-audio sample's audio variant, copied into a temporary folder (so that a test can
/// damage it): its media playlist is `audio/index.m3u8`.
func copiedPackedAudio() throws -> TemporaryFolder {
    let folder = try TemporaryFolder()
    let source = PackageRoot.url.appendingPathComponent("Samples/packed-audio/audio")
    for name in ["index.m3u8", "seg0.aac", "seg1.aac", "seg2.aac"] {
        try folder.write(Data(contentsOf: source.appendingPathComponent(name)), to: "audio/\(name)")
    }
    return folder
}

/// A variant row as the checker makes it, for chart tests that need no stream.
enum VariantSummaryFixture {
    static var audioOnly: VariantSummary {
        get throws {
            let json = """
                {"uri": "audio/index.m3u8", "playlist": "audio/index.m3u8", "line": 6, "audioOnly": true,
                 "declaredBandwidth": 44000, "declaredAverageBandwidth": 43000, "codecs": {"declared": "mp4a.40.2", "detected": []}}
                """
            return try JSONDecoder().decode(VariantSummary.self, from: Data(json.utf8))
        }
    }
}

@Suite("HTML report")
struct HTMLReporterTests {
    @Test func showsVerdictVariantTableOneChartPerVariantThePosterAndItsBudget() async throws {
        let report = try await checkForHTML("Samples/packed-audio/master.m3u8", root: "Samples")
        let html = try HTMLReporter().render([report])
        let page = try LibXML2.parseHTML(html)

        let verdict = try #require(page.find("p", classes: ["verdict"]).first)
        #expect(verdict.text.hasPrefix("Passes"))
        #expect(verdict.attributes["class"]?.contains("pass") == true)

        let rows = try #require(page.find("table", classes: ["variants"]).first).find("tr").dropFirst()
        #expect(
            rows.map { $0.find("a").first?.text } == [
                "../compliant/v0/index.m3u8", "../compliant/v1/index.m3u8", "audio/index.m3u8",
            ])
        #expect(rows.last?.text.contains("audio only") == true)

        // One chart per variant, a bar per segment; only the audio-only one has the budget line.
        let charts = page.find("svg", classes: ["chart"])
        #expect(charts.count == 3)
        #expect(charts.map { $0.find("rect", classes: ["bar"]).count } == [3, 3, 3])
        #expect(charts.map { $0.find("line", classes: ["ref-budget"]).count } == [0, 0, 1])
        #expect(charts.allSatisfy { $0.find("line", classes: ["ref-bandwidth"]).count == 1 })
        #expect(charts.allSatisfy { $0.find("line", classes: ["ref-average"]).count == 1 })
        #expect(charts.allSatisfy { $0.find("rect", classes: ["window"]).count == 1 })
        // The poster's share is shaded in the audio variant's bars only.
        #expect(charts.map { $0.find("rect", classes: ["poster-share"]).count } == [0, 0, 3])

        // The poster: the exact APIC bytes, with size, pixels and the budget's answer.
        let images = page.find("img")
        #expect(images.count == 1)
        let source = try #require(images.first?.attributes["src"])
        let prefix = "data:image/jpeg;base64,"
        #expect(source.hasPrefix(prefix))
        let decoded = try #require(Data(base64Encoded: String(source.dropFirst(prefix.count))))
        let expected = try await apicBytes("Samples/packed-audio/audio/seg0.aac")
        #expect(Array(decoded) == expected)
        let facts = try #require(page.find("figure", classes: ["poster"]).first).text
        let variant = try #require(report.variants.last)
        let largest = try #require(variant.largestPosterBytes)
        #expect(facts.contains(HTMLReporter.bytes(expected.count)))
        #expect(facts.contains("320 × 180"))
        #expect(facts.contains("at most \(HTMLReporter.bytes(largest)) fit"))
    }

    /// What must be fixed comes before the variants and charts: the failing rule, its message,
    /// and a link to the finding in the full list.
    @Test func theFailingRulesComeFirst() async throws {
        let report = try await checkForHTML("Samples/no-audio-only/master.m3u8", root: "Samples")
        let page = try LibXML2.parseHTML(try HTMLReporter().render([report]))
        let headings = page.find("h3").map(\.text)
        #expect(headings.first == "Must fix (1)", "\(headings)")
        #expect(headings.firstIndex(of: "Variants") ?? 0 > 0)
        let mustFix = try #require(page.find("section", classes: ["must-fix"]).first)
        let link = try #require(mustFix.find("a").first)
        #expect(link.text == "audio-only-variant-missing")
        let target = String(link.attributes["href"]?.dropFirst() ?? "")
        let finding = try #require(page.find("li", classes: ["finding"]).first { $0.attributes["id"] == target })
        #expect(finding.text.contains("audio-only-variant-missing"))
        #expect(mustFix.text.contains(report.diagnostics[0].message))
        // A passing stream has nothing to fix: no summary.
        let passing = try LibXML2.parseHTML(
            try HTMLReporter().render([try await checkForHTML("Samples/compliant/master.m3u8")]))
        #expect(passing.find("div", classes: ["fix-summary"]).isEmpty)
    }

    /// The index of several streams tells them apart: counts per severity and the rule found most.
    @Test func theIndexGivesCountsAndTheTopRulePerStream() async throws {
        let failing = try await checkForHTML("Samples/no-audio-only/master.m3u8", root: "Samples")
        let passing = try await checkForHTML("Samples/compliant/master.m3u8")
        let page = try LibXML2.parseHTML(try HTMLReporter().render([failing, passing]))
        let rows = try #require(page.find("ul", classes: ["overview"]).first).find("li")
        #expect(rows.count == 2)
        #expect(
            rows[0].text.contains("1 error") && rows[0].text.contains("most: audio-only-variant-missing"),
            "\(rows[0].text)")
        #expect(
            rows[1].text.contains("0 errors") && rows[1].text.contains("0 warnings") && !rows[1].text.contains("most:"))
    }

    /// No chart text inside the plot: reference lines are named in the right margin and the peak
    /// window above the plot, where no bar is drawn.
    @Test func chartLabelsStayOutOfThePlot() async throws {
        let report = try await checkForHTML("Samples/packed-audio/master.m3u8", root: "Samples")
        let page = try LibXML2.parseHTML(try HTMLReporter().render([report]))
        for chart in page.find("svg", classes: ["chart"]) {
            let plotRight = BitrateChart.width - BitrateChart.right, plotTop = BitrateChart.top
            let labels = chart.find("text").filter { ($0.attributes["class"] ?? "").contains("ref-label") }
            #expect(labels.count == 2 || labels.count == 3)
            #expect(
                labels.allSatisfy { Double($0.attributes["x"] ?? "") ?? 0 > plotRight }, "\(labels.map(\.attributes))")
            let window = chart.find("text", classes: ["window-label"])
            #expect(window.allSatisfy { Double($0.attributes["y"] ?? "") ?? .infinity < plotTop })
        }
    }

    @Test func findingsNameTheirFileAndLineAndLinkToThemselvesAndTheirChart() async throws {
        let report = try await checkForHTML("Samples/no-audio-only/master.m3u8", root: "Samples")
        #expect(report.fails)
        let page = try LibXML2.parseHTML(try HTMLReporter().render([report]))
        #expect(page.find("p", classes: ["verdict", "fail"]).first?.text.hasPrefix("Fails") == true)

        let findings = page.find("li", classes: ["finding"])
        #expect(findings.count == report.diagnostics.count)
        #expect(!findings.isEmpty)
        for (item, diagnostic) in zip(findings, report.diagnostics) {
            #expect(item.attributes["class"]?.contains(diagnostic.severity.rawValue) == true)
            #expect(item.text.contains(diagnostic.rule))
            #expect(item.text.contains(diagnostic.message))
            let place = try #require(item.find("a", classes: ["place"]).first)
            let location = try #require(diagnostic.location)
            #expect(place.text == (location.line > 0 ? location.description : location.uri))
            #expect(place.attributes["href"] == "#" + (item.attributes["id"] ?? "?"))
        }
        // A finding about a variant links to that variant's chart, which exists.
        let ids = Set(page.descendants.compactMap { $0.attributes["id"] })
        let chartLinks = page.find("a", classes: ["to-chart"]).compactMap { $0.attributes["href"] }
        #expect(chartLinks.allSatisfy { ids.contains(String($0.dropFirst())) })
    }

    /// A finding about a segment links to that segment's bar.
    @Test func aFindingAtASegmentLinksToItsBar() async throws {
        let folder = try copiedPackedAudio()
        let playlist = try String(contentsOfFile: folder.path("audio/index.m3u8"), encoding: .utf8)
            .replacingOccurrences(of: "#EXTINF:5.990748,", with: "#EXTINF:7.6,")
        try folder.write(Data(playlist.utf8), to: "audio/index.m3u8")
        let report = try await checkForHTML(folder.path("audio/index.m3u8"))
        let finding = try #require(report.diagnostics.first { $0.rule == "target-duration-exceeded" })
        #expect(finding.location?.line == 8)
        let page = try LibXML2.parseHTML(try HTMLReporter().render([report]))
        let item = try #require(
            page.find("li", classes: ["finding"]).first { $0.text.contains("target-duration-exceeded") })
        let target = try #require(item.find("a", classes: ["to-chart"]).first?.attributes["href"])
        let bar = try #require(
            page.find("rect", classes: ["bar"]).first { "#" + ($0.attributes["id"] ?? "") == target })
        #expect(bar.text.contains("line 8"))
    }

    /// A segment that could not be read is a hole in the chart, and no advice is computed.
    @Test func anUnreadSegmentIsAHoleAndGivesNoAdvice() async throws {
        let folder = try copiedPackedAudio()
        try FileManager.default.removeItem(atPath: folder.path("audio/seg1.aac"))
        let report = try await checkForHTML(folder.path("audio/index.m3u8"))
        let page = try LibXML2.parseHTML(try HTMLReporter().render([report]))
        let chart = try #require(page.find("svg", classes: ["chart"]).first)
        #expect(chart.find("rect", classes: ["bar"]).count == 2)
        #expect(chart.find("rect", classes: ["hole"]).count == 1)
        #expect(chart.find("rect", classes: ["hole"]).first?.text.contains("not read") == true)
        // Lower bounds are marked; the poster's budget answer is withheld.
        let row = try #require(page.find("table", classes: ["variants"]).first?.find("tr").last)
        #expect(row.text.contains("≥ "))
        #expect(row.text.contains("2 of 3"))
        let poster = try #require(page.find("figure", classes: ["poster"]).first)
        #expect(poster.text.contains("no advice"))
        #expect(!poster.text.contains("at most"))
    }

    /// A check that does not ask for it keeps no per-segment detail (a run of a thousand streams
    /// in text or JSON holds none of it); a page made from it says why it has no chart.
    @Test func withoutSegmentDetailAReportHoldsNoSeriesAndNoPoster() async throws {
        var configuration = CheckConfiguration()
        configuration.confinement.root = "Samples"
        let report = try await Checker(configuration: configuration).check("Samples/packed-audio/master.m3u8")
        #expect(report.variants.allSatisfy { $0.segmentsMeasured == 3 })
        #expect(report.bitrateSeries.isEmpty && report.posterImages.isEmpty)
        let page = try LibXML2.parseHTML(try HTMLReporter().render([report]))
        #expect(page.find("svg").isEmpty && page.find("img").isEmpty)
        #expect(page.find("p", classes: ["no-chart"]).map(\.text).allSatisfy { $0.contains("keepsSegmentDetail") })
    }

    /// Absurd durations (a 1 µs segment, a zero one) still give a chart with finite coordinates.
    @Test func absurdDurationsGiveAFiniteChart() async throws {
        let folder = try copiedPackedAudio()
        let playlist = try String(contentsOfFile: folder.path("audio/index.m3u8"), encoding: .utf8)
            .replacingOccurrences(of: "#EXTINF:5.990748,", with: "#EXTINF:0.000001,")
            .replacingOccurrences(of: "#EXTINF:5.998503,", with: "#EXTINF:0,")
        try folder.write(Data(playlist.utf8), to: "audio/index.m3u8")
        let report = try await checkForHTML(folder.path("audio/index.m3u8"))
        let page = try LibXML2.parseHTML(try HTMLReporter().render([report]))
        let chart = try #require(page.find("svg", classes: ["chart"]).first)
        let coordinates = chart.descendants.flatMap { element in
            ["x", "y", "width", "height", "x1", "x2", "y1", "y2"].compactMap { element.attributes[$0] }
        }
        #expect(!coordinates.isEmpty)
        #expect(coordinates.allSatisfy { Double($0)?.isFinite == true })
        #expect(chart.find("rect", classes: ["bar"]).count >= 2)
    }

    /// A long playlist is drawn as at most 600 bins, each the largest segment bit rate in it; a
    /// bin with an unread segment is marked, a bin of unread segments is a hole.
    @Test func aLongPlaylistIsDrawnAsBinsThatKeepItsHoles() throws {
        let segments = (0..<1500).map { index in
            BitrateSeries.Segment(
                start: Double(index) * 6, duration: 6,
                bytes: (900..<903).contains(index) || index == 10 ? nil : 30_000 + index,
                posterBytes: 1000, line: 5 + 2 * index)
        }
        let series = BitrateSeries(
            playlist: "audio/index.m3u8", segments: segments, targetDuration: 6, peakWindow: 1499..<1500,
            peakBitrate: 44_000,
            averageBitrate: 40_000)
        let variant = try VariantSummaryFixture.audioOnly
        let chart = BitrateChart(series: series, variant: variant, budget: 64_000, idPrefix: "c")
        let bars = chart.bars
        #expect(bars.count == 500)
        #expect(bars.allSatisfy { $0.segments.count == 3 })
        // Bin 3 holds segments 9–11: the largest of the two read ones, and a mark for the hole.
        #expect(bars[3].bitrate == segments[11].bitrate)
        #expect(bars[3].hasHole)
        #expect(bars[300].bitrate == nil && bars[300].hasHole)
        #expect(bars.filter(\.hasHole).count == 2)
        let writer = try XMLDocumentWriter(.html)
        try chart.write(to: writer)
        let svg = try LibXML2.parseHTML(try writer.finish())
        #expect(svg.find("rect", classes: ["bar"]).count == 499)
        #expect(svg.find("rect", classes: ["hole"]).count == 2)
        #expect(svg.find("desc").first?.text.contains("drawn as 500 bins") == true)
    }

    /// The peak window covers the run of segments that sets the peak.
    @Test func thePeakWindowSpansTheSegmentsOfThePeak() {
        let segments = [100, 100, 400, 100].map { BitrateWindow.Segment(bytes: $0 * 1000, duration: 6) }
        #expect(BitrateWindow.peakWindow(segments, targetDuration: 6) == 2..<3)
        // A hole is never part of a window.
        var holed = segments
        holed[2].measured = false
        let window = BitrateWindow.peakWindow(holed, targetDuration: 6)
        #expect(window.map { !$0.contains(2) } == true)
        #expect(BitrateWindow.peakWindow([], targetDuration: 6) == nil)
    }
}

@Suite("HTML report: hostile input")
struct HTMLHostileInputTests {
    static let hostile = [
        "</script><script>alert(1)</script>", "\"><img src=x onerror=alert(2)>", "</style><b>x</b>",
        "javascript:alert(3)", "<!--", "]]>",
    ]

    /// Every string from a playlist comes out as text: no element, attribute or script of its own.
    @Test func playlistStringsCannotInjectMarkupOrScript() async throws {
        let uris =
            Self.hostile.map { $0.replacingOccurrences(of: "\"", with: "'") } + [
                "\"quoted\u{01}\u{7F}\u{1B}[31m\u{202E}lmth.m3u8"
            ]
        let variants = uris.enumerated().map { index, uri in
            "#EXT-X-STREAM-INF:BANDWIDTH=\(40000 + index),CODECS=\"mp4a.40.2\",NAME=\"\(Self.hostile[index % Self.hostile.count].replacingOccurrences(of: "\"", with: ""))\"\n\(uri)\n"
        }
        let folder = try TemporaryFolder([
            "</title><script>x</script>/master.m3u8": "#EXTM3U\n" + variants.joined()
                + "#EXT-X-FOO:\"><svg onload=alert(4)>\n"
        ])
        let input = folder.path("</title><script>x</script>/master.m3u8")
        let report = try await checkForHTML(input)
        let html = try HTMLReporter().render([report])

        let page = try LibXML2.parseHTML(html)
        let elements = page.descendants
        #expect(elements.filter { $0.name == "script" || $0.name == "iframe" || $0.name == "object" }.isEmpty)
        #expect(page.find("img").isEmpty)
        #expect(elements.allSatisfy { $0.attributes.keys.allSatisfy { !$0.lowercased().hasPrefix("on") } })
        #expect(
            elements.allSatisfy { element in
                ["href", "src"].allSatisfy {
                    element.attributes[$0].map { $0.hasPrefix("#") || $0.hasPrefix("data:image/") } ?? true
                }
            })
        // The strings are there, as text, for a reader.
        #expect(page.find("h2").first?.text == input)
        for uri in uris.dropLast() { #expect(page.text.contains(uri)) }
        // Control characters and bidirectional overrides are shown as escapes, as in the text
        // report; none reaches the page raw (libxml2 would pass them through).
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(page.text.contains("quoted\\x01\\x7f\\x1b[31m\\u{202e}lmth.m3u8"))
        #expect(!html.unicodeScalars.contains("\u{202E}"))
    }

    /// Only a JPEG or PNG whose header was read becomes a `data:` URI, with the type its bytes say.
    @Test(arguments: [
        ("svg", Array("<svg xmlns='x' onload='alert(1)'/>".utf8)),
        ("html", Array("<html><script>alert(1)</script></html>".utf8)),
        ("gif", Array("GIF89a\u{01}\u{00}\u{01}\u{00}".utf8)),
        ("jpeg without frame header", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF<script>".utf8)),
        (
            "png without IHDR",
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("<script>alert(1)</script>xxxxxx".utf8)
        ),
    ])
    func refusesToEmbedBytesThatAreNotAReadableJPEGOrPNG(_ name: String, _ bytes: [UInt8]) {
        #expect(PosterImage(bytes: bytes, contentHash: name) == nil)
    }

    @Test func anAPICThatIsNotAnImageIsNeverEmbedded() async throws {
        let folder = try copiedPackedAudio()
        // Every segment's poster replaced by markup that claims to be a JPEG.
        for name in ["seg0.aac", "seg1.aac", "seg2.aac"] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path("audio/\(name)"))))
            let (tag, count) = try ID3Tag.parse(bytes)
            var hostile = tag
            hostile.frames = tag.frames.map { frame in
                guard case .attachedPicture(var picture) = frame else { return frame }
                picture.mimeType = "image/svg+xml\"><script>alert(1)</script>"
                picture.data = Array("<svg onload=alert(1)></svg>".utf8)
                return .attachedPicture(picture)
            }
            try folder.write(Data(hostile.serialized() + bytes[count...]), to: "audio/\(name)")
        }
        let report = try await checkForHTML(folder.path("audio/index.m3u8"))
        #expect(report.variants.first?.artwork != nil)
        #expect(report.posterImages.isEmpty)
        let html = try HTMLReporter().render([report])
        let page = try LibXML2.parseHTML(html)
        #expect(page.find("img").isEmpty)
        #expect(page.find("script").isEmpty)
        #expect(!html.contains("data:image"))
        #expect(page.find("figure", classes: ["poster"]).first?.text.contains("Image not shown") == true)
    }

    @Test func acceptsTheSamplePosterWithTheTypeItsBytesSay() throws {
        let bytes = try [UInt8](Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/poster.jpg")))
        let image = try #require(PosterImage(bytes: bytes, contentHash: "h"))
        #expect(image.format == .jpeg)
        #expect(image.width > 0 && image.height > 0)
    }
}
