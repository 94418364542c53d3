import Foundation
import HLSCheck
import TestSupport
import Testing

@Suite struct ConfigurationFileTests {
    @Test func isFoundFromThePlaylistFolderUpwards() throws {
        let tree = try TemporaryFolder([
            ".hlscheck.yml":
                "profile: apple-ios\nbudget-kbps: 48\nrules:\n  artwork-missing: off\n  codecs-missing: note\n",
            "streams/show/master.m3u8": "#EXTM3U\n",
        ])
        let file = try #require(try ConfigurationFile.discover(from: tree.path("streams/show")))
        #expect(file.path.hasSuffix("/.hlscheck.yml"))
        #expect(file.profile == .appleIOS)
        var configuration = CheckConfiguration()
        file.apply(to: &configuration)
        #expect(configuration.audioOnlyBudget == 48_000)
        let artwork = try #require(RuleCatalogue.description(of: "artwork-missing"))
        let codecs = try #require(RuleCatalogue.description(of: "codecs-missing"))
        #expect(configuration.severity(for: artwork) == nil)
        #expect(configuration.severity(for: codecs) == .note)
    }

    @Test func readsJSONToo() throws {
        let tree = try TemporaryFolder([".hlscheck.json": #"{"budget-kbps": 96, "ignore": ["old/**"]}"#])
        let file = try #require(try ConfigurationFile.discover(from: tree.url.path))
        #expect(file.budgetKbps == 96)
        #expect(file.ignore == ["old/**"])
    }

    @Test func readsYAMLAsYAML11DoesAnchorsAliasesQuotesAndFlowStyle() throws {
        let tree = try TemporaryFolder([
            ".hlscheck.yml": """
            # a comment, then the settings
            budget-kbps: 0x40            # 64, hexadecimal as YAML 1.1 reads it
            duration-tolerance: 1_000.5
            fail-on: 'warning'
            rules: &severities {artwork-missing: OFF, codecs-missing: "note"}
            ignore:
              - "legacy/**"
              - old/*.m3u8

            """
        ])
        let file = try ConfigurationFile.load(tree.path(".hlscheck.yml"))
        #expect(file.budgetKbps == 64)
        #expect(file.durationTolerance == 1000.5)
        #expect(file.failOn == "warning")
        #expect(file.rules["artwork-missing"] == .some(nil))
        #expect(file.rules["codecs-missing"] == .note)
        #expect(file.ignore == ["legacy/**", "old/*.m3u8"])
    }

    @Test(arguments: [
        ("budget: 64\n", ":1:1: unknown setting \"budget\""),
        ("rules:\n  no-such-rule: error\n", ":2:3: unknown rule \"no-such-rule\""),
        ("rules:\n  artwork-missing: loud\n", ":2:20: the severity of artwork-missing must be"),
        ("rules:\n  input-unreadable: off\n", ":2:3: input-unreadable cannot be changed"),
        ("profile: android\n", ":1:10: profile must be one of audio-only-64k"),
        ("budget-kbps: [\n", ":2:1: not valid YAML or JSON: while parsing a flow node"),
        ("rules: *defaults\n", ":1:8: not valid YAML or JSON: alias *defaults names no anchor before it"),
        ("profile: apple-ios\n---\nprofile: apple-tvos\n", ":2:1: not valid YAML or JSON: a second document"),
        (
            "ignore: " + String(repeating: "[", count: 100_000) + "\n",
            ":1:72: not valid YAML or JSON: nested more than 64 levels deep"
        ),
    ])
    func rejectsMistakesNamingFileLineAndColumn(_ yaml: String, _ expected: String) throws {
        let tree = try TemporaryFolder([".hlscheck.yml": yaml])
        #expect {
            _ = try ConfigurationFile.load(tree.path(".hlscheck.yml"))
        } throws: { error in
            "\(error)".contains(tree.path(".hlscheck.yml")) && "\(error)".contains(expected)
        }
    }
}

@Suite struct SuppressionTests {
    static let multivariant = """
        #EXTM3U
        # hlscheck-disable-next-line codecs-missing
        #EXT-X-STREAM-INF:BANDWIDTH=48000
        a.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=48000
        b.m3u8

        """

    @Test func excusesTheNamedRuleOnTheNextLineOnly() async throws {
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"
        let stream = try TemporaryFolder(["master.m3u8": Self.multivariant, "a.m3u8": media, "b.m3u8": media])
        let report = try await Checker(configuration: CheckConfiguration(playlistOnly: true)).check(
            stream.path("master.m3u8"))
        let codecs = report.diagnostics.filter { $0.rule == "codecs-missing" }
        #expect(codecs.count == 2)
        #expect(codecs.first { $0.location?.line == 3 }?.suppressed == true)
        #expect(codecs.first { $0.location?.line == 5 }?.suppressed == false)
        // Counted: only the one that is not excused.
        #expect(report.count(.warning) == 1)
        #expect(report.suppressedCount == 1)
    }

    /// A run of directives (and other comments) before one line: each excuses that line, and a
    /// long run costs no more than it is long (it used to be quadratic: 20 000 took 6.8 s).
    @Test(arguments: [3, 20_000])
    func aRunOfDirectivesExcusesTheFirstLineAfterIt(_ runLength: Int) async throws {
        var multivariant = "#EXTM3U\n"
        for index in 0..<runLength {
            multivariant += index == 1 ? "# an ordinary comment\n" : "# hlscheck-disable-next-line codecs-missing\n"
        }
        multivariant += "#EXT-X-STREAM-INF:BANDWIDTH=48000\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=48000\na.m3u8\n"
        let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"
        let stream = try TemporaryFolder(["master.m3u8": multivariant, "a.m3u8": media])
        let report = try await Checker(configuration: CheckConfiguration(playlistOnly: true)).check(
            stream.path("master.m3u8"))
        let codecs = report.diagnostics.filter { $0.rule == "codecs-missing" }
        let excusedLine = runLength + 2
        #expect(codecs.count == 2)
        #expect(codecs.first { $0.location?.line == excusedLine }?.suppressed == true)
        #expect(codecs.first { $0.location?.line == excusedLine + 2 }?.suppressed == false)
    }
}

@Suite struct ProfileTests {
    static func severity(_ rule: String, in profile: Profile) throws -> Severity? {
        var configuration = CheckConfiguration()
        profile.configure(&configuration)
        return configuration.severity(for: try #require(RuleCatalogue.description(of: rule)))
    }

    @Test func defaultProfileIsAboutTheAudioOnlyBudget() throws {
        #expect(try Self.severity("audio-only-variant-missing", in: .audioOnly64k) == .error)
        #expect(try Self.severity("artwork-over-budget", in: .audioOnly64k) == .error)
        #expect(try Self.severity("cellular-variant-missing", in: .audioOnly64k) == nil)
    }

    @Test func appleTVOSForbidsWhatTheDefaultRequires() throws {
        #expect(try Self.severity("audio-only-variant-present", in: .appleTVOS) == .error)
        #expect(try Self.severity("audio-only-variant-missing", in: .appleTVOS) == nil)
    }

    @Test func appleProfilesMakeTheAuthoringSpecificationsMustsErrors() throws {
        for rule in [
            "segment-starts-without-keyframe", "continuity-error", "average-bandwidth-mismatch", "bandwidth-above-peak",
        ] {
            #expect(try Self.severity(rule, in: .appleIOS) == .error, "\(rule)")
            #expect(try Self.severity(rule, in: .appleTVOS) == .error, "\(rule)")
            #expect(try Self.severity(rule, in: .audioOnly64k) != .error, "\(rule)")
        }
        for rule in ["segment-starts-without-keyframe", "continuity-error"] {
            #expect(try Self.severity(rule, in: .rfc8216) != .error, "\(rule)")
        }
        // bis-22 §4.4.6.2 makes BANDWIDTH and AVERAGE-BANDWIDTH the measured values: the profile
        // that follows it holds them there to the bit, as errors.
        for rule in ["average-bandwidth-mismatch", "bandwidth-above-peak"] {
            #expect(try Self.severity(rule, in: .rfc8216) == .error, "\(rule)")
        }
        // Items of Apple's specification that are SHOULDs, or none at all, do not change.
        #expect(try Self.severity("playlist-content-type", in: .appleIOS) == .warning)
        #expect(try Self.severity("resolution-mismatch", in: .appleIOS) == .warning)
        // An item amended for tvOS alone counts for apple-tvos alone.
        #expect(try Self.severity("audio-only-variant-present", in: .appleIOS) == nil)
    }

    @Test func appleIOSAsksForAverageBandwidthAndACellularVariant() throws {
        #expect(try Self.severity("average-bandwidth-missing", in: .appleIOS) == .error)
        #expect(try Self.severity("cellular-variant-missing", in: .appleIOS) == .error)
        #expect(try Self.severity("codecs-missing", in: .appleIOS) == .error)
    }

    @Test func rfc8216HasNoToleranceAndNoAppleRules() throws {
        var configuration = CheckConfiguration()
        Profile.rfc8216.configure(&configuration)
        #expect(configuration.bandwidthTolerance == 0)
        #expect(try Self.severity("audio-only-variant-missing", in: .rfc8216) == nil)
        #expect(try Self.severity("average-bandwidth-missing", in: .rfc8216) == nil)
        #expect(try Self.severity("target-duration-exceeded", in: .rfc8216) == .error)
        #expect(try Self.severity("resolution-missing", in: .rfc8216) == .warning)
    }

    @Test func tvOSProfileFlagsTheSampleAudioOnlyVariant() async throws {
        var configuration = CheckConfiguration(playlistOnly: true)
        Profile.appleTVOS.configure(&configuration)
        let report = try await Checker(configuration: configuration)
            .check(PackageRoot.url.appendingPathComponent("Samples/compliant/master.m3u8").path)
        #expect(report.diagnostics.map(\.rule).contains("audio-only-variant-present"))
        #expect(!report.diagnostics.map(\.rule).contains("audio-only-variant-missing"))
    }
}

@Suite struct StreamDiscoveryTests {
    static let multivariant = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n"
    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"

    @Test func findsUnreferencedPlaylistsNotTheMediaPlaylistsTheyReference() throws {
        let tree = try TemporaryFolder([
            "b/master.m3u8": Self.multivariant, "b/audio/index.m3u8": Self.media,
            "a/show.m3u8": Self.multivariant, "a/audio/index.m3u8": Self.media,
            "lone/index.m3u8": Self.media,
            ".git/ignored.m3u8": Self.multivariant,
        ])
        let found = try StreamDiscovery.inputs([tree.url.path])
        #expect(found == ["a/show.m3u8", "b/master.m3u8", "lone/index.m3u8"].map { tree.url.path + "/" + $0 })
    }

    @Test func honoursIgnorePatterns() throws {
        let tree = try TemporaryFolder(["old/x/master.m3u8": Self.multivariant, "new/master.m3u8": Self.multivariant])
        let ignore = IgnorePatterns(base: tree.url.path, patterns: ["old/**"])
        #expect(try StreamDiscovery.inputs([tree.url.path], ignore: ignore.matches) == [tree.path("new/master.m3u8")])
    }

    @Test func shardsPartitionTheInputsDeterministically() {
        let inputs = (1...10).map { "s\($0).m3u8" }
        let shards = (1...3).map { StreamDiscovery.shard(inputs, index: $0, count: 3) }
        #expect(shards.flatMap { $0 }.sorted() == inputs.sorted())
        #expect(Set(shards[0]).isDisjoint(with: shards[1]))
        #expect(shards[0] == StreamDiscovery.shard(inputs, index: 1, count: 3))
    }

    @Test func aMissingPathIsAnOperationalError() {
        #expect(throws: CheckError.self) { try StreamDiscovery.inputs(["/no/such/folder"]) }
    }
}
