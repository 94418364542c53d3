import Foundation
import HLSCheck
import HLSPlaylist
import HLSReporting
import Testing
import TestSupport
import StreamSources

/// Every report format, rendered from the same reports.
struct RenderedReports {
    var text: String
    var json: String
    var junit: String
    var github: String
    var sarif: String
    var html: String

    /// How many streams were rendered.
    var count: Int

    init(_ reports: [CheckReport]) throws {
        count = reports.count
        text = TextReporter().render(reports)
        json = JSONReporter().render(reports)
        junit = try JUnitReporter(timestamp: ReportFixtures.timestamp, hostname: ReportFixtures.hostname).render(
            reports)
        github = GitHubActionsReporter().render(reports)
        sarif = SARIFReporter().render(reports)
        html = try HTMLReporter().render(reports)
    }

    /// Each format reads back as what it claims to be: JSON with its keys (never `{}`), XML with
    /// its root, a text summary line.
    func expectWellFormed(_ context: String) throws {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(self.json.utf8)) as? [String: Any], "\(context): JSON")
        #expect(
            json["diagnostics"] != nil && json["variants"] != nil && json["summary"] != nil,
            "\(context): JSON lost its shape")
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(self.sarif.utf8)) as? [String: Any], "\(context): SARIF")
        #expect(sarif["runs"] != nil, "\(context): SARIF without runs")
        #expect(try LibXML2.parse(junit).name == "testsuites", "\(context): JUnit")
        #expect(text.contains(" checked: "), "\(context): text without its summary line")
        let page = try LibXML2.parseHTML(html)
        #expect(
            page.find("section", classes: ["stream"]).count == count, "\(context): HTML without a section per stream")
        #expect(page.find("script").isEmpty, "\(context): HTML with a script")
    }
}

/// A copy of a committed sample (playlists and segments), one playlist edited.
func sampleCopy(_ sample: String, editing playlist: String, _ edit: (String) -> String) throws -> TemporaryFolder {
    let source = PackageRoot.url.appendingPathComponent("Samples/\(sample)")
    let folder = try TemporaryFolder()
    for path in try FileManager.default.subpathsOfDirectory(atPath: source.path) {
        var isDirectory: ObjCBool = false
        let full = source.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: full.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { continue }
        var data = try Data(contentsOf: full)
        if path == playlist { data = Data(edit(String(decoding: data, as: UTF8.self)).utf8) }
        try folder.write(data, to: path)
    }
    return folder
}

/// The values that trapped the checker or a reporter before, through the whole
/// pipeline with media measurement on: parser → measurement → rules → every reporter.
@Suite("Reports: numbers from files")
struct HostileNumberReportTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var value: String
        var playlist: String
        var line: Int
        var column: Int
        var edit: @Sendable (String) -> String
        var testDescription: String { "\(playlist): \(value.prefix(24))" }
    }

    static func extinf(_ value: String) -> Case {
        Case(value: value, playlist: "audio/index.m3u8", line: 6, column: 9) { text in
            guard let range = text.range(of: "#EXTINF:6.013967,") else { return text }
            return text.replacingCharacters(in: range, with: "#EXTINF:\(value),")
        }
    }

    static let cases: [Case] = [
        Case(value: "BANDWIDTH=9223372036854775807", playlist: "master.m3u8", line: 8, column: 19) {
            $0.replacingOccurrences(of: "BANDWIDTH=47133", with: "BANDWIDTH=9223372036854775807")
        },
        extinf("0." + String(repeating: "0", count: 29) + "1"),
        extinf("-1.5"),
        extinf("100000000000000000"),
        extinf("100000000000000000000"),
        extinf("400000000000000000000000"),
        extinf(String(repeating: "9", count: 400)),
    ]

    @Test("a hostile number is a located playlist-syntax error in every report", arguments: cases)
    func hostileNumberIsReportedEverywhere(_ c: Case) async throws {
        let folder = try sampleCopy("compliant", editing: c.playlist, c.edit)
        let report = try await Checker(configuration: CheckConfiguration()).check(folder.path("master.m3u8"))
        let syntax = try #require(
            report.diagnostics.first { $0.rule == "playlist-syntax" && $0.location?.uri.hasSuffix(c.playlist) == true },
            "\(report.diagnostics.map(\.message))")
        #expect(syntax.severity == .error)
        #expect(syntax.location?.line == c.line && syntax.location?.column == c.column)
        // Everything else was still checked: the variant table has its three rows and the audio
        // variant was measured.
        #expect(report.variants.count == 3)
        #expect(report.variants.contains { $0.audioOnly && $0.measuredPeakBitrate != nil })
        let rendered = try RenderedReports([report])
        try rendered.expectWellFormed(c.testDescription)
        #expect(rendered.text.contains("\(c.playlist):\(c.line):\(c.column): error:"))
        #expect(rendered.github.contains("line=\(c.line),col=\(c.column)"))
    }

    /// Defence in depth: numbers the parser would refuse, put straight into a report, still
    /// render in every format (no trap, no `{}`, no "-1.-5").
    @Test func absurdSummaryNumbersStillRender() async throws {
        var report = try await ReportFixtures.sample("compliant")
        try #require(report.variants.count == 3)
        report.variants[0].duration = .infinity
        report.variants[0].declaredBandwidth = .max
        report.variants[0].measuredPeakBitrate = .min
        report.variants[1].duration = -1.5
        report.variants[1].declaredAverageBandwidth = -1_500
        report.variants[1].measuredAverageBitrate = .max
        report.variants[2].duration = .nan
        let rendered = try RenderedReports([report])
        try rendered.expectWellFormed("absurd summary")
        #expect(rendered.text.contains("-1.5 s"))
        #expect(rendered.text.contains("9223372036854.8 Mbit/s"))
        #expect(rendered.text.contains("-9223372036854.8 Mbit/s"))
        #expect(!rendered.text.contains(".-"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(rendered.json.utf8)) as? [String: Any])
        let variants = try #require(json["variants"] as? [[String: Any]])
        #expect(variants.count == 3)
        #expect(variants[0]["duration"] == nil, "an infinite duration is left out, not written")
        #expect((variants[1]["duration"] as? Double) == -1.5)
    }
}

/// Seeded mutations of every committed sample playlist through parser, checker (playlist only)
/// and every reporter: nothing may trap, hang or produce a malformed report.
@Suite("Reports: mutated playlists")
struct MutatedPlaylistTests {
    /// SplitMix64: small, deterministic, good enough to pick mutations.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(1, bound))) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let hostileNumbers = [
        "9223372036854775807", "18446744073709551616", "-1.5", "1e-30", "0." + String(repeating: "0", count: 29) + "1",
        "1e17", "100000000000000000000", "400000000000000000000000", String(repeating: "9", count: 400), "0", "-0",
        "nan", "inf", "4294967296", "0.0000001", "999999.9999999", "1000000.0000001", "9007199254740993", "", "0x10",
        "65536x65536", "1@9223372036854775807", "9223372036854775807@1",
    ]
    static let hostileLines = [
        "#EXT-X-BYTERANGE:9223372036854775807@9223372036854775807", "#EXT-X-TARGETDURATION:0",
        "#EXTINF:1000000,", "#EXT-X-MEDIA-SEQUENCE:9223372036854775807", "#EXT-X-PART-INF:PART-TARGET=1e400",
        "#EXT-X-START:TIME-OFFSET=-99999999999999999999", "#EXT-X-DEFINE:NAME=\"v\",VALUE=\"{$v}{$v}\"",
        "#EXT-X-STREAM-INF:BANDWIDTH=0,RESOLUTION=0x0,FRAME-RATE=0", "#EXT-X-SKIP:SKIPPED-SEGMENTS=9223372036854775807",
        "#EXTINF:0,", "#EXT-X-BITRATE:9223372036854775807",
    ]
    static let specials: [Character] = ["\"", ",", "=", ":", "@", "\n", "-", "x", ".", "{", "}", "$", "9", " ", "#"]

    /// One mutation of `text`.
    static func mutate(_ text: String, _ generator: inout Generator) -> String {
        var lines = text.components(separatedBy: "\n")
        switch generator.below(6) {
        case 0, 1:
            // Replace one number with a hostile one.
            let characters = Array(text)
            var runs: [Range<Int>] = []
            var index = 0
            while index < characters.count {
                if characters[index].isNumber {
                    let start = index
                    while index < characters.count, characters[index].isNumber || characters[index] == "." {
                        index += 1
                    }
                    runs.append(start..<index)
                } else {
                    index += 1
                }
            }
            guard !runs.isEmpty else { return text }
            let run = generator.pick(runs)
            return String(characters[..<run.lowerBound]) + generator.pick(hostileNumbers)
                + String(characters[run.upperBound...])
        case 2:
            lines.insert(generator.pick(hostileLines), at: generator.below(lines.count + 1))
        case 3:
            var characters = Array(text)
            for _ in 0..<(1 + generator.below(4)) where !characters.isEmpty {
                characters[generator.below(characters.count)] = generator.pick(specials)
            }
            return String(characters)
        case 4:
            if !lines.isEmpty { lines.remove(at: generator.below(lines.count)) }
            if !lines.isEmpty {
                let line = lines[generator.below(lines.count)]
                lines.insert(line, at: generator.below(lines.count + 1))
            }
        default:
            return String(text.prefix(generator.below(text.count + 1)))
        }
        return lines.joined(separator: "\n")
    }

    /// The playlists in memory: rewriting a file 2000 times costs more than checking it.
    struct MemorySource: PlaylistSource {
        var files: [String: [UInt8]]
        func read(_ uri: String) async throws -> [UInt8] {
            guard let bytes = files[uri] else { throw InputReadError(uri: uri, reason: "no such file") }
            return bytes
        }
    }

    @Test func mutatedSamplesNeverBreakTheCheckOrAReport() async throws {
        let samples = ["compliant", "fmp4", "packed-audio", "no-audio-only"]
        var generator = Generator(state: 8)
        let configuration = CheckConfiguration(playlistOnly: true)
        var checked = 0
        var syntaxErrors = 0
        for sample in samples {
            let source = PackageRoot.url.appendingPathComponent("Samples/\(sample)")
            let playlists = try FileManager.default.subpathsOfDirectory(atPath: source.path).filter {
                $0.hasSuffix(".m3u8")
            }.sorted()
            let originals = try playlists.map {
                String(decoding: try Data(contentsOf: source.appendingPathComponent($0)), as: UTF8.self)
            }
            for _ in 0..<500 {
                let which = generator.below(playlists.count)
                var text = originals[which]
                for _ in 0..<(1 + generator.below(3)) { text = Self.mutate(text, &generator) }
                var files: [String: [UInt8]] = [:]
                for (index, path) in playlists.enumerated() {
                    files["\(sample)/\(path)"] = Array((index == which ? text : originals[index]).utf8)
                }
                let checker = Checker(configuration: configuration, source: MemorySource(files: files))
                do {
                    let report = try await checker.check("\(sample)/master.m3u8")
                    try RenderedReports([report]).expectWellFormed("\(sample)/\(playlists[which]): \(text)")
                    if report.diagnostics.contains(where: { $0.rule == "playlist-syntax" }) { syntaxErrors += 1 }
                    #expect(report.diagnostics.allSatisfy { ($0.location?.line ?? 1) >= 1 })
                } catch let error as CheckError {
                    // An unreadable root is an operational failure (exit 2), with a message.
                    #expect(!error.description.isEmpty)
                }
                checked += 1
            }
        }
        #expect(checked == 2_000)
        // The mutations do reach the parser's checks (a loop that mutated nothing would pass too).
        #expect(syntaxErrors > 500)
    }
}
