import Foundation
import HLSCheck
import HLSEmbedding
import TestSupport
import Testing

/// `hlscheck fix` on ladders the ffmpeg CLI writes: the edits the measurements prove, written
/// with embed's writer, and a check of the result that no longer reports what was fixed.
@Suite struct FixTests {
    static let apple = CheckConfiguration(profile: .appleIOS, file: nil)

    static func ladder() throws -> (folder: TemporaryFolder, multivariant: String) {
        let folder = try TemporaryFolder()
        return (folder, try makeFFmpegDefaultLadder(in: folder.path("ladder")))
    }

    static func fix(_ multivariant: String, _ destination: EmbedRequest.Destination?) async throws -> FixOutcome {
        try await PlaylistFixer(FixRequest(input: multivariant, destination: destination, configuration: apple)).run()
    }

    static func findings(_ multivariant: String) async throws -> [Diagnostic] {
        try await Checker(configuration: apple).check(multivariant).diagnostics.filter { !$0.suppressed }
    }

    /// Whether the catalogue has the rule: `fix` settles what some rules report whether or not
    /// they are there to report it (the edit rests on the measurement and the spec section).
    static func checks(_ rule: String) -> Bool {
        RuleCatalogue.descriptions.contains { $0.id == rule }
    }

    static func edit(_ path: String, _ change: (String) -> String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = change(text)
        precondition(changed != text, "the test's edit of \(path) changed nothing")
        try changed.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func ffmpegsDefaultLadderGetsWhatFFmpegLeavesOutAndNothingIsWrittenForADiff() async throws {
        let (folder, multivariant) = try Self.ladder()
        let before = try snapshot(folder.path("ladder"))
        let outcome = try await Self.fix(multivariant, nil)
        #expect(try snapshot(folder.path("ladder")) == before, "a diff writes nothing")
        let root = try #require(outcome.changed.first { $0.file.hasSuffix("master.m3u8") })
        let attributes = Set(
            root.fixes.compactMap { fix -> String? in
                if case .attribute(let name, _) = fix.change { return name } else { return nil }
            })
        #expect(
            attributes.isSuperset(of: ["BANDWIDTH", "AVERAGE-BANDWIDTH", "FRAME-RATE"]), "\(root.fixes.map(\.summary))")
        #expect(root.fixes.contains { $0.change == .insertLine("#EXT-X-INDEPENDENT-SEGMENTS") })
        #expect(root.fixes.contains { $0.change == .attribute(name: "FRAME-RATE", value: "25.000") })
        for media in ["stream_0.m3u8", "stream_1.m3u8"] {
            let changed = try #require(outcome.changed.first { $0.file.hasSuffix(media) })
            #expect(changed.fixes.map(\.change) == [.insertLine("#EXT-X-PLAYLIST-TYPE:VOD")])
            #expect(changed.unifiedDiff.contains("\n+#EXT-X-PLAYLIST-TYPE:VOD\n"), "\(changed.unifiedDiff)")
        }
        // Every BANDWIDTH written is at least the peak it was measured from.
        for fix in root.fixes where fix.rule.hasPrefix("bandwidth-") {
            guard case .attribute(_, let value) = fix.change, let written = Int(value) else { continue }
            #expect(written % 1000 == 0)
        }
    }

    @Test func fixingInPlaceLeavesNoFindingOfAFixableRuleAndASecondFixChangesNothing() async throws {
        let (folder, multivariant) = try Self.ladder()
        defer { withExtendedLifetime(folder) {} }
        let found = try await Self.findings(multivariant).map(\.rule)
        let rules = [
            "playlist-type-missing", "frame-rate-missing", "independent-segments-missing", "average-bandwidth-missing",
        ]
        #expect(found.contains("average-bandwidth-missing"), "\(found)")
        for rule in rules where Self.checks(rule) {
            #expect(found.contains(rule), "the ladder as ffmpeg writes it has \(rule): \(found)")
        }
        let outcome = try await Self.fix(multivariant, .inPlace)
        let verification = try #require(outcome.verification)
        let left = verification.diagnostics.filter { !$0.suppressed && FixPlan.fixableRules.contains($0.rule) }
        #expect(left.isEmpty, "\(left.map { "\($0.rule): \($0.message)" })")
        #expect(try await Self.findings(multivariant).filter { FixPlan.fixableRules.contains($0.rule) }.isEmpty)
        let again = try await Self.fix(multivariant, nil)
        #expect(again.changed.isEmpty, "\(again.changed.flatMap(\.fixes).map(\.summary))")
    }

    /// One ladder spoiled in one way per fixable rule: the check reports the rule before, not after.
    struct Spoiled: Sendable, CustomTestStringConvertible {
        var rule: String
        var file: String
        var from: String
        var to: String
        var testDescription: String { rule }
    }

    static let spoiled: [Spoiled] = [
        Spoiled(
            rule: "codecs-mismatch", file: "master.m3u8", from: "CODECS=\"avc1.64001e,mp4a.40.2\"",
            to: "CODECS=\"avc1.64001e,ac-3\""),
        Spoiled(rule: "codecs-missing", file: "master.m3u8", from: ",CODECS=\"avc1.64001e,mp4a.40.2\"", to: ""),
        Spoiled(
            rule: "resolution-mismatch", file: "master.m3u8", from: "RESOLUTION=640x360", to: "RESOLUTION=1280x720"),
        Spoiled(rule: "resolution-missing", file: "master.m3u8", from: "RESOLUTION=640x360,", to: ""),
        Spoiled(
            rule: "bandwidth-above-peak", file: "master.m3u8", from: "#EXT-X-STREAM-INF:BANDWIDTH=",
            to: "#EXT-X-STREAM-INF:BANDWIDTH=9"),
        Spoiled(
            rule: "target-duration-exceeded", file: "stream_0.m3u8", from: "#EXT-X-TARGETDURATION:2",
            to: "#EXT-X-TARGETDURATION:1"),
        Spoiled(
            rule: "extinf-duration-mismatch", file: "stream_1.m3u8", from: "#EXTINF:2.000000,", to: "#EXTINF:1.000000,"),
        Spoiled(rule: "version-too-low", file: "stream_0.m3u8", from: "#EXT-X-VERSION:3", to: "#EXT-X-VERSION:2"),
        Spoiled(
            rule: "frame-rate-mismatch", file: "master.m3u8", from: "RESOLUTION=640x360",
            to: "RESOLUTION=640x360,FRAME-RATE=50.000"),
        Spoiled(
            rule: "average-bandwidth-mismatch", file: "master.m3u8", from: "RESOLUTION=640x360",
            to: "AVERAGE-BANDWIDTH=20000,RESOLUTION=640x360"),
    ]

    @Test(arguments: spoiled)
    func aFixedLadderNoLongerHasTheFinding(_ spoiled: Spoiled) async throws {
        let (folder, multivariant) = try Self.ladder()
        try Self.edit(folder.path("ladder/" + spoiled.file)) {
            $0.replacingOccurrences(of: spoiled.from, with: spoiled.to)
        }
        if Self.checks(spoiled.rule) {
            let before = try await Self.findings(multivariant)
            #expect(
                before.contains { $0.rule == spoiled.rule },
                "the spoiled ladder has \(spoiled.rule): \(before.map(\.rule))")
        }
        let outcome = try await Self.fix(multivariant, .folder(folder.path("fixed")))
        #expect(outcome.changed.flatMap(\.fixes).contains { $0.rule == spoiled.rule })
        let after = try #require(outcome.verification).diagnostics.filter { !$0.suppressed }
        #expect(
            !after.contains { $0.rule == spoiled.rule }, "\(after.filter { $0.rule == spoiled.rule }.map(\.message))")
        // Settled: measured again, the copy needs no edit of that rule.
        let again = try await Self.fix(folder.path("fixed/master.m3u8"), nil)
        #expect(!again.changed.flatMap(\.fixes).contains { $0.rule == spoiled.rule })
        // The input stays as it was: the copy holds the fix.
        #expect(
            try String(contentsOfFile: folder.path("ladder/" + spoiled.file), encoding: .utf8).contains(
                spoiled.to.isEmpty ? "stream_0.m3u8" : spoiled.to))
    }

    @Test func everyByteNotFixedStays() async throws {
        let (folder, multivariant) = try Self.ladder()
        defer { withExtendedLifetime(folder) {} }
        // CRLF line endings, a comment, a suppression directive and an attribute order ffmpeg
        // does not write: all kept.
        try Self.edit(multivariant) { text in
            text.replacingOccurrences(
                of: "#EXT-X-VERSION:3\n",
                with: "#EXT-X-VERSION:3\n# made by ffmpeg\n# hlscheck-disable-next-line resolution-missing\n"
            )
            .replacingOccurrences(of: "BANDWIDTH=", with: "HDCP-LEVEL=NONE,BANDWIDTH=")
            .replacingOccurrences(of: "\n", with: "\r\n")
        }
        let original = try String(contentsOfFile: multivariant, encoding: .utf8)
        let outcome = try await Self.fix(multivariant, .inPlace)
        let root = try #require(outcome.changed.first { $0.file.hasSuffix("master.m3u8") })
        let fixed = try String(contentsOfFile: multivariant, encoding: .utf8)
        // In bytes: Swift reads CR LF as one Character.
        let bytes = Array(fixed.utf8)
        let lineFeeds = bytes.indices.filter { bytes[$0] == 0x0A }
        #expect(
            !lineFeeds.isEmpty && lineFeeds.allSatisfy { $0 > 0 && bytes[$0 - 1] == 0x0D }, "every line ends in CRLF")
        let edited = Set(root.fixes.map(\.line))
        let oldLines = original.components(separatedBy: "\r\n")
        let newLines = fixed.components(separatedBy: "\r\n").filter { !$0.hasPrefix("#EXT-X-INDEPENDENT-SEGMENTS") }
        #expect(oldLines.count == newLines.count)
        for (index, (old, new)) in zip(oldLines, newLines).enumerated() where !edited.contains(index + 1) {
            #expect(old == new)
        }
        for (index, old) in oldLines.enumerated() where old.hasPrefix("#EXT-X-STREAM-INF") {
            #expect(
                newLines[index].hasPrefix(old.prefix { $0 != "," } + ","), "attribute order kept: \(newLines[index])")
        }
    }

    @Test func refusesToFixALiveStreamInPlaceAndChangesNothing() async throws {
        let (folder, multivariant) = try Self.ladder()
        try Self.edit(folder.path("ladder/stream_1.m3u8")) { $0.replacingOccurrences(of: "#EXT-X-ENDLIST\n", with: "") }
        let before = try snapshot(folder.path("ladder"))
        await #expect(throws: EmbedError.self) { _ = try await Self.fix(multivariant, .inPlace) }
        #expect(try snapshot(folder.path("ladder")) == before)
        let copy = try await Self.fix(multivariant, .folder(folder.path("copy")))
        #expect(copy.output != nil, "a live stream can still be fixed into a copy")
    }
}

/// The outside ladders of ../shared/corpus whose segments are there: `fix --output` on each, and
/// the check of the copy reports nothing the fix claimed to settle. Skipped without the corpus.
@Suite struct CorpusFixRoundTripTests {
    struct Entry: Decodable { var corpus_path: String; var kind: String }

    /// Playlists whose own segments, or whose media playlists' segments, exist beside them.
    static let streamsWithMedia: [String] = {
        guard let corpus = PackageRoot.corpus,
            let data = try? Data(contentsOf: corpus.appendingPathComponent("index.json")),
            let entries = try? JSONDecoder().decode([Entry].self, from: data)
        else { return [] }
        func references(_ path: String) -> [String] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
            let base = (path as NSString).deletingLastPathComponent
            return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") && !$0.contains("://") }
                .map { ((base as NSString).appendingPathComponent($0) as NSString).standardizingPath }
        }
        func hasMedia(_ path: String) -> Bool {
            references(path).contains { reference in
                reference.hasSuffix(".m3u8")
                    ? references(reference).contains {
                        FileManager.default.fileExists(atPath: $0) && !$0.hasSuffix(".m3u8")
                    }
                    : FileManager.default.fileExists(atPath: reference)
            }
        }
        return entries.filter { $0.kind == "playlist" }.map { corpus.appendingPathComponent($0.corpus_path).path }
            .filter(hasMedia).sorted()
    }()

    @Test(.enabled(if: !streamsWithMedia.isEmpty, "shared corpus not present"), arguments: streamsWithMedia)
    func aFixedCopyHasNoFindingTheFixSettled(_ playlist: String) async throws {
        let folder = try TemporaryFolder()
        let configuration = CheckConfiguration(profile: .appleIOS, file: nil)
        let outcome = try await PlaylistFixer(
            FixRequest(input: playlist, destination: .folder(folder.path("fixed")), configuration: configuration)
        ).run()
        let settled = Set(outcome.changed.flatMap(\.fixes).map(\.rule))
        let verification = try #require(outcome.verification)
        let left = verification.diagnostics.filter { !$0.suppressed && settled.contains($0.rule) }
        #expect(left.isEmpty, "\(left.map { "\($0.rule): \($0.message)" })")
        let output = try #require(outcome.output)
        let again = try await PlaylistFixer(FixRequest(input: output, destination: nil, configuration: configuration))
            .run()
        #expect(
            again.changed.isEmpty,
            "fixing the copy again changes nothing: \(again.changed.flatMap(\.fixes).map(\.summary))")
    }
}
