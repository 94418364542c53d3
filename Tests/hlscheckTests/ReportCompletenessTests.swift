import Foundation
import TestSupport
import Testing

/// Reports that never lie: one run over good, failing and unreadable inputs, through the real
/// binary, in every format. `HLSCHECK_BINARY=.build/release/hlscheck` runs them on a release build.
@Suite struct ReportCompletenessTests {
    /// 376 bytes of MPEG-TS: two packets, each starting with the 0x47 sync byte.
    static let transportStream: Data = {
        var bytes = [UInt8](repeating: 0xFF, count: 376)
        bytes[0] = 0x47
        bytes[1] = 0x40
        bytes[188] = 0x47
        return Data(bytes)
    }()

    /// A folder of streams: `good` (clean), `warns` (a warning only: no CODECS), `fails` (an
    /// error: no audio-only variant), and `segment.m3u8` (a TS segment under a playlist's name).
    static func streams() throws -> TemporaryFolder {
        let media = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXTINF:6.0,\na.ts\n#EXT-X-ENDLIST\n"
        let folder = try TemporaryFolder([
            "good/master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio.m3u8\n",
            "good/audio.m3u8": media,
            "warns/master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000\naudio.m3u8\n",
            "warns/audio.m3u8": media,
            "fails/master.m3u8": """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.42c01e,mp4a.40.2",RESOLUTION=640x360
            video.m3u8

            """,
            "fails/video.m3u8": media,
        ])
        try folder.write(transportStream, to: "segment.m3u8")
        return folder
    }

    static let inputs = ["good/master.m3u8", "fails/master.m3u8", "missing.m3u8", "segment.m3u8", "warns/master.m3u8"]

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func everyInputIsInEveryReportAndUnreadableOnesFail() throws {
        let folder = try Self.streams()
        let result = try HLSCheckBinary.run(
            Self.inputs + [
                "--playlist-only", "-o", "json=r.json", "-o", "junit=r.xml", "-o", "sarif=r.sarif", "-o",
                "github=r.txt",
                "--format", "text",
            ], in: folder.url)
        #expect(!result.killedBySignal)
        // Exit code 2: two inputs could not be checked; the three others were, and are reported.
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        // Said once, by the text on standard output; not again on standard error.
        #expect(!result.stderr.contains("missing.m3u8"), "\(result.stderr)")
        #expect(!result.stderr.contains("segment.m3u8"), "\(result.stderr)")

        // Text: the findings of the checked streams, one line per unreadable input, an honest summary.
        #expect(result.stdout.contains("fails/master.m3u8:1: error: no audio-only variant"), "\(result.stdout)")
        #expect(result.stdout.contains("warning: ") && result.stdout.contains("[codecs-missing]"))
        #expect(result.stdout.contains("error: missing.m3u8: no such file or folder [input-unreadable]"))
        #expect(result.stdout.contains("hlscheck inspect segment.m3u8 [input-unreadable]"))
        #expect(result.stdout.contains("3 streams checked, 2 could not be read: "))
        // Never the segment's bytes echoed back as playlist syntax errors.
        #expect(!result.stdout.contains("segment.m3u8:1"))
        #expect(!result.stdout.contains("playlist-syntax"))

        // JSON: `inputs` keeps its shape (strings, in command-line order); `failedInputs` says why.
        let json = try Self.json(folder.path("r.json"))
        #expect(json["inputs"] as? [String] == Self.inputs)
        let failed = try #require(json["failedInputs"] as? [[String: String]])
        #expect(failed.map { $0["path"] } == ["missing.m3u8", "segment.m3u8"])
        #expect(failed[0]["error"] == "missing.m3u8: no such file or folder")
        #expect(failed[1]["error"]?.contains("hlscheck inspect segment.m3u8") == true)
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        let unreadable = diagnostics.filter { $0["rule"] as? String == "input-unreadable" }
        #expect(
            unreadable.compactMap { ($0["location"] as? [String: Any])?["uri"] as? String } == [
                "missing.m3u8", "segment.m3u8",
            ])
        #expect(unreadable.allSatisfy { $0["severity"] as? String == "error" })
        let summary = try #require(json["summary"] as? [String: Int])
        #expect(summary["errors"] == diagnostics.filter { $0["severity"] as? String == "error" }.count)

        // JUnit: valid, one suite per input, each unreadable input a failing test case.
        let xml = try String(contentsOfFile: folder.path("r.xml"), encoding: .utf8)
        if let schemas = PackageRoot.schemas {
            let violations = try LibXML2.violations(
                of: JUnitExtensions.withoutExtensions(xml), against: schemas.appendingPathComponent("JUnit.xsd"))
            #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))\n\(xml)")
        }
        let suites = try LibXML2.parse(xml).all("testsuite")
        #expect(suites.map { $0.attributes["name"] } == Self.inputs)
        for name in ["missing.m3u8", "segment.m3u8"] {
            let suite = try #require(suites.first { $0.attributes["name"] == name })
            #expect(suite.attributes["tests"] == "1" && suite.attributes["failures"] == "1")
            let testCase = try #require(suite.first("testcase"))
            #expect(testCase.attributes["name"] == "input-unreadable")
            #expect(testCase.first("failure")?.attributes["type"] == "input-unreadable")
            #expect(testCase.first("failure")?.attributes["message"]?.contains(name) == true)
        }
        let failures = suites.map { $0.attributes["failures"] }
        #expect(failures == ["0", "1", "1", "1", "0"], "\(xml)")

        // SARIF: a result per unreadable input, at the input, under a rule the driver lists.
        let sarif = try Self.json(folder.path("r.sarif"))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let rules = try #require(
            ((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let results = try #require(run["results"] as? [[String: Any]])
        let unreadableResults = results.filter { $0["ruleId"] as? String == "input-unreadable" }
        #expect(unreadableResults.count == 2)
        for result in unreadableResults {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == "input-unreadable")
            #expect(result["level"] as? String == "error")
        }
        let uris = unreadableResults.compactMap {
            ((($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"]
                as? [String: Any])?["uri"] as? String
        }
        #expect(uris == ["missing.m3u8", "segment.m3u8"])

        // GitHub: an error annotation on each unreadable file.
        let github = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
        #expect(
            github.contains(
                "::error file=missing.m3u8,title=hlscheck input-unreadable::missing.m3u8: no such file or folder\n"),
            "\(github)")
        #expect(github.contains("::error file=segment.m3u8,title=hlscheck input-unreadable::"))
        #expect(github.contains("::error file=fails/master.m3u8,line=1,title=hlscheck audio-only-variant-missing::"))
    }

    /// What fails the exit code fails a test case, and nothing else does.
    @Test(arguments: [
        (["--fail-on", "error"], Int32(1), ["0", "1", "0"]),
        ([], Int32(1), ["0", "1", "0"]),
        (["--fail-on", "warning"], Int32(1), ["0", "1", "1"]),
        (["--fail-on", "never"], Int32(0), ["0", "0", "0"]),
    ])
    func junitFailsWhatFailsTheExitCode(_ failOn: [String], status: Int32, failures: [String]) throws {
        let folder = try Self.streams()
        let result = try HLSCheckBinary.run(
            ["good/master.m3u8", "fails/master.m3u8", "warns/master.m3u8", "--playlist-only", "--format", "junit"]
                + failOn,
            in: folder.url)
        #expect(result.status == status, "\(result.stderr)")
        let suites = try LibXML2.parse(result.stdout).all("testsuite")
        #expect(suites.map { $0.attributes["failures"] } == failures, "\(result.stdout)")
        let warns = try #require(suites.last)
        let codecs = warns.all("testcase").filter { $0.attributes["name"]?.hasPrefix("codecs-missing") == true }
        // The warning either fails its case (with --fail-on warning) or is printed, never both.
        let failed = codecs.contains { $0.first("failure") != nil }
        #expect(failed == (failOn == ["--fail-on", "warning"]))
        #expect(warns.first("system-out")?.text.contains("[codecs-missing]") == !failed)
        if let schemas = PackageRoot.schemas {
            #expect(
                try LibXML2.violations(
                    of: JUnitExtensions.withoutExtensions(result.stdout),
                    against: schemas.appendingPathComponent("JUnit.xsd")
                ).isEmpty)
        }
    }

    @Test func anUnreadableInputFailsEvenWithFailOnNever() throws {
        let folder = try Self.streams()
        let result = try HLSCheckBinary.run(
            ["missing.m3u8", "good/master.m3u8", "--playlist-only", "--format", "junit", "--fail-on", "never"],
            in: folder.url)
        #expect(result.status == 2)
        let suites = try LibXML2.parse(result.stdout).all("testsuite")
        #expect(suites.map { $0.attributes["failures"] } == ["1", "0"])
    }

    @Test func aFIFOAndAnInputOutsideTheRootAreFailedInputsBesideACheckedOne() throws {
        let folder = try Self.streams()
        try folder.write(
            Data("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n".utf8), to: "elsewhere/x.m3u8")
        #expect(mkfifo(folder.path("good/live.m3u8"), 0o600) == 0)
        let result = try HLSCheckBinary.run(
            [
                "good/live.m3u8", "good/master.m3u8", "elsewhere/x.m3u8", "--root", "good", "--playlist-only",
                "--format", "json",
            ],
            in: folder.url, timeLimit: .seconds(60))
        #expect(!result.killedBySignal, "a FIFO was opened for reading")
        #expect(result.status == 2, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let failed = try #require(json["failedInputs"] as? [[String: String]])
        // Outside a git work tree, paths are relative to --root; one outside it is shown absolute.
        #expect(failed.map { $0["path"] } == ["live.m3u8", folder.url.path + "/elsewhere/x.m3u8"])
        #expect(failed.first?["error"]?.contains("is a FIFO (named pipe)") == true)
        #expect(failed.last?["error"]?.contains("lies outside the root") == true)
        #expect((json["variants"] as? [[String: Any]])?.count == 1, "the good stream is still checked")
    }

    @Test func aFolderWithoutPlaylistsIsAFailedInputNotAnEmptyPass() throws {
        let folder = try TemporaryFolder(["empty/readme.txt": "no streams here\n"])
        let result = try HLSCheckBinary.run(["empty", "--format", "json"], in: folder.url)
        #expect(result.status == 2)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let failed = try #require(json["failedInputs"] as? [[String: String]])
        #expect(failed.map { $0["path"] } == ["empty"])
        #expect(failed.first?["error"]?.hasPrefix("empty: no playlist found") == true, "\(failed)")
        #expect((json["summary"] as? [String: Int])?["errors"] == 1)
    }

    @Test func aSegmentGivenAsAPlaylistIsRefusedWithAHint() throws {
        let folder = try Self.streams()
        try folder.write(Self.transportStream, to: "seg0.ts")
        // With JSON on standard output, standard error is where a person reads why.
        let result = try HLSCheckBinary.run(["seg0.ts", "--format", "json"], in: folder.url)
        #expect(result.status == 2)
        #expect(
            result.stderr == """
                hlscheck: cannot read the playlist seg0.ts: not a playlist: it looks like an MPEG-TS segment \
                (a playlist starts with #EXTM3U, RFC 8216 §4.3.1.1); to look inside a segment, run: hlscheck inspect seg0.ts

                """, "\(result.stderr)")
    }

    @Test func aTextFileWithoutTheHeaderIsRefusedNamingItsFirstLine() throws {
        let folder = try TemporaryFolder(["notes.m3u8": "a.ts\nb.ts\n"])
        let result = try HLSCheckBinary.run(["notes.m3u8"], in: folder.url)
        #expect(result.status == 2)
        #expect(
            result.stdout.contains(#"not a playlist: its first line is "a.ts" (a playlist starts with #EXTM3U"#),
            "\(result.stdout)")
    }

    @Test func aVariantThatIsASegmentIsAFindingAtItsLine() throws {
        let folder = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio/seg0.ts\n"
        ])
        try folder.write(Self.transportStream, to: "audio/seg0.ts")
        let result = try HLSCheckBinary.run(["master.m3u8", "--playlist-only"], in: folder.url)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "master.m3u8:3:1: error: cannot read audio/seg0.ts: not a playlist: it looks like an MPEG-TS segment"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("audio/seg0.ts:1"))
    }

    @Test func aPlaylistWithAByteOrderMarkIsStillChecked() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            Data(
                [0xEF, 0xBB, 0xBF] + Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n".utf8)),
            to: "bom.m3u8")
        let result = try HLSCheckBinary.run(["bom.m3u8", "--playlist-only", "--format", "json"], in: folder.url)
        #expect(result.status != 2, "\(result.stderr)")
        #expect(
            (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["failedInputs"]
                as? [Any] != nil)
        #expect(result.stdout.contains("\"segmentCount\" : 1"), "\(result.stdout)")
    }

    @Test(arguments: [("inpsect", "inspect"), ("rulez", "rules"), ("chekc", "check"), ("embd", "embed")])
    func aMistypedSubcommandSaysDidYouMean(_ typed: String, _ meant: String) throws {
        let result = try HLSCheckBinary.run([typed, "x.ts"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("unknown command or missing file \"\(typed)\"; did you mean \"\(meant)\"?"),
            "\(result.stderr)")
    }

    @Test func aFileNamedLikeACommandIsStillAPath() throws {
        // An existing file is never a typo; a far-off missing name is just a missing file.
        let folder = try TemporaryFolder([
            "chek": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n"
        ])
        let existing = try HLSCheckBinary.run(["chek", "--playlist-only"], in: folder.url)
        #expect(existing.status != 64, "\(existing.stderr)")
        #expect(!existing.stderr.contains("did you mean"))
        let missing = try HLSCheckBinary.run(["stream.m3u8"], in: folder.url)
        #expect(missing.status == 2)
        #expect(!missing.stderr.contains("did you mean"))
    }
}
