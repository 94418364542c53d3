import Foundation
import TestSupport
import Testing

/// What a newcomer reads first: `--help`, the suggestion after a wrong option, the rule
/// catalogue and a rule's explanation.
@Suite struct HelpAndRulesTests {
    @Test func aShortenedOptionSuggestsTheOptionItBegins() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--budget", "48"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("Unknown option '--budget'. Did you mean '--budget-kbps'?"), "\(result.stderr)")
        #expect(result.stderr.contains("hlscheck check --help"))
        // Too far from any option by edit distance for swift-argument-parser to suggest one.
        let inspect = try HLSCheckBinary.run(["inspect", "--max-id3", "5", "Samples/compliant/audio/seg0.ts"])
        #expect(inspect.status == 64)
        #expect(
            inspect.stderr.contains("Unknown option '--max-id3'. Did you mean '--max-id3-bytes'?"), "\(inspect.stderr)")
    }

    @Test(arguments: [["--sample", "3"], ["--live-duration", "60s"]])
    func inspectRefusesWhatOnlyCheckDoes(_ option: [String]) throws {
        let result = try HLSCheckBinary.run(["inspect", "Samples/compliant/audio/seg0.ts"] + option)
        #expect(result.status == 64, "\(result.stdout)")
        #expect(result.stderr.contains("Unknown option '\(option[0])'"), "\(result.stderr)")
        #expect(!(try HLSCheckBinary.run(["inspect", "--help"]).stdout.contains(option[0])))
        #expect(try HLSCheckBinary.run(["check", "--help"]).stdout.contains(option[0]))
    }

    @Test(arguments: ["check", "embed", "inspect", "artwork", "rules"])
    func helpGivesEachDefaultOnce(_ command: String) throws {
        let help = try HLSCheckBinary.run([command, "--help"]).stdout
        // Help wraps lines: compare the text with its line breaks and indents folded into spaces.
        let folded = help.replacing(/\n\s+/, with: " ")
        #expect(folded.firstMatch(of: /\(default[^)]*\)\.? \(default/) == nil, "\(help)")
    }

    @Test func embedHelpListsTheImageAndTheOutputBeforeTheLimits() throws {
        let help = try HLSCheckBinary.run(["embed", "--help"]).stdout
        let image = try #require(help.range(of: "--image"))
        let output = try #require(help.range(of: "--output <"))
        let limits = try #require(help.range(of: "--max-playlist-bytes"))
        #expect(image.lowerBound < limits.lowerBound && output.lowerBound < limits.lowerBound, "\(help)")
        #expect(help.contains("(default: 64)"))
    }

    @Test func oneVariantOverTheBudgetExceedsIt() throws {
        let result = try HLSCheckBinary.run(["Samples/compliant/master.m3u8", "--playlist-only", "--budget-kbps", "40"])
        #expect(result.stdout.contains("audio/index.m3u8 (47 kbit/s) exceeds it"), "\(result.stdout)")
    }

    @Test func theCatalogueListsInputUnreadableAndHowToExplainARule() throws {
        let result = try HLSCheckBinary.run(["rules"])
        #expect(result.status == 0)
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("input-unreadable ") })
        #expect(line.contains("error") && line.contains("An input could not be checked"))
        #expect(result.stdout.hasSuffix("\nExplain a rule in full: hlscheck rules RULE-ID\n"))
        #expect(!result.stdout.contains("https://"))
    }

    @Test func rulesExplainsARuleInTheTerminal() throws {
        let result = try HLSCheckBinary.run(["rules", "audio-only-over-budget"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("audio-only-over-budget: ") == true, "\(result.stdout)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "wrapped for an 80-column terminal: \(result.stdout)")
        let text = result.stdout.replacing("\n", with: " ")
        #expect(text.contains("Severity: error in profile audio-only-64k"), "\(result.stdout)")
        #expect(text.contains("Runs with --playlist-only too."))
        let measured = try HLSCheckBinary.run(["rules", "artwork-over-budget"]).stdout.replacing("\n", with: " ")
        #expect(measured.contains("Reads segments: silent with --playlist-only."), "\(measured)")
        #expect(text.contains("# hlscheck-disable-next-line audio-only-over-budget"))
        #expect(text.contains("Reported for: "))
        // No page configured, so no link.
        #expect(!result.stdout.contains("Documentation:"))
        let unreadable = try HLSCheckBinary.run(["rules", "input-unreadable"])
        #expect(unreadable.stdout.hasPrefix("input-unreadable: Input could not be checked"), "\(unreadable.stdout)")
        #expect(unreadable.stdout.replacing("\n", with: " ").contains("No setting changes it"), "\(unreadable.stdout)")
    }

    @Test func anUnknownRuleIdIsAUsageErrorWithTheNearestId() throws {
        let result = try HLSCheckBinary.run(["rules", "audio-only-over-budjet"])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("no rule \"audio-only-over-budjet\"; did you mean audio-only-over-budget?"),
            "\(result.stderr)")
    }

    @Test func aConfiguredDocumentationURLLinksTheRules() throws {
        let folder = try TemporaryFolder([
            ".hlscheck.yml": "documentation-url: https://docs.example/hlscheck/rules.html\n"
        ])
        let sample = PackageRoot.url.appendingPathComponent("Samples/no-audio-only").path
        try FileManager.default.copyItem(atPath: sample, toPath: folder.path("stream"))
        let sarif = try HLSCheckBinary.run(
            ["stream/master.m3u8", "--playlist-only", "--format", "sarif"], in: folder.url)
        #expect(
            sarif.stdout.contains(
                "\"helpUri\" : \"https://docs.example/hlscheck/rules.html#audio-only-variant-missing\""),
            "\(sarif.stdout.prefix(2000))")
        let explained = try HLSCheckBinary.run(["rules", "codecs-missing"], in: folder.url)
        #expect(
            explained.stdout.hasSuffix("\nDocumentation: https://docs.example/hlscheck/rules.html#codecs-missing\n"),
            "\(explained.stdout)")
        let broken = try TemporaryFolder([
            ".hlscheck.yml": "documentation-url: docs/rules.md\n", "master.m3u8": "#EXTM3U\n",
        ])
        let refused = try HLSCheckBinary.run(["master.m3u8"], in: broken.url)
        #expect(refused.status == 2)
        #expect(refused.stdout.contains("documentation-url must be the http(s) address"), "\(refused.stdout)")
    }
}
