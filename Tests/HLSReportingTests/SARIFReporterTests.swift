import Foundation
import HLSCheck
@testable import HLSReporting
import Testing
import TestSupport

/// Python's `jsonschema`, the draft-07 validator these machines have; tests that need it are
/// skipped where it (or the schemas folder) is missing.
enum PythonJSONSchema {
    static let isAvailable: Bool = {
        guard PackageRoot.schemas != nil else { return false }
        return (try? run(["-c", "import jsonschema"]).status) == 0
    }()

    /// The schema violations of `json`, one per line; empty when valid.
    static func violations(of json: String, against schema: URL) throws -> String {
        let folder = try TemporaryFolder(["report.sarif": json])
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1], encoding="utf-8"))
            document = json.load(open(sys.argv[2], encoding="utf-8"))
            validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
            errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
            for error in errors:
                print("/".join(map(str, error.absolute_path)) + ": " + error.message)
            sys.exit(1 if errors else 0)
            """
        let result = try run(["-c", script, schema.path, folder.path("report.sarif")])
        return result.status == 0 ? "" : result.output.isEmpty ? "python3 exited with \(result.status)" : result.output
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.capture(["python3"] + arguments)
        return (result.status, result.output)
    }
}

@Suite struct SARIFReporterTests {
    let reporter = SARIFReporter()

    @Test(arguments: ["no-audio-only", "compliant"])
    func sampleMatchesGolden(_ sample: String) async throws {
        let rules = ReportFixtures.goldenRules
        let sarif = SARIFReporter(catalogue: rules.map { type(of: $0).description })
            .render([try await ReportFixtures.sample(sample, rules: rules)])
        try Golden.expect(sarif, matches: "Tests/HLSReportingTests/Golden/\(sample).sarif.json")
    }

    @Test(.enabled(if: PythonJSONSchema.isAvailable, "needs ../shared/schemas and python3 with jsonschema"))
    func validatesAgainstSARIF210Schema() async throws {
        let schema = try #require(PackageRoot.schemas).appendingPathComponent("sarif-schema-2.1.0.json")
        let awkward = try await ReportFixtures.awkwardStream()
        let reports = [
            try await ReportFixtures.sample("no-audio-only"), try await ReportFixtures.sample("compliant"),
            awkward.report,
            ReportFixtures.unreadable,
        ]
        let full = SARIFReporter(
            paths: ReportPaths(root: PackageRoot.url.path, workingDirectory: PackageRoot.url.path),
            invocation: .init(
                commandLine: ["hlscheck", "x"], start: Date(timeIntervalSince1970: 0), end: Date(), exitCode: 2))
        for sarif in [reporter.render(reports), reporter.render([]), full.render(reports)] {
            let violations = try PythonJSONSchema.violations(of: sarif, against: schema)
            #expect(violations.isEmpty, "\(violations)\n\(sarif)")
        }
    }

    @Test func listsEveryRuleWithItsDefaultLevel() throws {
        let driver = try #require(try run([])["tool"] as? [String: Any])["driver"] as? [String: Any]
        #expect(driver?["name"] as? String == "hlscheck")
        #expect(driver?["version"] as? String == HLSCheckVersion.current)
        let rules = try #require(driver?["rules"] as? [[String: Any]])
        let catalogue = RuleCatalogue.descriptions
        #expect(rules.map { $0["id"] as? String } == catalogue.map(\.id))
        for (rule, description) in zip(rules, catalogue) {
            #expect((rule["shortDescription"] as? [String: Any])?["text"] as? String == description.summary)
            #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String == description.rationale)
            #expect(
                (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
                    == description.defaultSeverity.rawValue)
        }
        #expect(
            rules.first { $0["id"] as? String == "audio-only-over-budget" }?["name"] as? String == "AudioOnlyOverBudget"
        )
    }

    @Test func resultsPointAtTheirRuleAndLocation() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let run = try run([awkward.report])
        let rules =
            try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])["rules"] as? [[String: Any]]
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == awkward.report.diagnostics.count)
        for (result, diagnostic) in zip(results, awkward.report.diagnostics) {
            #expect(result["ruleId"] as? String == diagnostic.rule)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules?[index]["id"] as? String == diagnostic.rule)
            #expect(result["level"] as? String == diagnostic.severity.rawValue)
            #expect((result["message"] as? [String: Any])?["text"] as? String == diagnostic.message)

            let location = try #require(diagnostic.location)
            let physical = try #require(
                ((result["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            // A URI reference: the path with , : % " < > and the newline percent-encoded.
            #expect(uri.removingPercentEncoding == location.uri)
            #expect(!uri.contains("\n") && !uri.contains("\"") && !uri.contains("<"))
            let region = physical["region"] as? [String: Any]
            #expect(region?["startLine"] as? Int == location.line)
            #expect(region?["startColumn"] as? Int == (location.column > 0 ? location.column : nil))
        }
    }

    @Test func aResultWithoutLocationOrKnownRuleStillRenders() async throws {
        var report = try await ReportFixtures.sample("no-audio-only")
        report.diagnostics[0].location = nil
        report.diagnostics[0].rule = "rule-from-elsewhere"
        let result = try #require((try run([report])["results"] as? [[String: Any]])?.first)
        #expect(result["ruleId"] as? String == "rule-from-elsewhere")
        #expect(result["ruleIndex"] == nil)
        #expect(result["locations"] == nil)
    }

    @Test func pathsAreRelativeToTheRepositoryRootNamedByABaseID() async throws {
        let paths = ReportPaths(root: PackageRoot.url.path, workingDirectory: PackageRoot.url.path)
        let report = paths.apply(to: try await ReportFixtures.sample("no-audio-only"))
        let log = try #require(
            try JSONSerialization.jsonObject(
                with: Data(SARIFReporter(paths: paths).render([report, ReportFixtures.unreadable]).utf8))
                as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let bases = try #require(run["originalUriBaseIds"] as? [String: [String: String]])
        #expect(bases["REPOROOT"]?["uri"] == "file://" + PackageRoot.url.path + "/")
        let result = try #require((run["results"] as? [[String: Any]])?.first)
        let artifact =
            (((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?[
                "artifactLocation"]) as? [String: String]
        #expect(artifact == ["uri": "Samples/no-audio-only/master.m3u8", "uriBaseId": "REPOROOT"])
        // Outside the root: an absolute file URI, no base.
        let outside = SARIFReporter(paths: paths).artifactLocation("/elsewhere/a b.m3u8")
        #expect(outside.uri == "file:///elsewhere/a%20b.m3u8" && outside.uriBaseId == nil)
    }

    @Test func rulesLinkToTheirDocumentationOnlyWhereItIsConfigured() async throws {
        // No documentation URL: no link that may lead nowhere; the help names the command instead.
        let unlinked = try #require(try run([])["tool"] as? [String: Any])["driver"] as? [String: Any]
        #expect(unlinked?["informationUri"] == nil)
        let unlinkedRules = try #require(unlinked?["rules"] as? [[String: Any]])
        #expect(unlinkedRules.allSatisfy { $0["helpUri"] == nil })
        let help = try #require(
            unlinkedRules.first { $0["id"] as? String == "codecs-missing" }?["help"] as? [String: Any])
        #expect((help["text"] as? String)?.hasSuffix("`hlscheck rules codecs-missing` explains it in full.") == true)

        var report = try await ReportFixtures.sample("no-audio-only")
        report.documentationURL = "https://docs.example/hlscheck/rules.html"
        let driver = try #require(try run([report])["tool"] as? [String: Any])["driver"] as? [String: Any]
        #expect(driver?["informationUri"] as? String == "https://docs.example/hlscheck/rules.html")
        let rules = try #require(driver?["rules"] as? [[String: Any]])
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            #expect(rule["helpUri"] as? String == "https://docs.example/hlscheck/rules.html#\(id)")
        }
        // Every anchor exists in docs/rules.md.
        let document = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        for rule in rules { #expect(document.contains("\n## \(rule["id"] as? String ?? "?")\n")) }
    }

    /// The fingerprint follows the line's text: the same finding on a moved line keeps it; another
    /// line's text, another rule or another file changes it.
    @Test func fingerprintsSurviveLineMovesAndTellFindingsApart() async throws {
        let base = try await ReportFixtures.sample("no-audio-only")
        let diagnostic = base.diagnostics[0]
        func fingerprint(_ diagnostic: Diagnostic, _ lines: [String: [Int: String]]) -> String {
            var seen = SARIFReporter.Fingerprints()
            return SARIFReporter(sourceLines: SourceLines(lines)).fingerprint(diagnostic, in: &seen)
        }
        let uri = try #require(diagnostic.location?.uri)
        var moved = diagnostic
        moved.location?.line = 7
        let original = fingerprint(diagnostic, [uri: [1: "#EXTM3U"]])
        #expect(original == fingerprint(moved, [uri: [7: "#EXTM3U  "]]))
        #expect(original != fingerprint(diagnostic, [uri: [1: "#EXT-X-VERSION:3"]]))
        var otherRule = diagnostic
        otherRule.rule = "codecs-missing"
        #expect(original != fingerprint(otherRule, [uri: [1: "#EXTM3U"]]))
        // Stable across runs: the same report renders the same fingerprints.
        #expect(reporter.render([base]) == reporter.render([base]))
        // Two identical findings are told apart by their occurrence.
        var seen = SARIFReporter.Fingerprints()
        let reporter = SARIFReporter(sourceLines: SourceLines([uri: [1: "#EXTM3U"]]))
        let first = reporter.fingerprint(diagnostic, in: &seen)
        let second = reporter.fingerprint(diagnostic, in: &seen)
        #expect(first.hasSuffix(":1") && second.hasSuffix(":2") && first.dropLast(2) == second.dropLast(2))
    }

    @Test func invocationSaysHowTheRunWentWithoutCredentials() throws {
        let start = Date(timeIntervalSince1970: 1_795_255_200), end = start.addingTimeInterval(1.5)
        let sarif = SARIFReporter(
            invocation: .init(
                commandLine: [
                    "hlscheck", "https://user:s3cret@cdn.example/master.m3u8?token=abc&x=1", "--header",
                    "Authorization: Bearer b3arer", "--header=X-Key: b3arer", "--format", "sarif",
                    "a b.m3u8",
                ],
                start: start, end: end, exitCode: 2))
        let log = try #require(
            try JSONSerialization.jsonObject(with: Data(sarif.render([ReportFixtures.unreadable]).utf8))
                as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(
            invocation["commandLine"] as? String
                == "hlscheck 'https://***@cdn.example/master.m3u8?token=***&x=***' --header 'Authorization: ***' '--header=X-Key: ***' --format sarif 'a b.m3u8'"
        )
        #expect(!(invocation["commandLine"] as? String ?? "").contains("b3arer"))
        #expect(!(invocation["commandLine"] as? String ?? "").contains("s3cret"))
        #expect(invocation["exitCode"] as? Int == 2)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect(invocation["startTimeUtc"] as? String == "2026-11-21T10:00:00.000Z")
        #expect(invocation["endTimeUtc"] as? String == "2026-11-21T10:00:01.500Z")
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(
            (notifications.first?["message"] as? [String: String])?["text"]
                == "streams/gone.m3u8: no such file or folder")
        // Findings are a successful run.
        let clean = SARIFReporter(invocation: .init(commandLine: ["hlscheck"], start: start, end: end, exitCode: 1))
            .render([])
        #expect(clean.contains("\"executionSuccessful\" : true"))
    }

    private func run(_ reports: [CheckReport]) throws -> [String: Any] {
        let sarif = reporter.render(reports)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect((log["$schema"] as? String)?.hasSuffix("sarif-schema-2.1.0.json") == true)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        return try #require(runs.first)
    }
}
