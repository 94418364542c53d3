import Foundation
import TestSupport
import Testing

/// Values in `.hlscheck.yml` are held to the ranges of their flags where they enter: a value
/// out of range, of the wrong type or spelled as YAML's oddities allow stops the run with exit
/// code 2 and the file, line, column and the flag's own message — never a trap.
@Suite("Configuration values")
struct ConfigurationValueCommandTests {
    /// A compliant stream with `yaml` as its `.hlscheck.yml`, checked playlists only.
    static func check(_ yaml: String, _ arguments: [String] = []) async throws -> CommandResult {
        let folder = try TemporaryFolder([
            "master.m3u8":
                "#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\na.m3u8\n",
            "a.m3u8":
                "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n",
            ".hlscheck.yml": yaml,
        ])
        return try await HLSCheckBinary.run([folder.path("master.m3u8"), "--playlist-only"] + arguments)
    }

    static let budget = "budget-kbps must be between 1 and 1000000 (kbit/s), got "
    static let duration = "duration-tolerance must be between 0.0 and 1000000.0 (seconds)"
    static let bandwidth = "bandwidth-tolerance must be between 0.0 and 10.0 (a fraction: 0.1 is 10 %)"

    /// YAML, and the line, column and message its first refused value gets.
    static let refused: [(yaml: String, place: String, message: String)] = [
        // × 1 000 overflowed an Int and trapped before any stream was read.
        ("budget-kbps: 9223372036854776\n", "1:14", budget + "9223372036854776"),
        ("budget-kbps: 99999999999999999999999\n", "1:14", budget + "\"99999999999999999999999\""),
        ("budget-kbps: 2000000\n", "1:14", budget + "2000000"),
        ("budget-kbps: -64\n", "1:14", budget + "-64"),
        ("budget-kbps: 64.5\n", "1:14", budget + "\"64.5\""),
        ("budget-kbps: .inf\n", "1:14", "got \".inf\""),
        ("budget-kbps: [64]\n", "1:14", "got a list"),
        ("budget-kbps: {a: 1}\n", "1:14", "got a mapping"),
        ("budget-kbps: 0x7FFFFFFFFFFFFFFF\n", "1:14", "got 9223372036854775807"),
        ("budget-kbps: &big 9223372036854776\n", "1:", "got 9223372036854776"),
        ("duration-tolerance: &t 0.5\nbudget-kbps: *t\n", "1:", budget + "\"0.5\""),
        ("duration-tolerance: .inf\n", "1:21", duration + ", got inf"),
        ("duration-tolerance: 1e308\n", "1:21", duration),
        ("duration-tolerance: .nan\n", "1:21", duration + ", got nan"),
        ("duration-tolerance: -0.5\n", "1:21", "got -0.5"),
        ("bandwidth-tolerance: .nan\n", "1:22", bandwidth + ", got nan"),
        ("bandwidth-tolerance: -.inf\n", "1:22", "got -inf"),
        ("bandwidth-tolerance: yes\n", "1:22", "got \"yes\""),
        ("fail-on: [error]\n", "1:10", "fail-on must be error, warning or never"),
        ("profile: 64\n", "1:10", "profile must be one of"),
        ("ignore: legacy\n", "1:9", "ignore must be a list of glob patterns"),
        ("ignore: [[a]]\n", "1:9", "ignore must be a list of glob patterns"),
        ("documentation-url: \"https://x.example/\\u0007\"\n", "1:20", "documentation-url must be the http(s) address"),
        ("rules: [artwork-missing]\n", "1:8", "rules must map rule ids"),
        (
            "rules:\n  artwork-missing: 7\n", "2:20",
            "the severity of artwork-missing must be error, warning, note or off"
        ),
        (String(repeating: "[", count: 100) + "\n", "1:65", "nested more than 64 levels deep"),
        ("budget-kbps: *nowhere\n", "1:14", "alias *nowhere names no anchor before it"),
    ]

    @Test(arguments: refused.indices)
    func refusesAnOutOfRangeValueWithTheFlagsMessage(_ index: Int) async throws {
        let (yaml, place, message) = Self.refused[index]
        let result = try await Self.check(yaml)
        #expect(result.termination == .exited(2), "\(yaml): \(result.termination) \(result.stderr)")
        // The text report names the input that could not be checked, and why.
        #expect(result.stdout.contains(".hlscheck.yml:\(place)"), "\(yaml): \(result.stdout)")
        #expect(result.stdout.contains(message), "\(yaml): \(result.stdout)")
    }

    /// The flag and the key say the same about the same value.
    @Test func flagAndKeyShareOneRangeAndMessage() async throws {
        let fromFile = try await Self.check("budget-kbps: 1000001\n")
        let fromFlag = try await Self.check("", ["--budget-kbps", "1000001"])
        #expect(fromFlag.status == 64, "\(fromFlag.stderr)")
        #expect(fromFlag.stderr.contains("--" + Self.budget + "1000001"))
        #expect(fromFile.stdout.contains(Self.budget + "1000001"), "\(fromFile.stdout)")
    }

    /// Values at the ends of the ranges, and YAML's other spellings of them, are accepted.
    @Test(arguments: [
        "budget-kbps: 1000000\n", "budget-kbps: 0x40\n", "budget-kbps: 1_000\n", "duration-tolerance: 1000000\n",
        "bandwidth-tolerance: 10\n", "duration-tolerance: &t 1\nbudget-kbps: *t\n",
        "ignore: [\"**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/z\"]\n",
    ])
    func acceptsValuesWithinTheRanges(_ yaml: String) async throws {
        let result = try await Self.check(yaml)
        #expect(result.termination != .exited(2) && result.termination != .exited(64), "\(yaml): \(result.stderr)")
        #expect(!result.stdout.contains(".hlscheck.yml"), "\(yaml): \(result.stdout)")
    }

    /// `ignore:` patterns cost patterns × path components to match, however many `**` and `*`
    /// they hold: folder discovery of a stream twelve folders deep under a pattern of 24 `**`
    /// (tried split by split, billions of ways) and of a long name under one of 14 `*`.
    @Test func matchesIgnorePatternsInLinearSteps() async throws {
        let deep = (1...12).map { "d\($0)" }.joined(separator: "/")
        let long = String(repeating: "a", count: 200)
        let stream = [
            "#EXTM3U\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\na.m3u8\n",
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n",
        ]
        let doubleStars = Array(repeating: "**", count: 24).joined(separator: "/") + "/z"
        let stars = String(repeating: "*a", count: 14) + "*b"
        let folder = try TemporaryFolder([
            "\(deep)/master.m3u8": stream[0], "\(deep)/a.m3u8": stream[1],
            "\(long)/master.m3u8": stream[0], "\(long)/a.m3u8": stream[1],
            ".hlscheck.yml": "ignore:\n  - \"\(doubleStars)\"\n  - \"\(stars)/*.m3u8\"\n",
        ])
        let result = try await HLSCheckBinary.run(
            [folder.path(""), "--playlist-only", "--format", "json"], timeLimit: .seconds(60))
        #expect(!result.timedOut)
        // Neither pattern matches the streams: both multivariant playlists are checked.
        #expect(result.stdout.contains("\(deep)/master.m3u8"), "\(result.stderr)")
        #expect(result.stdout.contains("\(long)/master.m3u8"), "\(result.stderr)")
    }
}
