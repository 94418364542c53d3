import Foundation
import MediaFormats
@testable import HLSCheck
@testable import HLSPlaylist
@testable import HLSReporting
import Testing
import TestSupport
import FileSystem

/// Each input dimension along which a small playlist once cost minutes or gigabytes, and the
/// quantity that now bounds it: findings kept, bytes printed, what one line may make a rule or a
/// reporter do. Time is measured by `make bench` (Tests/Benchmarks/growth.py), never here.
@Suite struct BoundedCostTests {
    static let mediaHead = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"

    static func media(segments: Int = 1, duration: String = "6.0") -> String {
        mediaHead + (0..<segments).map { "#EXTINF:\(duration),\nseg\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
    }

    /// The stream `files` describes (entry `p.m3u8`), checked with --playlist-only.
    static func check(_ files: [String: String]) async throws -> (CheckReport, TemporaryFolder) {
        let folder = try TemporaryFolder(files)
        var configuration = CheckConfiguration(playlistOnly: true)
        configuration.limits.playlists = 100_000
        let report = try await Checker(configuration: configuration).check(folder.path("p.m3u8"))
        return (report, folder)
    }

    // MARK: - names per directive

    @Test func aDirectiveKeepsTwentyRuleNamesAndCountsTheRest() async throws {
        let names = (0..<25_000).map { "x\($0)" }.joined(separator: " ")
        let (report, _) = try await Self.check([
            "p.m3u8": Self.mediaHead + "# hlscheck-disable-next-line \(names)\n#EXTINF:6.0,\nseg.ts\n#EXT-X-ENDLIST\n"
        ])
        let unknown = report.diagnostics.filter { $0.rule == "suppression-unknown-rule" }
        // 20 names, each named once, and one finding for the 24 980 that were not read.
        #expect(unknown.count == 21)
        #expect(unknown.filter { $0.message.contains("\"x19\"") }.count == 1)
        #expect(!unknown.contains { $0.message.contains("\"x20\"") })
        let summary = try #require(unknown.first { $0.message.contains("25000 rules") })
        #expect(summary.message.contains("the last 24980 excuse nothing"))
        #expect(summary.location?.line == 5)
    }

    @Test func aNameRepeatedThousandsOfTimesIsOneFinding() async throws {
        let names = Array(repeating: "x", count: 25_000).joined(separator: " ")
        let (report, _) = try await Self.check([
            "p.m3u8": Self.mediaHead + "# hlscheck-disable-next-line \(names)\n#EXTINF:6.0,\nseg.ts\n#EXT-X-ENDLIST\n"
        ])
        let unknown = report.diagnostics.filter { $0.rule == "suppression-unknown-rule" }
        #expect(unknown.count == 2, "\(unknown.map(\.message))")
        // 25 001 warnings and 294 MB of JSON from a 2 MB playlist before; now a few KB.
        #expect(JSONReporter().render([report]).utf8.count < 16_000)
    }

    // MARK: - findings per line

    @Test func aRuleKeepsTwentyFindingsPerLineAndCountsTheRest() {
        let line = SourceLocation(uri: "p.m3u8", line: 2, column: 3)
        let findings =
            Array(repeating: Finding("same", at: line), count: 1_000)
            + (0..<5).map { Finding("other line \($0)", at: SourceLocation(uri: "p.m3u8", line: 3)) }
            + (0..<30).map { Finding("whole file \($0)", at: SourceLocation(uri: "p.m3u8", line: 0)) }
        let kept = Checker.boundedPerLine(findings)
        #expect(kept.filter { $0.location?.line == 2 }.count == 21)
        #expect(kept.filter { $0.location?.line == 3 }.count == 5)
        // A whole file is not a line: findings about files are not cut.
        #expect(kept.filter { $0.location?.line == 0 }.count == 30)
        let summary = try? #require(kept.last { $0.location?.line == 2 })
        #expect(summary?.message.hasPrefix("980 more findings of this rule on this line are not shown") == true)
        // One over the limit is kept, not counted: the parser's 20 problems and its count pass whole.
        let parser =
            Array(repeating: Finding("problem", at: line), count: 20) + [
                Finding("99980 more problems on this line are not shown", at: line)
            ]
        #expect(Checker.boundedPerLine(parser) == parser)
    }

    @Test func theParsersCountOfALinesProblemsReachesTheReport() async throws {
        let (report, _) = try await Self.check([
            "p.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000," + String(repeating: "A,", count: 100_000)
                + "X=1\nv.m3u8\n",
            "v.m3u8": Self.media(),
        ])
        let onTheLine = report.diagnostics.filter { $0.location?.line == 2 }
        #expect(onTheLine.count <= 25)
        #expect(
            onTheLine.contains { $0.message.contains("more problems on this line are not shown") },
            "\(onTheLine.map(\.message))")
    }

    /// The fingerprint recipe is unchanged (rule, file, the line's text, collapsed), computed
    /// once per rule and line: many findings on one long line are told apart by occurrence.
    @Test func sarifFingerprintsOfFindingsOnALongLineKeepTheirRecipe() throws {
        let text = "#EXT-X-STREAM-INF:" + String(repeating: "A,  ", count: 25_000)
        let diagnostics = (0..<200).map { index in
            Diagnostic(
                rule: "playlist-syntax", severity: .warning, message: "problem \(index % 2)",
                location: SourceLocation(uri: "p.m3u8", line: 2, column: index + 1))
        }
        let reporter = SARIFReporter(sourceLines: SourceLines(["p.m3u8": [2: text]]))
        var seen = SARIFReporter.Fingerprints()
        let fingerprints = diagnostics.map { reporter.fingerprint($0, in: &seen) }
        let collapsed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let hash = SARIFReporter.fnv1a(["playlist-syntax", "p.m3u8", "line:" + collapsed].joined(separator: "\u{0}"))
        #expect(fingerprints == (1...200).map { "\(hash):\($0)" })
        #expect(seen.lineHashes.count == 1)
    }

    // MARK: - path depth

    @Test func aDeepMissingPathIsJudgedByItsDeepestExistingFolder() throws {
        let folder = try TemporaryFolder(["sub/keep.txt": ""])
        let real = try #require(RegularFile.realPath(folder.url.path))
        let deep = String(repeating: "d/", count: 20_000) + "seg.ts"
        // (Compared by length and ends: a failure must not print 40 000 characters.)
        let judged = StreamRoot.canonical(folder.path("sub") + "/" + deep)
        #expect(judged.utf8.count == (real + "/sub/" + deep).utf8.count)
        #expect(judged.hasPrefix(real + "/sub/d/d/") && judged.hasSuffix("/d/d/seg.ts"))
        // ".." after a missing folder is applied to the text; before it, by the file system.
        #expect(StreamRoot.canonical(folder.path("sub/missing/../x.ts")) == real + "/sub/x.ts")
        #expect(StreamRoot.canonical(folder.path("sub/../sub/keep.txt/a/b")) == real + "/sub/keep.txt/a/b")
        // A file in the middle of the path: nothing under it exists, the rest is appended.
        let zeros = String(repeating: "/dev/zero", count: 8_000)
        let unchanged = StreamRoot.canonical(zeros) == zeros
        #expect(unchanged)
    }

    @Test func aURIOfThousandsOfComponentsIsOneLocatedFinding() async throws {
        let (inside, _) = try await Self.check([
            "p.m3u8": Self.mediaHead + "#EXTINF:6.0,\n" + String(repeating: "d/", count: 16_000)
                + "seg.ts\n#EXT-X-ENDLIST\n"
        ])
        #expect(!inside.diagnostics.contains { $0.rule == "uri-outside-root" })
        let (outside, _) = try await Self.check([
            "p.m3u8": Self.mediaHead + "#EXTINF:6.0,\n" + String(repeating: "../", count: 16_000)
                + "seg.ts\n#EXT-X-ENDLIST\n"
        ])
        #expect(outside.diagnostics.filter { $0.rule == "uri-outside-root" }.map(\.location?.line) == [6])
    }

    // MARK: - URI length × variants (the text table)

    @Test func theVariantTableCutsALongURIAndTheFindingsKeepItWhole() async throws {
        let long = String(repeating: "x", count: 512 << 10) + ".m3u8"
        var multivariant = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000,CODECS=\"mp4a.40.2\"\n\(long)\n"
        for index in 0..<1_000 {
            multivariant += "#EXT-X-STREAM-INF:BANDWIDTH=\(100_001 + index),CODECS=\"mp4a.40.2\"\nv.m3u8\n"
        }
        let (report, _) = try await Self.check(["p.m3u8": multivariant, "v.m3u8": Self.media()])
        let text = TextReporter().render([report])
        let table = text.split(separator: "\n").drop { !$0.hasPrefix("Variants of ") }.dropFirst()
        let rows = table.count, widest = table.map(\.count).max() ?? 0
        let cut = table.contains { $0.contains("xxx…xxx") }, noted = text.contains("shortened in the middle with …")
        #expect(rows > 1_000)
        // Each row as wide as the widest cell allows, not as the 512 KB URI.
        #expect(widest < 300)
        #expect(cut && noted)
        // The URI itself is printed whole, once, by the finding that names it (514 MB before).
        let finding = try #require(report.diagnostics.first { $0.rule == "playlist-unreadable" })
        let whole = finding.message.contains(long)
        #expect(whole, "the finding does not hold the whole URI")
        // Two findings quote it (the audio-only budget, the unreadable playlist); every other line
        // is short.
        let printed = text.utf8.count, bound = 3 * long.utf8.count + 2_000 * 300
        #expect(printed < bound)
        // JUnit names a case per variant and rule: the URI is cut there too (it was written twice
        // per per-variant rule, 55 times in all: 28 MB).
        let junit = try JUnitReporter(timestamp: ReportFixtures.timestamp, hostname: ReportFixtures.hostname).render([
            report
        ])
        let junitBytes = junit.utf8.count, junitBound = 4 * long.utf8.count + 1_000 * 30 * 400
        #expect(junitBytes < junitBound)
    }

    // MARK: - every dimension and every format: doubling the input at most doubles the report

    /// A stream for size `n`: the dimension's playlist (entry `p.m3u8`) and what it names.
    struct Dimension: CustomTestStringConvertible, Sendable {
        var name: String
        var base: Int
        var files: @Sendable (Int) -> [String: String]
        var testDescription: String { name }
    }

    static let dimensions: [Dimension] = [
        Dimension(name: "line length", base: 20_000) { n in
            [
                "p.m3u8":
                    "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"mp4a.40.2\",X-NOTE=\"\(String(repeating: "a", count: n))\"\nv.m3u8\n",
                "v.m3u8": media(),
            ]
        },
        Dimension(name: "path depth", base: 2_000) { n in
            ["p.m3u8": mediaHead + "#EXTINF:6.0,\n" + String(repeating: "../", count: n) + "seg.ts\n#EXT-X-ENDLIST\n"]
        },
        Dimension(name: "URI length × variants", base: 64) { n in
            var multivariant =
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"mp4a.40.2\"\n\(String(repeating: "x", count: 256 * n)).m3u8\n"
            for index in 0..<n {
                multivariant += "#EXT-X-STREAM-INF:BANDWIDTH=\(2000 + index),CODECS=\"mp4a.40.2\"\nv.m3u8\n"
            }
            return ["p.m3u8": multivariant, "v.m3u8": media()]
        },
        Dimension(name: "names per directive", base: 2_000) { n in
            [
                "p.m3u8": mediaHead + "# hlscheck-disable-next-line " + (0..<n).map { "x\($0)" }.joined(separator: " ")
                    + "\n#EXTINF:6.0,\nseg.ts\n#EXT-X-ENDLIST\n"
            ]
        },
        Dimension(name: "findings per line", base: 2_000) { n in
            [
                "p.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000," + String(repeating: "A,", count: n)
                    + "X=1\nv.m3u8\n",
                "v.m3u8": media(),
            ]
        },
        Dimension(name: "variants", base: 40) { n in
            var files = [
                "p.m3u8": "#EXTM3U\n"
                    + (0..<n).map { "#EXT-X-STREAM-INF:BANDWIDTH=\(1000 + $0)\nv\($0).m3u8\n" }.joined()
            ]
            for index in 0..<n { files["v\(index).m3u8"] = media() }
            return files
        },
        Dimension(name: "renditions", base: 40) { n in
            var files = ["v.m3u8": media()]
            files["p.m3u8"] =
                "#EXTM3U\n"
                + (0..<n).map { "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"a\($0)\",URI=\"a\($0).m3u8\"\n" }
                .joined()
                + "#EXT-X-STREAM-INF:BANDWIDTH=1000,CODECS=\"mp4a.40.2,avc1.64001f\",AUDIO=\"a\"\nv.m3u8\n"
            for index in 0..<n { files["a\(index).m3u8"] = media() }
            return files
        },
        Dimension(name: "segments", base: 400) { n in ["p.m3u8": media(segments: n, duration: "9.0")] },
        Dimension(name: "DEFINE expansion", base: 400) { n in
            [
                "p.m3u8":
                    "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:6\n#EXT-X-DEFINE:NAME=\"v\",VALUE=\"\(String(repeating: "s", count: 64))\"\n"
                    + (0..<n).map { "#EXTINF:6.0,\n{$v}{$v}{$v}{$v}\($0).ts\n" }.joined() + "#EXT-X-ENDLIST\n"
            ]
        },
    ]

    @Test(arguments: dimensions)
    func doublingTheInputAtMostDoublesEveryReport(_ dimension: Dimension) async throws {
        var sizes: [[Int]] = []
        for n in [dimension.base, 2 * dimension.base] {
            let (report, _) = try await Self.check(dimension.files(n))
            let rendered = try RenderedReports([report])
            sizes.append(
                [rendered.text, rendered.json, rendered.sarif, rendered.junit, rendered.github, rendered.html].map(
                    \.utf8.count))
        }
        let formats = ["text", "json", "sarif", "junit", "github", "html"]
        for (index, format) in formats.enumerated() {
            // A few hundred bytes of slack: times and durations in JUnit and HTML vary in length.
            #expect(
                sizes[1][index] <= 2 * sizes[0][index] + 512, "\(format): \(sizes[0][index]) → \(sizes[1][index]) bytes"
            )
        }
    }
}
