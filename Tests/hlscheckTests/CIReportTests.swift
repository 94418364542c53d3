import Foundation
import TestSupport
import Testing

/// What a CI engineer relies on beyond "every input is in every report": paths that point into
/// the checkout, JUnit that common consumers read, GitHub's limits and job summary, SARIF's run
/// metadata, and the rule catalogue for tools.
@Suite struct CIReportTests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func runGit(_ arguments: [String], in folder: URL) throws -> Int32 {
        try ChildProcess.capture(["git"] + arguments, in: folder.path).status
    }

    /// The streams of ReportCompletenessTests inside `repo/streams/`, `repo` a git work tree.
    static func repository() throws -> (TemporaryFolder, URL) {
        let folder = try ReportCompletenessTests.streams()
        let repo = folder.url.appendingPathComponent("repo")
        try FileManager.default.createDirectory(
            at: repo.appendingPathComponent("streams"), withIntermediateDirectories: true)
        for name in ["good", "warns", "fails", "segment.m3u8"] {
            try FileManager.default.moveItem(
                at: folder.url.appendingPathComponent(name), to: repo.appendingPathComponent("streams/\(name)"))
        }
        return (folder, repo)
    }

    @Test func pathsInEveryReportAreRelativeToTheRepositoryRootAndNormalised() throws {
        let (folder, repo) = try Self.repository()
        #expect(try Self.runGit(["init", "-q"], in: repo) == 0, "git is needed to make a work tree")
        // Run from a subfolder, with paths holding ./ and resolvable ../
        let cwd = repo.appendingPathComponent("streams/good")
        let result = try HLSCheckBinary.run(
            [
                "./master.m3u8", "../fails/./master.m3u8", "../../streams/missing.m3u8", "--playlist-only",
                "--format", "json", "-o", "sarif=\(folder.path("r.sarif"))", "-o", "junit=\(folder.path("r.xml"))",
                "-o", "github=\(folder.path("r.txt"))",
            ],
            in: cwd)
        #expect(result.status == 2, "\(result.stderr)")
        let json = try Self.json(result.stdout)
        #expect(
            json["inputs"] as? [String] == [
                "streams/good/master.m3u8", "streams/fails/master.m3u8", "streams/missing.m3u8",
            ])
        let uris = (json["diagnostics"] as? [[String: Any]] ?? []).compactMap {
            ($0["location"] as? [String: Any])?["uri"] as? String
        }
        #expect(Set(uris) == ["streams/fails/master.m3u8", "streams/missing.m3u8"], "\(uris)")
        let variants = try #require(json["variants"] as? [[String: Any]])
        // Each variant names its input, and its resolved playlist the same way.
        #expect(variants.map { $0["input"] as? String } == ["streams/good/master.m3u8", "streams/fails/master.m3u8"])
        #expect(variants.map { $0["playlist"] as? String } == ["streams/good/audio.m3u8", "streams/fails/video.m3u8"])
        #expect(variants.map { $0["uriLine"] as? Int } == [3, 3])

        let sarif = try Self.json(try String(contentsOfFile: folder.path("r.sarif"), encoding: .utf8))
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let base = (run["originalUriBaseIds"] as? [String: [String: String]])?["REPOROOT"]?["uri"]
        #expect(base.map { $0.hasPrefix("file:///") && $0.hasSuffix("/repo/") } == true, "\(base ?? "")")
        let artifacts = (run["artifacts"] as? [[String: Any]] ?? []).compactMap { $0["location"] as? [String: String] }
        #expect(
            artifacts.map { $0["uri"] } == [
                "streams/good/master.m3u8", "streams/fails/master.m3u8", "streams/missing.m3u8",
            ])
        #expect(artifacts.allSatisfy { $0["uriBaseId"] == "REPOROOT" })

        let junit = try String(contentsOfFile: folder.path("r.xml"), encoding: .utf8)
        let files = Set(
            try LibXML2.parse(junit).all("testsuite").flatMap { $0.all("testcase") }.compactMap {
                $0.attributes["file"]
            })
        #expect(
            files == [
                "streams/good/master.m3u8", "streams/good/audio.m3u8", "streams/fails/master.m3u8",
                "streams/fails/video.m3u8", "streams/missing.m3u8",
            ])
        let github = try String(contentsOfFile: folder.path("r.txt"), encoding: .utf8)
        #expect(github.contains("::error file=streams/fails/master.m3u8,line=1,"))
        #expect(github.contains("::error file=streams/missing.m3u8,title=hlscheck input-unreadable::"))
        // Every path field is normalised (messages keep the path as it was typed).
        let suites = try LibXML2.parse(junit).all("testsuite")
        let names = suites.flatMap {
            [$0.attributes["name"] ?? ""] + $0.all("testcase").map { $0.attributes["classname"] ?? "" }
        }
        #expect(names.allSatisfy { !$0.contains("./") }, "\(names)")
        #expect(github.split(separator: "\n").allSatisfy { !$0.contains("file=.") && !$0.contains("/./") })
    }

    @Test func withoutGitPathsAreRelativeToTheRootOption() throws {
        let folder = try ReportCompletenessTests.streams()
        let result = try HLSCheckBinary.run(
            ["good/master.m3u8", "--root", "good", "--playlist-only", "--format", "json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.json(result.stdout)
        #expect(json["inputs"] as? [String] == ["master.m3u8"])
        #expect((json["variants"] as? [[String: Any]])?.first?["playlist"] as? String == "audio.m3u8")
    }

    /// The SARIF file's errors against the published 2.1.0 schema (jsonschema, as GitHub's own
    /// upload checks it): status 0 and no output when it is valid.
    static func sarifSchemaErrors(of path: String, schemas: URL) throws -> (status: Int32, output: String) {
        try python([
            "-c",
            """
            import json, sys
            import jsonschema
            schema = json.load(open(sys.argv[1], encoding="utf-8"))
            errors = list(jsonschema.Draft7Validator(schema).iter_errors(json.load(open(sys.argv[2], encoding="utf-8"))))
            for e in errors[:5]: print("/".join(map(str, e.absolute_path)), e.message)
            sys.exit(1 if errors else 0)
            """, schemas.appendingPathComponent("sarif-schema-2.1.0.json").path, path,
        ])
    }

    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.capture(["python3"] + arguments)
        return (result.status, result.output)
    }

    static let consumersAvailable = (try? python(["-c", "import junitparser, xunitparser"]).status) == 0

    /// The JUnit report of a run over good, warning, failing and unreadable streams, read by the
    /// two Python consumers CI plugins build on: each sees every suite, case and failure.
    @Test(.enabled(if: consumersAvailable, "needs python3 with junitparser and xunitparser (make test installs them)"))
    func junitWithSeveralStreamsParsesInJunitparserAndXunitparser() throws {
        let folder = try ReportCompletenessTests.streams()
        let result = try HLSCheckBinary.run(
            ReportCompletenessTests.inputs + [
                "--playlist-only", "--fail-on", "warning", "--format", "junit", "-o", "junit=r.xml",
            ],
            in: folder.url)
        #expect(result.status == 2)
        let ours = try LibXML2.parse(String(contentsOfFile: folder.path("r.xml"), encoding: .utf8)).all("testsuite")
        let expected = ours.map { suite in
            "\(suite.attributes["name"] ?? "")|\(suite.all("testcase").count)|\(suite.all("testcase").filter { $0.first("failure") != nil }.count)"
        }
        #expect(expected.count == 5)
        let script = """
            import sys, junitparser, xunitparser
            xml = junitparser.JUnitXml.fromfile(sys.argv[1])
            for suite in xml:
                cases = list(suite)
                failed = [c for c in cases if any(isinstance(r, junitparser.Failure) for r in c.result)]
                assert all(c.time >= 0 for c in cases)
                print("junitparser", "%s|%d|%d" % (suite.name, len(cases), len(failed)))
            suite, outcome = xunitparser.parse(open(sys.argv[1], "rb"))
            print("xunitparser", outcome.testsRun, len(outcome.failures), len(outcome.errors))
            """
        let (status, output) = try Self.python(["-c", script, folder.path("r.xml")])
        #expect(status == 0, "\(output)")
        let lines = output.split(separator: "\n")
        #expect(
            lines.filter { $0.hasPrefix("junitparser ") }.map { String($0.dropFirst("junitparser ".count)) }
                == expected, "\(output)")
        let total = ours.reduce(0) { $0 + $1.all("testcase").count }
        let failures = ours.reduce(0) { $0 + $1.all("testcase").filter { $0.first("failure") != nil }.count }
        #expect(lines.last == "xunitparser \(total) \(failures) 0", "\(output)")
        // fails (error) and warns (warning, with --fail-on warning) and the two unreadable inputs.
        #expect(failures == 4)
    }

    @Test func githubStepSummaryIsAppendedNeverTruncated() throws {
        let folder = try ReportCompletenessTests.streams()
        try folder.write(Data("## earlier step\n".utf8), to: "summary.md")
        let environment = ["GITHUB_STEP_SUMMARY": folder.path("summary.md")]
        for _ in 0..<2 {
            let result = try HLSCheckBinary.run(
                ["good/master.m3u8", "fails/master.m3u8", "missing.m3u8", "--playlist-only", "--format", "github"],
                in: folder.url, environment: environment)
            #expect(result.status == 2)
            #expect(
                result.stdout.hasPrefix(
                    "::group::hlscheck good/master.m3u8: passes\n::endgroup::\n::group::hlscheck fails/master.m3u8: fails (1 error)\n"
                ),
                "\(result.stdout)")
        }
        let summary = try String(contentsOfFile: folder.path("summary.md"), encoding: .utf8)
        #expect(summary.hasPrefix("## earlier step\n### hlscheck\n"))
        #expect(summary.components(separatedBy: "### hlscheck\n").count == 3, "appended twice")
        #expect(summary.contains("| fails/master.m3u8 | ❌ fails | 1 | 0 | 0 | 1 |"))
        #expect(summary.contains("| missing.m3u8 | ❌ could not be checked | 1 | 0 | 0 | 0 |"))

        // Text reports do not write it.
        _ = try HLSCheckBinary.run(["good/master.m3u8", "--playlist-only"], in: folder.url, environment: environment)
        #expect(try String(contentsOfFile: folder.path("summary.md"), encoding: .utf8) == summary)
    }

    @Test func aStepSummaryThatIsAFIFOOrASymlinkIsRefusedNotFollowed() throws {
        let folder = try ReportCompletenessTests.streams()
        #expect(mkfifo(folder.path("fifo"), 0o600) == 0)
        try folder.write(Data("keep\n".utf8), to: "target.md")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path("link.md"), withDestinationPath: folder.path("target.md"))
        for name in ["fifo", "link.md"] {
            let result = try HLSCheckBinary.run(
                ["good/master.m3u8", "--playlist-only", "--format", "github"], in: folder.url, timeLimit: .seconds(60),
                environment: ["GITHUB_STEP_SUMMARY": folder.path(name)])
            #expect(!result.killedBySignal, "blocked on \(name)")
            #expect(result.status == 0, "the report is written and the exit code unchanged")
            #expect(result.stderr.contains("cannot append the job summary to GITHUB_STEP_SUMMARY"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: folder.path("target.md"), encoding: .utf8) == "keep\n")
    }

    @Test(.enabled(if: PackageRoot.schemas != nil, "needs ../shared/schemas"))
    func sarifSaysHowTheRunWentAndValidates() throws {
        let folder = try ReportCompletenessTests.streams()
        let result = try HLSCheckBinary.run(
            ReportCompletenessTests.inputs + ["--playlist-only", "--format", "sarif", "--budget-kbps", "64"],
            in: folder.url)
        #expect(result.status == 2)
        let sarif = try Self.json(result.stdout)
        let run = try #require((sarif["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["exitCode"] as? Int == 2)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect(
            (invocation["commandLine"] as? String)?.hasSuffix(
                "good/master.m3u8 fails/master.m3u8 missing.m3u8 segment.m3u8 warns/master.m3u8 --playlist-only --format sarif --budget-kbps 64"
            ) == true)
        #expect((invocation["toolExecutionNotifications"] as? [Any])?.count == 2)
        if let schemas = PackageRoot.schemas {
            try folder.write(Data(result.stdout.utf8), to: "r.sarif")
            let validation = try Self.sarifSchemaErrors(of: folder.path("r.sarif"), schemas: schemas)
            #expect(validation.status == 0, "\(validation.output)")
        }
        let results = try #require(run["results"] as? [[String: Any]])
        let fingerprints = results.compactMap {
            ($0["partialFingerprints"] as? [String: String])?["hlscheckLineHash/v1"]
        }
        #expect(fingerprints.count == results.count && Set(fingerprints).count == results.count)
        // A second run gives the same fingerprints.
        let again = try Self.json(
            try HLSCheckBinary.run(
                ReportCompletenessTests.inputs + ["--playlist-only", "--format", "sarif"], in: folder.url
            ).stdout)
        let againResults = ((again["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(
            againResults.compactMap { ($0["partialFingerprints"] as? [String: String])?["hlscheckLineHash/v1"] }
                == fingerprints)
        // The fingerprint follows the line: the same multivariant playlist with a comment line
        // above it.
        let multivariant = try String(contentsOfFile: folder.path("fails/master.m3u8"), encoding: .utf8)
        try folder.write(
            Data(multivariant.replacingOccurrences(of: "#EXTM3U\n", with: "#EXTM3U\n## a comment\n").utf8),
            to: "fails/master.m3u8")
        let moved = try Self.json(
            try HLSCheckBinary.run(["fails/master.m3u8", "--playlist-only", "--format", "sarif"], in: folder.url).stdout
        )
        let movedResult = try #require(
            ((moved["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let original = try #require(results.first { $0["ruleId"] as? String == movedResult["ruleId"] as? String })
        #expect(
            movedResult["partialFingerprints"] as? [String: String] == original["partialFingerprints"]
                as? [String: String])
        // The line's text is read back: the same message on an edited line is another fingerprint.
        func codecsFingerprint() throws -> String? {
            let log = try Self.json(
                try HLSCheckBinary.run(["warns/master.m3u8", "--playlist-only", "--format", "sarif"], in: folder.url)
                    .stdout)
            let result = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first
            #expect(result?["ruleId"] as? String == "codecs-missing")
            return (result?["partialFingerprints"] as? [String: String])?["hlscheckLineHash/v1"]
        }
        let before = try codecsFingerprint()
        try folder.write(
            Data("#EXTM3U\n\n#EXT-X-STREAM-INF:BANDWIDTH=48000\naudio.m3u8\n".utf8), to: "warns/master.m3u8")
        #expect(try codecsFingerprint() == before, "moved one line down")
        try folder.write(Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=47000\naudio.m3u8\n".utf8), to: "warns/master.m3u8")
        #expect(try codecsFingerprint() != before, "the line's text changed")
    }

    @Test func rulesCommandPrintsJSONAndTheMarkdownOfDocsRules() throws {
        let json = try Self.json(
            try HLSCheckBinary.run(["rules", "--format", "json", "--profile", "apple-tvos"]).stdout)
        #expect(json["profile"] as? String == "apple-tvos")
        let rules = try #require(json["rules"] as? [[String: Any]])
        let text = try HLSCheckBinary.run(["rules"]).stdout
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.count > 30 && ids.allSatisfy { text.contains($0) })
        let missing = try #require(rules.first { $0["id"] as? String == "audio-only-variant-missing" })
        #expect(missing["severity"] == nil, "switched off by apple-tvos")
        #expect(missing["defaultSeverity"] as? String == "error")
        #expect(missing["scope"] as? String == "stream")
        // No documentation URL is configured here: no link.
        #expect(missing["helpUri"] == nil)
        let markdown = try HLSCheckBinary.run(["rules", "--format", "markdown"])
        let committed = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        #expect(
            markdown.stdout == committed,
            "docs/rules.md is out of date with the rule catalogue: regenerate it with `swift run hlscheck rules --format markdown > docs/rules.md`"
        )
    }

    /// The regeneration command docs/coverage.md names writes exactly the committed file.
    @Test func rulesFormatCoverageWritesDocsCoverage() throws {
        let coverage = try HLSCheckBinary.run(["rules", "--format", "coverage"])
        let committed = try String(
            contentsOf: PackageRoot.url.appendingPathComponent("docs/coverage.md"), encoding: .utf8)
        #expect(
            coverage.stdout == committed,
            "docs/coverage.md is out of date: regenerate it with `swift run hlscheck rules --format coverage > docs/coverage.md`"
        )
        #expect(coverage.stdout.contains("| [`codecs-missing`](rules.md#codecs-missing) |"))
    }

    @Test func textReportNamesTheCommandThatExplainsEachRuleFound() throws {
        let folder = try ReportCompletenessTests.streams()
        let result = try HLSCheckBinary.run(
            ["fails/master.m3u8", "warns/master.m3u8", "--playlist-only"], in: folder.url)
        #expect(
            result.stdout.contains(
                """
                What each rule checks and how to fix it: hlscheck rules audio-only-variant-missing codecs-missing

                """), "\(result.stdout)")
        #expect(!result.stdout.contains("https://"))
    }
}

extension CIReportTests {
    /// Every key a report can hold is in docs/json-report.md: a run over a measured stream with a
    /// poster, a stream with a suppressed finding, and an input that could not be checked.
    @Test func everyJSONKeyIsDocumented() throws {
        let folder = try TemporaryFolder([
            "quiet/master.m3u8":
                "#EXTM3U\n# hlscheck-disable-next-line codecs-missing\n#EXT-X-STREAM-INF:BANDWIDTH=48000\na.m3u8\n",
            "quiet/a.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n",
        ])
        let result = try HLSCheckBinary.run([
            PackageRoot.url.appendingPathComponent("Samples/compliant/master.m3u8").path,
            folder.path("quiet/master.m3u8"),
            folder.path("gone.m3u8"), "--format", "json",
        ])
        let json = try Self.json(result.stdout)
        var paths: Set<String> = []
        func collect(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                for (key, child) in object { collect(child, path.isEmpty ? key : "\(path).\(key)") }
            } else if let array = value as? [Any] {
                for child in array { collect(child, path + "[]") }
            }
            if !path.isEmpty { paths.insert(path) }
        }
        collect(json, "")
        #expect(
            paths.contains("diagnostics[].suppressed") && paths.contains("variants[].artwork.peakShare")
                && paths.contains("failedInputs[].error") && paths.contains("variants[].input"), "\(paths.sorted())")
        let document = try String(
            contentsOf: PackageRoot.url.appendingPathComponent("docs/json-report.md"), encoding: .utf8)
        for path in paths.sorted() where !path.hasSuffix("[]") {
            let last = path.split(separator: ".").last.map(String.init) ?? path
            #expect(
                document.contains("`\(path)`") || document.contains("/ `.\(last)`"),
                "docs/json-report.md does not document \(path)")
        }
    }
}
