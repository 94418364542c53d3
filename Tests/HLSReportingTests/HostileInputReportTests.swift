import Foundation
import HLSCheck
import HLSPlaylist
import HLSReporting
import MediaInspection
import Testing
import TestSupport
import StreamSources

/// Every report format, rendered from the same reports.
private func allFormats(_ reports: [CheckReport]) throws -> [String: String] {
    [
        "text": TextReporter().render(reports),
        "json": JSONReporter().render(reports),
        "junit": try JUnitReporter(timestamp: ReportFixtures.timestamp, hostname: ReportFixtures.hostname).render(
            reports),
        "github": GitHubActionsReporter().render(reports),
        "sarif": SARIFReporter().render(reports),
        "html": try HTMLReporter().render(reports),
    ]
}

/// Records every segment the inspector asks for, and reads none.
actor SegmentRequests {
    private(set) var uris: [String] = []
    func add(_ uri: String) { uris.append(uri) }
}

struct RecordingSegmentSource: SegmentByteSource {
    let requests = SegmentRequests()

    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        await requests.add(uri)
        throw InputReadError(uri: uri, reason: "not served in this test")
    }
}

/// The real local source, counting reads per real path.
actor PlaylistReads {
    private(set) var counts: [String: Int] = [:]
    func add(_ path: String) { counts[path, default: 0] += 1 }
}

struct CountingPlaylistSource: PlaylistSource {
    let base = LocalFileSource()
    let reads = PlaylistReads()

    func read(_ uri: String) async throws -> [UInt8] {
        await reads.add(await base.canonicalName(uri) ?? uri)
        return try await base.read(uri)
    }

    func canonicalName(_ uri: String) async -> String? { await base.canonicalName(uri) }
}

@Suite("Hostile input in reports")
struct HostileInputReportTests {
    /// 300 variants that all name the multivariant playlist under four spellings: one read, and one
    /// finding per variant that says what is wrong.
    @Test func aMultivariantPlaylistNamedByItsOwnVariantsIsReadOnceAndReported() async throws {
        let names = ["master.m3u8", "./master.m3u8", "a/../master.m3u8", "link.m3u8"]
        let variants = (0..<300).map { "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\n\(names[$0 % 4])\n" }
        let folder = try TemporaryFolder(["master.m3u8": "#EXTM3U\n" + variants.joined(), "a/.keep": ""])
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.m3u8"), withDestinationPath: "master.m3u8")
        let source = CountingPlaylistSource()
        let report = try await Checker(configuration: CheckConfiguration(playlistOnly: true), source: source)
            .check(folder.path("master.m3u8"))
        #expect(await source.reads.counts.values.sorted() == [1])
        let notMedia = report.diagnostics.filter {
            $0.message.hasSuffix("is a multivariant playlist, not a media playlist")
        }
        #expect(notMedia.count == 300)
        #expect(notMedia.allSatisfy { $0.rule == "playlist-unreadable" && $0.location?.line ?? 0 > 1 })
    }

    static let secret = "TOPSECRET-first-line\nTOPSECRET-second-line\n"

    /// base/secret.txt and base/other/secret.txt outside the stream; base/stream/ names them by
    /// `..`, by absolute path, by a symlink that points out, and as a segment.
    @Test func filesOutsideTheRootAreFindingsAndNeverQuoted() async throws {
        let folder = try TemporaryFolder(["secret.txt": Self.secret, "other/secret.txt": Self.secret])
        let secretPath = folder.path("other/secret.txt")
        let variant = "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\n"
        try folder.write(
            Data(
                ("#EXTM3U\n" + variant + "../secret.txt\n" + variant + secretPath + "\n"
                    + variant + "link.m3u8\n" + variant + "audio.m3u8\n").utf8), to: "stream/master.m3u8")
        try folder.write(
            Data(
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n../../secret.txt\n#EXTINF:6,\nin.ts\n#EXT-X-ENDLIST\n"
                    .utf8), to: "stream/audio.m3u8")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("stream/link.m3u8"), withDestinationPath: "../secret.txt")

        let segments = RecordingSegmentSource()
        let report = try await Checker(segmentSource: segments).check(folder.path("stream/master.m3u8"))
        let outside = report.diagnostics.filter { $0.rule == "uri-outside-root" }
        #expect(outside.compactMap(\.location?.line).sorted() == [3, 4, 5, 7], "\(outside)")
        #expect(outside.allSatisfy { $0.severity == .error })
        // The inspector was asked for the segment inside the root only.
        #expect(await segments.requests.uris == [folder.path("stream/in.ts")])
        #expect(!report.diagnostics.contains { $0.rule == "segment-unreadable" && $0.message.contains("secret") })

        for (format, output) in try allFormats([report]) {
            #expect(!output.contains("TOPSECRET"), "\(format) quotes the outside file")
            #expect(output.contains("uri-outside-root"), "\(format) lacks the finding")
        }
    }

    @Test func aURIOutsideTheRootIsReadWhenAllowed() async throws {
        let folder = try TemporaryFolder([
            "outside.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg.ts\n#EXT-X-ENDLIST\n"
        ])
        try folder.write(
            Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\n../outside.m3u8\n".utf8),
            to: "stream/master.m3u8")
        var configuration = CheckConfiguration(playlistOnly: true)
        configuration.confinement.allowOutside = true
        let report = try await Checker(configuration: configuration).check(folder.path("stream/master.m3u8"))
        #expect(!report.diagnostics.contains { $0.rule == "uri-outside-root" || $0.rule == "playlist-unreadable" })
        #expect(report.variants.first?.segmentCount == 1)
    }

    static let hostile = "bell\u{07} esc\u{1B}[31m red nul\u{00} rtl\u{202E}txt.m3u8 del\u{7F} csi\u{9B}"

    func hostileReport() -> CheckReport {
        CheckReport(
            input: "in\u{1B}]0;title\u{07}.m3u8",
            diagnostics: [
                Diagnostic(
                    rule: "playlist-unreadable", severity: .error, message: "cannot read " + Self.hostile,
                    location: SourceLocation(uri: "dir\u{1B}[2J/master.m3u8", line: 3, column: 1))
            ],
            variants: [], checkedRules: RuleCatalogue.descriptions.filter { $0.id == "playlist-unreadable" })
    }

    @Test func textAndGitHubOutputEscapeControlCharacters() throws {
        let formats = try allFormats([hostileReport()])
        for format in ["text", "github"] {
            let output = try #require(formats[format])
            let raw = output.unicodeScalars.filter {
                $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
            }
            #expect(raw.isEmpty, "\(format) echoes \(raw.map { String($0.value, radix: 16) })")
            #expect(
                output.contains("bell\\x07 esc\\x1b[31m red nul\\x00 rtl\\u{202e}txt.m3u8 del\\x7f csi\\x9b"),
                "\(format): \(output)")
            #expect(output.contains("dir\\x1b[2J/master.m3u8"))
        }
    }

    /// JSON and SARIF escape through their encoders: the text comes back unchanged, and no raw
    /// control character is in the bytes.
    @Test(arguments: ["json", "sarif"])
    func jsonFormatsCarryControlCharactersEscaped(_ format: String) throws {
        let output = try #require(try allFormats([hostileReport()])[format])
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != " " })
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8))
        #expect(strings(in: object).contains { $0.contains(Self.hostile) })
    }

    /// XML 1.0 cannot hold most C0 characters at all: the JUnit report stays well-formed.
    @Test func junitStaysWellFormedWithControlCharacters() throws {
        let xml = try #require(try allFormats([hostileReport()])["junit"])
        let root = try LibXML2.parse(xml)
        let failure = try #require(root.first("testsuite")?.all("testcase").compactMap { $0.first("failure") }.first)
        #expect(failure.attributes["message"]?.contains("esc\u{FFFD}[31m red") == true, "\(failure.attributes)")
        #expect(!xml.unicodeScalars.contains("\u{1B}"))
    }

    private func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let array as [Any]: return array.flatMap(strings)
        case let object as [String: Any]: return object.values.flatMap(strings)
        default: return []
        }
    }
}
