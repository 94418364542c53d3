import Foundation
import Testing
import TestSupport

/// Reports that stay within what reads them: GitHub code scanning's 25 000 results per SARIF
/// run, a log a person can scroll (`--max-per-rule`), a job summary that says what it lists, and
/// no report many times the size of its playlist because a message quotes an expanded value.
@Suite("Report limits (CLI)")
struct ReportLimitTests {
    /// A media playlist with `count` segments whose EXTINF is not a number: `count`
    /// playlist-syntax errors in one file, on as many lines.
    static func brokenDurations(_ count: Int) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + (0..<count).map { "#EXTINF:x,\ns\($0).ts\n" }.joined()
            + "#EXT-X-ENDLIST\n"
    }

    func run(_ arguments: [String], in folder: TemporaryFolder, environment: [String: String] = [:]) throws
        -> CommandResult
    {
        let result = try HLSCheckBinary.run(
            arguments, in: folder.url, timeLimit: .seconds(300), environment: environment)
        #expect(!result.killedBySignal, "hlscheck \(arguments) did not finish: \(result.stderr)")
        return result
    }

    @Test func textListsAtMostOneHundredFindingsOfARuleInAFileThenCountsTheRest() throws {
        let folder = try TemporaryFolder(["many.m3u8": Self.brokenDurations(150)])
        let result = try run(["check", "many.m3u8", "--playlist-only"], in: folder)
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("[playlist-syntax]") }.count == 100)
        #expect(
            result.stdout.contains(
                "hlscheck: 50 more findings of playlist-syntax in many.m3u8 not shown (the text report shows 100 per rule and file: --max-per-rule); --format json lists every one"
            ), "\(result.stdout)")
        // The summary still counts every finding, and JSON holds them all.
        #expect(result.stdout.contains("1 stream checked: 150 errors"))
        let json = try run(["check", "many.m3u8", "--playlist-only", "--format", "json"], in: folder)
        #expect(json.stdout.components(separatedBy: "\"rule\" : \"playlist-syntax\"").count - 1 == 150)
    }

    @Test(arguments: [("5", 5), ("0", 150)])
    func maxPerRuleSetsTheLimit(_ value: String, _ shown: Int) throws {
        let folder = try TemporaryFolder(["many.m3u8": Self.brokenDurations(150)])
        let result = try run(["check", "many.m3u8", "--playlist-only", "--max-per-rule", value], in: folder)
        #expect(result.stdout.split(separator: "\n").filter { $0.contains("[playlist-syntax]") }.count == shown)
        #expect(result.stdout.contains("more findings of playlist-syntax") == (shown < 150))
    }

    @Test func maxPerRuleRefusesANegativeCount() throws {
        let folder = try TemporaryFolder(["many.m3u8": Self.brokenDurations(1)])
        let result = try run(["check", "many.m3u8", "--max-per-rule=-1"], in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--max-per-rule must be 0 (no limit) or more, got -1"), "\(result.stderr)")
    }

    /// GitHub annotations and their log lines keep the same limit, and the closing line and the
    /// job summary say how many they list instead of claiming to hold every finding.
    @Test func githubListsAtMostMaxPerRuleAndTheSummarySaysHowManyItLists() throws {
        let folder = try TemporaryFolder(["many.m3u8": Self.brokenDurations(250)])
        try folder.write(Data(), to: "summary.md")
        let result = try run(
            ["check", "many.m3u8", "--playlist-only", "--format", "github"], in: folder,
            environment: ["GITHUB_STEP_SUMMARY": folder.path("summary.md")])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("playlist-syntax") && !$0.hasPrefix("hlscheck:") }.count == 100)
        #expect(result.stdout.contains("hlscheck: 150 more findings of playlist-syntax in many.m3u8 not shown"))
        #expect(!result.stdout.contains("every finding is in the job summary"))
        #expect(result.stdout.contains("the job summary lists the first 200 findings"))
        let summary = try String(contentsOfFile: folder.path("summary.md"), encoding: .utf8)
        #expect(summary.contains("The first 200 of 250 findings (every one is in --format json):"), "\(summary)")
    }

    /// GitHub code scanning refuses a SARIF run of more than 25 000 results: the log stops there,
    /// says so in `runs[0].properties` with the true count, and stays valid SARIF.
    @Test func sarifStopsAtTwentyFiveThousandResultsAndSaysHowManyThereWere() throws {
        let playlist = Self.brokenDurations(9000)
        let folder = try TemporaryFolder(["a.m3u8": playlist, "b.m3u8": playlist, "c.m3u8": playlist])
        let result = try run(
            ["check", "a.m3u8", "b.m3u8", "c.m3u8", "--playlist-only", "-o", "sarif=out.sarif"], in: folder)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("27000 errors"))
        #expect(result.stderr.contains("the SARIF report holds the first 25000 of 27000 findings"), "\(result.stderr)")
        let data = try Data(contentsOf: folder.url.appendingPathComponent("out.sarif"))
        let log = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.count == 25000)
        let properties = try #require(run["properties"] as? [String: Any])
        #expect(properties["findingCount"] as? Int == 27000)
        #expect(properties["resultsWritten"] as? Int == 25000)
        if let schemas = PackageRoot.schemas {
            let validation = try CIReportTests.sarifSchemaErrors(of: folder.path("out.sarif"), schemas: schemas)
            #expect(validation.status == 0, "\(validation.output)")
        }
    }

    /// A 16 KB EXT-X-DEFINE value used in 40 variants' AUDIO and CODECS: every message quoting
    /// it, and the HTML variant table, cut it as the text table cuts a cell. Before, each report
    /// but JSON was 150 to 350 times the playlist.
    @Test func anExpandedValueQuotedInMessagesDoesNotBlowUpTheReports() throws {
        var playlist =
            "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"a0\",VALUE=\"\(String(repeating: "x", count: 64))\"\n"
        for level in 1...4 {
            playlist +=
                "#EXT-X-DEFINE:NAME=\"a\(level)\",VALUE=\"\(String(repeating: "{$a\(level - 1)}", count: 4))\"\n"
        }
        for variant in 0..<40 {
            playlist +=
                "#EXT-X-STREAM-INF:BANDWIDTH=\(100_000 + variant),CODECS=\"{$a4}\",AUDIO=\"{$a4}\"\nv\(variant).m3u8\n"
        }
        let folder = try TemporaryFolder(["define.m3u8": playlist])
        var sizes: [String: Int] = [:]
        for format in ["text", "html", "junit", "github"] {
            let result = try run(
                ["check", "define.m3u8", "--playlist-only", "-o", "\(format)=out.\(format)"], in: folder)
            #expect(result.status == 1, "\(result.stderr)")
            sizes[format] = try Data(contentsOf: folder.url.appendingPathComponent("out.\(format)")).count
        }
        for (format, size) in sizes {
            #expect(
                size < 25 * playlist.utf8.count,
                "\(format): \(size) bytes of report for \(playlist.utf8.count) of playlist")
        }
        let text = try String(contentsOfFile: folder.path("out.text"), encoding: .utf8)
        #expect(
            text.contains(
                "AUDIO=\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxx…xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\" names no EXT-X-MEDIA group"))
    }
}
