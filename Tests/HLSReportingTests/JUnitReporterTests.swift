import Foundation
import HLSCheck
import HLSPlaylist
import HLSReporting
import Testing
import TestSupport

@Suite struct JUnitReporterTests {
    let reporter = JUnitReporter(timestamp: ReportFixtures.timestamp, hostname: ReportFixtures.hostname)

    @Test(arguments: ["no-audio-only", "compliant"])
    func sampleMatchesGolden(_ sample: String) async throws {
        // Times are measured, so they vary from run to run: the golden file holds them at zero.
        var report = try await ReportFixtures.sample(sample, rules: ReportFixtures.goldenRules)
        report.duration = nil
        report.ruleDurations = [:]
        let xml = try reporter.render([report])
        try Golden.expect(xml, matches: "Tests/HLSReportingTests/Golden/\(sample).junit.xml")
    }

    @Test(.enabled(if: PackageRoot.schemas != nil, "needs ../shared/schemas"))
    func validatesAgainstAntJUnitSchema() async throws {
        let schemas = try #require(PackageRoot.schemas)
        let awkward = try await ReportFixtures.awkwardStream()
        let reports = [
            try await ReportFixtures.sample("no-audio-only"), try await ReportFixtures.sample("compliant"),
            awkward.report,
            ReportFixtures.unreadable,
        ]
        let xml = try reporter.render(reports)
        let violations = try LibXML2.violations(
            of: JUnitExtensions.withoutExtensions(xml), against: schemas.appendingPathComponent("JUnit.xsd"))
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))\n\(xml)")
        // The `file` attribute and a test case's output are the extensions: the strict schema names exactly them.
        let strict = try LibXML2.violations(of: xml, against: schemas.appendingPathComponent("JUnit.xsd"))
        #expect(
            !strict.isEmpty && strict.allSatisfy { $0.contains("'file'") || $0.contains("system-out") }, "\(strict)")
    }

    /// The cases a report should have: one per stream-scoped rule, one per variant for the others.
    static func expectedCaseCount(_ report: CheckReport) -> Int {
        report.checkedRules.reduce(0) { $0 + ($1.scope == .variant ? max(1, report.variants.count) : 1) }
    }

    @Test(.enabled(if: PackageRoot.schemas != nil, "needs ../shared/schemas"))
    func emptyRunValidates() throws {
        let schemas = try #require(PackageRoot.schemas)
        let xml = try reporter.render([])
        #expect(try LibXML2.violations(of: xml, against: schemas.appendingPathComponent("JUnit.xsd")).isEmpty)
    }

    @Test(.enabled(if: PackageRoot.schemas != nil, "needs ../shared/schemas"))
    func schemaCheckRejectsWhatAntRejects() throws {
        // Proves the validation above is not vacuous: a suite without its required attributes,
        // properties and output elements, and a test case with two failures.
        let schema = try #require(PackageRoot.schemas).appendingPathComponent("JUnit.xsd")
        let invalid = """
            <testsuites><testsuite name="x"><testcase name="a" classname="b" time="0">\
            <failure type="t"/><failure type="t"/></testcase></testsuite></testsuites>
            """
        #expect(!(try LibXML2.violations(of: invalid, against: schema)).isEmpty)
    }

    @Test func anInputListedTwiceIsTwoSuitesWhoseCasesDoNotShareNames() async throws {
        let report = try await ReportFixtures.sample("no-audio-only")
        let suites = try LibXML2.parse(try reporter.render([report, report])).all("testsuite")
        #expect(
            suites.map { $0.attributes["name"] } == [
                "Samples/no-audio-only/master.m3u8", "Samples/no-audio-only/master.m3u8 (2)",
            ])
        let identities = suites.flatMap { suite in
            suite.all("testcase").map { "\($0.attributes["classname"] ?? "")|\($0.attributes["name"] ?? "")" }
        }
        #expect(Set(identities).count == identities.count, "\(identities)")
    }

    @Test func aStreamLevelFindingInAMediaPlaylistLinksThatPlaylist() throws {
        let rule = try #require(RuleCatalogue.descriptions.first { $0.scope == .stream })
        let report = CheckReport(
            input: "show/master.m3u8",
            diagnostics: [
                Diagnostic(
                    rule: rule.id, severity: .error, message: "m",
                    location: SourceLocation(uri: "show/v180/index.m3u8", line: 3))
            ],
            variants: [], checkedRules: [rule])
        let suite = try #require(try LibXML2.parse(try reporter.render([report])).first("testsuite"))
        let testCase = try #require(suite.all("testcase").first { $0.attributes["name"] == rule.id })
        #expect(testCase.attributes["file"] == "show/v180/index.m3u8")
        #expect(testCase.first("failure")?.text == "show/v180/index.m3u8:3: m")
    }

    @Test func aWarningIsListedInItsOwnCaseWithItsLocation() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let suite = try #require(try LibXML2.parse(try reporter.render([awkward.report])).first("testsuite"))
        let warnings = awkward.report.diagnostics.filter { $0.severity != .error && !$0.suppressed }
        #expect(!warnings.isEmpty)
        for warning in warnings {
            let place = try #require(warning.location)
            let line = "\(place): \(warning.severity.rawValue): \(warning.message) [\(warning.rule)]"
            let owners = suite.all("testcase").filter { $0.first("system-out")?.text.contains(line) == true }
            #expect(owners.count == 1, "\(line)")
            #expect(owners.first?.attributes["name"]?.hasPrefix(warning.rule) == true)
            #expect(owners.first?.first("failure") == nil)
        }
        // A case with nothing to say has no output of its own.
        #expect(suite.all("testcase").contains { $0.children.isEmpty })
    }

    @Test func failsOnlyTheRuleThatFoundAnError() async throws {
        let report = try await ReportFixtures.sample("no-audio-only")
        let suite = try #require(try LibXML2.parse(try reporter.render([report])).first("testsuite"))
        let cases = suite.all("testcase")

        #expect(suite.attributes["name"] == "Samples/no-audio-only/master.m3u8")
        #expect(suite.attributes["timestamp"] == ReportFixtures.timestamp)
        #expect(suite.attributes["hostname"] == ReportFixtures.hostname)
        // One case per stream-scoped rule, one per variant for per-variant rules: no rule × variant noise.
        #expect(report.variants.count == 2)
        #expect(cases.count == Self.expectedCaseCount(report))
        #expect(cases.filter { $0.attributes["name"]?.hasPrefix("audio-only-variant-missing") == true }.count == 1)
        #expect(cases.filter { $0.attributes["name"]?.hasPrefix("codecs-missing") == true }.count == 2)
        #expect(suite.attributes["tests"] == String(cases.count))
        #expect(suite.attributes["failures"] == "1")
        #expect(suite.attributes["errors"] == "0")

        let failing = cases.filter { $0.first("failure") != nil }
        #expect(failing.map { $0.attributes["name"] } == ["audio-only-variant-missing"])
        let failure = try #require(failing.first?.first("failure"))
        #expect(failure.attributes["type"] == "audio-only-variant-missing")
        #expect(
            failure.attributes["message"] == "no audio-only variant: add one of at most 64 kbit/s for cellular fallback"
        )
        #expect(
            failure.text
                == "Samples/no-audio-only/master.m3u8:1: no audio-only variant: add one of at most 64 kbit/s for cellular fallback"
        )
        #expect(cases.contains { $0.attributes["name"] == "codecs-missing: ../compliant/v1/index.m3u8" })
        #expect(!cases.contains { $0.attributes["name"] == "audio-only-variant-missing: ../compliant/v1/index.m3u8" })
        // A file for every case: the input for a stream-level one, the variant's playlist for a per-variant one.
        #expect(failing.first?.attributes["file"] == "Samples/no-audio-only/master.m3u8")
        #expect(
            cases.first { $0.attributes["name"] == "codecs-missing: ../compliant/v1/index.m3u8" }?.attributes["file"]
                == "Samples/compliant/v1/index.m3u8")
    }

    @Test func compliantStreamHasNoFailures() async throws {
        let report = try await ReportFixtures.sample("compliant")
        let suite = try #require(try LibXML2.parse(try reporter.render([report])).first("testsuite"))
        #expect(suite.attributes["tests"] == String(Self.expectedCaseCount(report)))
        #expect(suite.attributes["failures"] == "0")
        #expect(suite.all("testcase").allSatisfy { $0.children.isEmpty })
    }

    @Test func findingsInAVariantPlaylistFailThatVariantsCase() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let suite = try #require(try LibXML2.parse(try reporter.render([awkward.report])).first("testsuite"))
        let exceeded = try #require(
            suite.all("testcase").first { $0.attributes["name"] == "target-duration-exceeded: video/index.m3u8" })
        #expect(exceeded.first("failure")?.attributes["type"] == "target-duration-exceeded")
        #expect(
            exceeded.attributes["file"] == "\(awkward.folder.url.path)/\(ReportFixtures.awkwardFolder)/video/index.m3u8"
        )
        // Per-variant rule: no stream-level case unless a finding concerns no variant.
        #expect(!suite.all("testcase").contains { $0.attributes["name"] == "target-duration-exceeded" })
        let other = try #require(
            suite.all("testcase").first { $0.attributes["name"]?.hasPrefix("target-duration-exceeded: a&b") == true })
        #expect(other.children.isEmpty)
    }

    @Test func warningsAndNotesNeverFail() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let diagnostics = awkward.report.diagnostics
        #expect(Set(diagnostics.map(\.severity)) == [.error, .warning, .note], "\(diagnostics)")
        let suite = try #require(try LibXML2.parse(try reporter.render([awkward.report])).first("testsuite"))
        let cases = suite.all("testcase")

        let failedRules = Set(cases.compactMap { $0.first("failure")?.attributes["type"] })
        #expect(failedRules == Set(diagnostics.filter { $0.severity == .error }.map(\.rule)))
        #expect(suite.attributes["failures"] == String(cases.filter { $0.first("failure") != nil }.count))
        let output = try #require(suite.first("system-out")).text
        for diagnostic in diagnostics where diagnostic.severity != .error {
            let place = try #require(diagnostic.location)
            #expect(
                output.contains("\(place): \(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.rule)]")
            )
        }
    }

    @Test func escapedTextReadsBackUnchanged() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        let suite = try #require(try LibXML2.parse(try reporter.render([awkward.report])).first("testsuite"))
        // The input path holds , : % & < > " ' and a newline.
        #expect(suite.attributes["name"] == awkward.input)
        #expect(suite.all("testcase").allSatisfy { $0.attributes["classname"] == awkward.input })
        let failureTexts = suite.all("testcase").compactMap { $0.first("failure")?.text }.joined(separator: "\n")
        for diagnostic in awkward.report.diagnostics where diagnostic.severity == .error {
            let place = try #require(diagnostic.location)
            #expect(failureTexts.contains("\(place): \(diagnostic.message)"), "\(failureTexts)")
        }
        let unreadable = try #require(awkward.report.diagnostics.first { $0.rule == "playlist-unreadable" })
        #expect(unreadable.message.contains(#"a&b<c>%,:"q".m3u8"#))
        let messages = suite.all("testcase").compactMap { $0.first("failure")?.attributes["message"] }
        #expect(messages.contains(unreadable.message))
    }

    @Test func charactersXMLCannotHoldBecomeReplacementCharacters() async throws {
        var report = try await ReportFixtures.sample("no-audio-only")
        report.diagnostics[0].message = "bell\u{7} nul\u{0} tab\t cr\r end"
        let xml = try reporter.render([report])
        let failure = try #require(
            try LibXML2.parse(xml).first("testsuite")?.all("testcase").compactMap { $0.first("failure") }.first)
        #expect(failure.attributes["message"] == "bell\u{FFFD} nul\u{FFFD} tab\t cr\r end")
    }

    @Test func severalErrorsShareTheCasesOneFailure() async throws {
        var report = try await ReportFixtures.sample("no-audio-only")
        var second = report.diagnostics[0]
        second.message = "a second finding"
        report.diagnostics.append(second)
        let suite = try #require(try LibXML2.parse(try reporter.render([report])).first("testsuite"))
        #expect(suite.attributes["failures"] == "1")
        let failure = try #require(suite.all("testcase").compactMap { $0.first("failure") }.first)
        #expect(failure.attributes["message"]?.hasPrefix("2 errors, the first: no audio-only variant") == true)
        #expect(failure.text.hasSuffix("\nSamples/no-audio-only/master.m3u8:1: a second finding"))
    }

    @Test func aFindingOfAnUnlistedRuleIsNotLost() async throws {
        var report = try await ReportFixtures.sample("no-audio-only")
        report.diagnostics[0].rule = "rule-from-elsewhere"
        let suite = try #require(try LibXML2.parse(try reporter.render([report])).first("testsuite"))
        let failing = suite.all("testcase").filter { $0.first("failure") != nil }
        #expect(failing.map { $0.attributes["name"] } == ["rule-from-elsewhere"])
    }

    @Test func timestampHasNoZone() {
        // 2026-11-21 10:00:00 UTC, as the schema's pattern wants it.
        #expect(JUnitReporter.timestamp(for: Date(timeIntervalSince1970: 1_795_255_200)) == "2026-11-21T10:00:00")
    }

    @Test func eachSuiteHasAnIdAndAPackage() async throws {
        let reports = [try await ReportFixtures.sample("no-audio-only"), try await ReportFixtures.sample("compliant")]
        let suites = try LibXML2.parse(try reporter.render(reports)).all("testsuite")
        #expect(suites.map { $0.attributes["id"] } == ["0", "1"])
        #expect(suites.map { $0.attributes["package"] } == reports.map(\.input))
        // The version once per document (xunitparser refuses a property name seen twice).
        #expect(
            suites.map { $0.first("properties")?.first("property")?.attributes["value"] } == [
                HLSCheckVersion.current, nil,
            ])
        #expect(suites.allSatisfy { $0.first("properties") != nil })
    }

    @Test func anUnreadableInputIsAFailingSuiteOfItsOwn() throws {
        let suite = try #require(try LibXML2.parse(try reporter.render([ReportFixtures.unreadable])).first("testsuite"))
        #expect(suite.attributes["name"] == "streams/gone.m3u8")
        #expect(suite.attributes["tests"] == "1" && suite.attributes["failures"] == "1")
        let failure = try #require(suite.first("testcase")?.first("failure"))
        #expect(suite.first("testcase")?.attributes["name"] == "input-unreadable")
        #expect(failure.attributes["message"] == "streams/gone.m3u8: no such file or folder")
        // Line 0 is the whole file: no "gone.m3u8:0:" place before the message.
        #expect(failure.text == "streams/gone.m3u8: no such file or folder")
        // Not even --fail-on never passes an input that was not checked.
        var never = ReportFixtures.unreadable
        never.failureThreshold = nil
        let neverSuite = try #require(try LibXML2.parse(try reporter.render([never])).first("testsuite"))
        #expect(neverSuite.attributes["failures"] == "1")
    }

    @Test func aWarningFailsItsCaseOnlyWhenTheThresholdIsWarning() async throws {
        var awkward = try await ReportFixtures.awkwardStream().report
        let warnings = awkward.diagnostics.filter { $0.severity == .warning }
        #expect(!warnings.isEmpty)
        awkward.failureThreshold = .warning
        let suite = try #require(try LibXML2.parse(try reporter.render([awkward])).first("testsuite"))
        let failedRules = Set(suite.all("testcase").compactMap { $0.first("failure")?.attributes["type"] })
        #expect(failedRules == Set(awkward.diagnostics.filter { $0.severity >= .warning }.map(\.rule)))
        // Only the note is left for the suite's output.
        let output = try #require(suite.first("system-out")).text
        #expect(!output.contains("warning:"))
        #expect(output.contains("note:"))

        awkward.failureThreshold = nil
        let never = try #require(try LibXML2.parse(try reporter.render([awkward])).first("testsuite"))
        #expect(never.attributes["failures"] == "0")
        #expect(never.all("testcase").allSatisfy { $0.first("failure") == nil })
        #expect(try #require(never.first("system-out")).text.contains("error:"))
    }

    @Test func aFindingOnAVariantsURILineLandsInThatVariantsCase() async throws {
        let awkward = try await ReportFixtures.awkwardStream()
        // playlist-unreadable is reported on line 5, the URI line of the second variant.
        let unreadable = try #require(awkward.report.diagnostics.first { $0.rule == "playlist-unreadable" })
        #expect(unreadable.location?.line == 5)
        let suite = try #require(try LibXML2.parse(try reporter.render([awkward.report])).first("testsuite"))
        let cases = suite.all("testcase").filter { $0.attributes["name"]?.hasPrefix("playlist-unreadable") == true }
        #expect(
            cases.map { $0.attributes["name"] } == [
                "playlist-unreadable: video/index.m3u8", #"playlist-unreadable: a&b<c>%,:"q".m3u8"#,
            ])
        #expect(cases.map { $0.first("failure") != nil } == [false, true])
        // The media playlist given directly is its own single variant.
        let media = try await Checker(configuration: CheckConfiguration(playlistOnly: true))
            .check(awkward.folder.path("\(ReportFixtures.awkwardFolder)/video/index.m3u8"))
        let mediaSuite = try #require(try LibXML2.parse(try reporter.render([media])).first("testsuite"))
        let exceeded = mediaSuite.all("testcase").filter {
            $0.attributes["name"]?.hasPrefix("target-duration-exceeded") == true
        }
        #expect(exceeded.count == 1)
        #expect(exceeded.first?.first("failure") != nil)
    }

    @Test func aPerVariantFindingAboutNoVariantGetsAStreamCase() async throws {
        var report = try await ReportFixtures.sample("no-audio-only")
        report.diagnostics = [
            Diagnostic(
                rule: "codecs-missing", severity: .error, message: "somewhere else",
                location: SourceLocation(uri: "Samples/other/x.m3u8", line: 3))
        ]
        let cases = try #require(try LibXML2.parse(try reporter.render([report])).first("testsuite")).all("testcase")
        let codecs = cases.filter { $0.attributes["name"]?.hasPrefix("codecs-missing") == true }
        #expect(
            codecs.map { $0.attributes["name"] } == [
                "codecs-missing", "codecs-missing: ../compliant/v0/index.m3u8",
                "codecs-missing: ../compliant/v1/index.m3u8",
            ])
        #expect(codecs.first?.first("failure")?.attributes["message"] == "somewhere else")
    }

    @Test func timesAreTheMeasuredOnes() async throws {
        var report = try await ReportFixtures.sample("no-audio-only")
        // The checker measured them for real.
        #expect((report.duration ?? 0) > 0)
        #expect(Set(report.ruleDurations.keys) == Set(report.checkedRules.map(\.id)))
        report.duration = 1.25
        report.ruleDurations = ["audio-only-variant-missing": 0.5, "codecs-missing": 0.5]
        let suite = try #require(try LibXML2.parse(try reporter.render([report])).first("testsuite"))
        #expect(suite.attributes["time"] == "1.250")
        let time = { (name: String) in suite.all("testcase").first { $0.attributes["name"] == name }?.attributes["time"]
        }
        #expect(time("audio-only-variant-missing") == "0.500")
        // A per-variant rule's time is shared among its variants' cases.
        #expect(time("codecs-missing: ../compliant/v0/index.m3u8") == "0.250")
        #expect(time("playlist-syntax") == "0.000")
        #expect(JUnitReporter.seconds(12.3456) == "12.346")
        #expect(JUnitReporter.seconds(.nan) == "0.000")
    }

    @Test func scopeComesFromTheRulesDescription() {
        #expect(RuleCatalogue.description(of: "audio-only-variant-missing")?.scope == .stream)
        #expect(RuleCatalogue.description(of: "artwork-missing")?.scope == .variant)
    }
}
