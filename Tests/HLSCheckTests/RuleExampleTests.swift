import HLSCheck
import TestSupport
import Testing

/// One case per rule example: the triggering ones must produce the rule, the others must not.
struct RuleExampleCase: Sendable, CustomTestStringConvertible {
    var rule: String
    var example: RuleExample
    var shouldTrigger: Bool
    /// Media rules' examples are checked with their segments read.
    var needsMedia = false
    /// A profile example runs under that profile's defaults.
    var profile: Profile?

    var testDescription: String {
        "\(rule) \(shouldTrigger ? "fires on" : "stays silent on") \(example.name)\(profile.map { " (\($0.rawValue))" } ?? "")"
    }

    static let all: [RuleExampleCase] = RuleCatalogue.descriptions.flatMap { rule in
        rule.triggering.map {
            RuleExampleCase(rule: rule.id, example: $0, shouldTrigger: true, needsMedia: rule.needsMedia)
        }
            + rule.nonTriggering.map {
                RuleExampleCase(rule: rule.id, example: $0, shouldTrigger: false, needsMedia: rule.needsMedia)
            }
            + rule.profileExamples.map {
                RuleExampleCase(
                    rule: rule.id, example: $0.example, shouldTrigger: $0.triggers, needsMedia: rule.needsMedia,
                    profile: $0.profile)
            }
    }
}

@Test(arguments: RuleExampleCase.all)
func ruleExample(_ testCase: RuleExampleCase) async throws {
    let stream = try TemporaryFolder(testCase.example.files)
    // Examples test the rule itself, whatever the default profile does with it; profile
    // examples test what a profile makes of it.
    var configuration = CheckConfiguration(playlistOnly: !testCase.needsMedia)
    if let profile = testCase.profile {
        profile.configure(&configuration)
    } else {
        configuration.severityOverrides[testCase.rule] = RuleCatalogue.description(of: testCase.rule)?.defaultSeverity
    }
    let report = try await Checker(configuration: configuration).check(stream.path(testCase.example.entry))
    let fired = report.diagnostics.filter { $0.rule == testCase.rule }
    if testCase.shouldTrigger {
        #expect(!fired.isEmpty, "expected \(testCase.rule); got \(report.diagnostics)")
        for diagnostic in fired {
            #expect(diagnostic.location?.line ?? 0 > 0, "\(diagnostic) has no line")
            // Every report prints the location before the message (`v1/index.m3u8:4: error: …`):
            // a message that names its own file again says it twice.
            if let file = diagnostic.location?.uri {
                #expect(!diagnostic.message.contains(file), "\(diagnostic.message) repeats \(file)")
            }
        }
        if let expected = testCase.example.expected {
            #expect(
                fired.contains {
                    $0.location?.line == expected.line && $0.location?.column == expected.column
                        && $0.message.contains(expected.message)
                },
                "expected a finding at \(expected.line):\(expected.column) saying \"\(expected.message)\"; got \(fired.map { "\($0.location?.line ?? 0):\($0.location?.column ?? 0) \($0.message)" })"
            )
        }
    } else {
        #expect(fired.isEmpty, "unexpected: \(fired)")
    }
}

/// Every rule with a triggering example states, for one of them, the finding it must produce.
@Test func everyRuleStatesTheFindingOfATriggeringExample() {
    for rule in RuleCatalogue.descriptions {
        let examples = rule.triggering + rule.profileExamples.filter(\.triggers).map(\.example)
        guard !examples.isEmpty else { continue }
        #expect(
            examples.contains { $0.expected != nil },
            "\(rule.id): no triggering example states its finding (.expecting(line:column:_:))")
    }
}

@Test func everyRuleHasExamplesOfBothKinds() {
    // input-unreadable has no stream to show: `unreadableRootIsAnOperationalError` and the CLI's
    // exit-code tests trigger it.
    for rule in RuleCatalogue.descriptions where !rule.needsMedia && !rule.needsNetwork && rule.configurable {
        #expect(!rule.triggering.isEmpty, "\(rule.id) has no triggering example")
        #expect(!rule.nonTriggering.isEmpty, "\(rule.id) has no non-triggering example")
    }
}

/// The rules about hlscheck's own run or its confinement, which no specification asks for.
let rulesOfTheToolItself: Set<String> = [
    "suppression-unknown-rule", "suppression-unused", "segments-sampled", "delivery-retried", "tls-not-verified",
    "segment-encrypted", "uri-outside-root", "input-unreadable",
]

@Test func everyRuleNamesTheSpecItemsItEnforces() throws {
    // `bis-22 §4.4.6.3`, `RFC 8216 §3.4`, `AS 9.15`, `AS iOS 9.21`, `QA1767`, `ISO/IEC 13818-1 §2.4.3.3` …
    let reference = try Regex(
        #"^(bis-22 §\d+(\.\d+)*|RFC 8216 §\d+(\.\d+)*|AS (iOS |tvOS )?\d+\.\d+[a-z]?|QA1767|RFC 6381 §[\d.]+|ID3v2\.4 §[\d.]+|ISO/IEC [\d-]+ §[\d.]+)$"#
    )
    for rule in RuleCatalogue.descriptions {
        if rulesOfTheToolItself.contains(rule.id) {
            #expect(rule.specItems.isEmpty, "\(rule.id) is listed as the tool's own rule but names spec items")
            continue
        }
        #expect(!rule.specItems.isEmpty, "\(rule.id) names no spec item")
        for item in rule.specItems {
            #expect(item.reference.wholeMatch(of: reference) != nil, "\(rule.id): \(item.reference)")
            #expect(
                item.rfc8216.map { $0.hasPrefix("RFC 8216 §") && item.reference.hasPrefix("bis-22 ") } ?? true,
                "\(rule.id): \(item)")
            #expect(
                item.requirement.count >= 20 && item.requirement.count <= 220 && item.requirement.hasSuffix("."),
                "\(rule.id): a short sentence, not \(item.requirement)")
        }
        #expect(Set(rule.specItems).count == rule.specItems.count, "\(rule.id) names an item twice")
    }
}

@Test func ruleIdentifiersAreUniqueAndKebabCase() {
    let ids = RuleCatalogue.descriptions.map(\.id)
    #expect(Set(ids).count == ids.count)
    for id in ids {
        #expect(id.allSatisfy { $0.isLowercase || $0 == "-" }, "\(id) is not kebab-case")
    }
}

@Test func severityOverrideChangesAndSilencesRules() async throws {
    let stream = try TemporaryFolder(AudioOnlyVariantMissingRule.description.triggering[0].files)
    var configuration = CheckConfiguration(playlistOnly: true)
    configuration.severityOverrides["audio-only-variant-missing"] = .warning
    let downgraded = try await Checker(configuration: configuration).check(stream.path("master.m3u8"))
    #expect(downgraded.diagnostics.first { $0.rule == "audio-only-variant-missing" }?.severity == .warning)

    configuration.severityOverrides["audio-only-variant-missing"] = .some(nil)
    let silenced = try await Checker(configuration: configuration).check(stream.path("master.m3u8"))
    #expect(!silenced.diagnostics.contains { $0.rule == "audio-only-variant-missing" })
}

@Test func budgetIsConfigurable() async throws {
    let stream = try TemporaryFolder(AudioOnlyOverBudgetRule.description.triggering[0].files)
    let strict = try await Checker(configuration: CheckConfiguration(playlistOnly: true)).check(
        stream.path("master.m3u8"))
    #expect(strict.diagnostics.contains { $0.rule == "audio-only-over-budget" && $0.message.contains("96000") })
    let relaxed = try await Checker(configuration: CheckConfiguration(audioOnlyBudget: 128_000, playlistOnly: true))
        .check(stream.path("master.m3u8"))
    #expect(!relaxed.diagnostics.contains { $0.rule.hasPrefix("audio-only") })
}

@Test func unreadableRootIsAnOperationalError() async throws {
    let stream = try TemporaryFolder([:])
    await #expect(throws: CheckError.self) {
        try await Checker().check(stream.path("missing.m3u8"))
    }
}

@Test func unreadableVariantIsLocatedAtItsReferringLine() async throws {
    let stream = try TemporaryFolder([
        "master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio/missing.m3u8\n"
    ])
    let report = try await Checker(configuration: CheckConfiguration(playlistOnly: true)).check(
        stream.path("master.m3u8"))
    let diagnostic = try #require(report.diagnostics.first { $0.rule == "playlist-unreadable" })
    #expect(diagnostic.location?.uri == stream.path("master.m3u8"))
    #expect([2, 3].contains(diagnostic.location?.line ?? 0))
    #expect(diagnostic.message.contains("audio/missing.m3u8"))
}

@Test(arguments: [
    ("mp4a.40.2", CodecKind.audio), ("ac-3", .audio), ("ec-3", .audio), ("avc1.64001f", .video),
    ("hvc1.2.4.L123.B0", .video), ("wvtt", .text), ("xyz1", .unknown),
])
func classifiesCodecStrings(_ codec: String, _ kind: CodecKind) {
    #expect(CodecKind(codec: codec) == kind)
}

@Test(arguments: [(64_000, "64 kbit/s"), (1_234_567, "1.2 Mbit/s"), (9_450, "9.5 kbit/s")])
func formatsBitrates(_ bits: Int, _ text: String) {
    #expect(bits.formattedBitrate == text)
}

@Test(arguments: [
    (64_090, 64_000, "64.1 kbit/s"), (64_040, 64_000, "64 040 bit/s"), (64_000, 64_000, "64 kbit/s"),
    (96_000, 64_000, "96 kbit/s"), (63_960, 64_000, "63 960 bit/s"), (1_200_400, 1_200_000, "1 200 400 bit/s"),
])
func aBitrateNearItsLimitIsWrittenPreciselyEnoughToDiffer(_ bits: Int, _ limit: Int, _ text: String) {
    #expect(bits.formattedBitrate(beside: limit) == text)
}

@Test(arguments: [
    (1_000_500, "500 bit/s"), (1_000_001, "1 bit/s"), (1_010_000, "1 %"), (1_120_000, "12 %"),
    (999_000, "-1 000 bit/s"),
])
func aDifferenceBelowOnePercentIsGivenInBits(_ value: Int, _ text: String) {
    #expect(percent(value, of: 1_000_000) == text)
}
