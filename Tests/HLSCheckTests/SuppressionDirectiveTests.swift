import HLSCheck
import TestSupport
import Testing

/// `# hlscheck-disable` / `# hlscheck-enable` regions, `# hlscheck-disable-file`, and the
/// findings about directives themselves (suppression-unknown-rule, suppression-unused).
@Suite struct SuppressionDirectiveTests {
    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"
    /// A variant without CODECS: a codecs-missing warning at its EXT-X-STREAM-INF line.
    static let bare = "#EXT-X-STREAM-INF:BANDWIDTH=48000\na.m3u8\n"

    static func check(_ multivariant: String, playlistOnly: Bool = true) async throws -> CheckReport {
        let stream = try TemporaryFolder(["master.m3u8": multivariant, "a.m3u8": media])
        return try await Checker(configuration: CheckConfiguration(playlistOnly: playlistOnly)).check(
            stream.path("master.m3u8"))
    }

    static func lines(_ report: CheckReport, _ rule: String, suppressed: Bool? = nil) -> [Int] {
        report.diagnostics.filter { $0.rule == rule && (suppressed == nil || $0.suppressed == suppressed) }
            .compactMap { $0.location?.line }
    }

    @Test func aRegionExcusesTheLinesBetweenDisableAndEnableOnly() async throws {
        let report = try await Self.check(
            "#EXTM3U\n" + Self.bare + "# hlscheck-disable codecs-missing\n" + Self.bare + Self.bare
                + "# hlscheck-enable codecs-missing\n" + Self.bare)
        // Lines 2, 5, 7, 10 carry the variants; the region covers 5 and 7.
        #expect(Self.lines(report, "codecs-missing", suppressed: true) == [5, 7])
        #expect(Self.lines(report, "codecs-missing", suppressed: false) == [2, 10])
        #expect(report.count(.warning) == 2)
        #expect(Self.lines(report, "suppression-unused").isEmpty)
    }

    @Test func aRegionWithoutEnableRunsToTheEndOfTheFile() async throws {
        let report = try await Self.check(
            "#EXTM3U\n" + Self.bare + "# hlscheck-disable codecs-missing -- legacy packager\n" + Self.bare + Self.bare)
        #expect(Self.lines(report, "codecs-missing", suppressed: false) == [2])
        #expect(Self.lines(report, "codecs-missing", suppressed: true) == [5, 7])
        // The reason after " -- " is not read as a rule id.
        #expect(Self.lines(report, "suppression-unknown-rule").isEmpty)
    }

    @Test(arguments: [
        "# hlscheck-disable-file codecs-missing\n", "# hlscheck-disable-file all\n", "# hlscheck-disable-file\n",
    ])
    func aFileLevelDirectiveExcusesTheWholeFileWhereverItIs(_ directive: String) async throws {
        let report = try await Self.check("#EXTM3U\n" + Self.bare + Self.bare + directive)
        #expect(Self.lines(report, "codecs-missing", suppressed: true) == [2, 4])
        #expect(report.count(.warning) == 0)
    }

    @Test func anUnknownRuleIdIsAWarningAtTheDirective() async throws {
        let report = try await Self.check("#EXTM3U\n# hlscheck-disable-next-line codec-missing\n" + Self.bare)
        let unknown = report.diagnostics.filter { $0.rule == "suppression-unknown-rule" }
        #expect(unknown.count == 1)
        #expect(unknown.first?.location?.line == 2)
        #expect(unknown.first?.severity == .warning)
        #expect(unknown.first?.message.contains("\"codec-missing\"") == true)
        // The finding it was meant for still counts, and the directive is not also "unused".
        #expect(Self.lines(report, "codecs-missing", suppressed: false) == [3])
        #expect(Self.lines(report, "suppression-unused").isEmpty)
    }

    @Test func aMisspeltDirectiveIsReported() async throws {
        let report = try await Self.check("#EXTM3U\n# hlscheck-disable-nextline codecs-missing\n" + Self.bare)
        #expect(
            report.diagnostics.first { $0.rule == "suppression-unknown-rule" }?.message
                .contains("\"hlscheck-disable-nextline\" is not a hlscheck directive") == true)
    }

    @Test func aDirectiveThatExcusedNothingIsUnusedRuleByRule() async throws {
        // codecs-missing fires on line 3; playlist-syntax does not.
        let report = try await Self.check(
            "#EXTM3U\n# hlscheck-disable-next-line codecs-missing,playlist-syntax\n" + Self.bare)
        #expect(Self.lines(report, "codecs-missing", suppressed: true) == [3])
        let unused = report.diagnostics.filter { $0.rule == "suppression-unused" }
        #expect(unused.count == 1)
        #expect(unused.first?.location?.line == 2)
        #expect(unused.first?.message.contains("playlist-syntax") == true)
        #expect(unused.first?.message.contains("codecs-missing") == false)
    }

    @Test func anEnableThatEndsNoRegionIsUnused() async throws {
        let report = try await Self.check("#EXTM3U\n" + Self.bare + "# hlscheck-enable codecs-missing\n")
        #expect(Self.lines(report, "suppression-unused") == [4])
    }

    /// A rule that did not run (a media rule under --playlist-only) could not have been excused:
    /// its directive is not called unused.
    @Test func aDirectiveForARuleThatDidNotRunIsNotUnused() async throws {
        let report = try await Self.check("#EXTM3U\n# hlscheck-disable-next-line bandwidth-below-peak\n" + Self.bare)
        #expect(Self.lines(report, "suppression-unused").isEmpty)
    }

    @Test func directiveFindingsCanBeSwitchedOffAndExcused() async throws {
        let stream = try TemporaryFolder([
            "master.m3u8": "#EXTM3U\n# hlscheck-disable-next-line codec-missing\n" + Self.bare, "a.m3u8": Self.media,
        ])
        var configuration = CheckConfiguration(playlistOnly: true)
        configuration.severityOverrides["suppression-unknown-rule"] = .some(nil)
        let report = try await Checker(configuration: configuration).check(stream.path("master.m3u8"))
        #expect(!report.diagnostics.contains { $0.rule == "suppression-unknown-rule" })

        let excused = try await Self.check(
            "#EXTM3U\n# hlscheck-disable-file suppression-unknown-rule\n# hlscheck-disable-next-line codec-missing\n"
                + Self.bare)
        #expect(excused.diagnostics.first { $0.rule == "suppression-unknown-rule" }?.suppressed == true)
    }

    /// Regions and next-line directives in bulk: linear in directives and findings (a look-up per
    /// finding, a binary search over a rule's regions), so 40 000 directives are checked in one
    /// pass. Each region excuses the one variant inside it.
    @Test func fortyThousandDirectivesExcuseWhatTheyCover() async throws {
        var multivariant = "#EXTM3U\n"
        for index in 0..<10_000 {
            multivariant +=
                index.isMultiple(of: 2)
                ? "# hlscheck-disable codecs-missing\n" + Self.bare + "# hlscheck-enable codecs-missing\n"
                : "# hlscheck-disable-next-line codecs-missing\n# hlscheck-disable-next-line all\n" + Self.bare
        }
        multivariant += Self.bare
        let report = try await Self.check(multivariant)
        let codecs = report.diagnostics.filter { $0.rule == "codecs-missing" }
        #expect(codecs.count == 10_001)
        #expect(codecs.filter(\.suppressed).count == 10_000)
        #expect(report.count(.warning) == 1)
        #expect(!report.diagnostics.contains { $0.rule == "suppression-unused" })
    }
}
