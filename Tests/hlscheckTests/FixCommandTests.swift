import Foundation
import TestSupport
import Testing

/// `hlscheck fix` as a user runs it, on ffmpeg's default multivariant output.
@Suite struct FixCommandTests {
    /// The rules `fix` settles (FixPlan.fixableRules): after `fix --in-place` the check reports none.
    static let fixable: Set<String> = [
        "bandwidth-below-peak", "bandwidth-above-peak", "average-bandwidth-mismatch", "average-bandwidth-missing",
        "codecs-mismatch", "codecs-missing", "codecs-sample-entry-mismatch", "resolution-mismatch", "resolution-missing",
        "frame-rate-missing", "frame-rate-mismatch", "playlist-type-missing", "independent-segments-missing",
        "target-duration-exceeded", "version-too-low", "extinf-duration-mismatch",
    ]

    static func rules(inJSON text: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        return diagnostics.filter { ($0["suppressed"] as? Bool) != true }.compactMap { $0["rule"] as? String }
    }

    @Test func diffShowsWhatFFmpegLeavesOutExitsOneAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let master = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let before = try snapshot(folder.path("ladder"))
        let result = try HLSCheckBinary.run(["fix", master, "--diff"])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(try snapshot(folder.path("ladder")) == before)
        let added = result.stdout.split(separator: "\n").filter { $0.hasPrefix("+") && !$0.hasPrefix("+++") }
        #expect(added.contains("+#EXT-X-INDEPENDENT-SEGMENTS"), "\(result.stdout)")
        #expect(added.filter { $0 == "+#EXT-X-PLAYLIST-TYPE:VOD" }.count == 2, "one per media playlist")
        let variants = added.filter { $0.hasPrefix("+#EXT-X-STREAM-INF:") }
        #expect(variants.count == 2)
        for line in variants {
            #expect(line.contains("FRAME-RATE=25.000") && line.contains(",AVERAGE-BANDWIDTH="), "\(line)")
            // ffmpeg's BANDWIDTH is under the measured peak: fix raises it to a multiple of 1 000.
            let bandwidth = line.split(separator: ":", maxSplits: 1)[1].split(separator: ",").first { $0.hasPrefix("BANDWIDTH=") }
            #expect(bandwidth?.hasSuffix("000") == true, "\(line)")
        }
        #expect(result.stdout.contains("--- a/") && result.stdout.contains("@@ -1,"), "\(result.stdout)")
        #expect(result.stderr.contains("playlist-type-missing") && result.stderr.contains("frame-rate-missing"), "\(result.stderr)")
    }

    @Test func inPlaceLeavesAppleIOSNothingFixableToReportAndAnotherDiffIsEmpty() throws {
        let folder = try TemporaryFolder()
        let master = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let before = try HLSCheckBinary.run(["check", master, "--profile", "apple-ios", "--format", "json"])
        #expect(try Self.rules(inJSON: before.stdout).contains("average-bandwidth-missing"))
        let fixed = try HLSCheckBinary.run(["fix", master, "--in-place", "--profile", "apple-ios"])
        #expect(fixed.status != 2, "\(fixed.stderr)")
        #expect(fixed.stdout.contains("fixed ") && fixed.stdout.contains("wrote "), "\(fixed.stdout)")
        let after = try HLSCheckBinary.run(["check", master, "--profile", "apple-ios", "--format", "json"])
        let left = try Self.rules(inJSON: after.stdout).filter(Self.fixable.contains)
        #expect(left.isEmpty, "\(left)")
        let again = try HLSCheckBinary.run(["fix", master, "--diff"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("ladder")).filter { $0.contains("hlscheck") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func checkWithFixFixesFirstAndReportsWhatIsLeft() throws {
        let folder = try TemporaryFolder()
        let master = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let result = try HLSCheckBinary.run(["check", master, "--fix", "--profile", "apple-ios", "--format", "json"])
        #expect(result.status != 2, "\(result.stderr)")
        #expect(result.stderr.contains("hlscheck: fixed ") && result.stderr.contains("average-bandwidth-missing"), "\(result.stderr)")
        let left = try Self.rules(inJSON: result.stdout).filter(Self.fixable.contains)
        #expect(left.isEmpty, "\(left)")
        let written = try String(contentsOfFile: master, encoding: .utf8)
        #expect(written.contains("FRAME-RATE=25.000") && written.contains("#EXT-X-INDEPENDENT-SEGMENTS\n"), "\(written)")
        let refused = try HLSCheckBinary.run(["check", master, "--fix", "--playlist-only"])
        #expect(refused.status == 64, "\(refused.stderr)")
    }

    @Test func fixNeedsExactlyOneOfDiffOutputAndInPlace() throws {
        let none = try HLSCheckBinary.run(["fix", "Samples/compliant/master.m3u8"])
        #expect(none.status == 64 && none.stderr.contains("--diff"), "\(none.stderr)")
        let two = try HLSCheckBinary.run(["fix", "Samples/compliant/master.m3u8", "--diff", "--in-place"])
        #expect(two.status == 64 && two.stderr.contains("exclude each other"), "\(two.stderr)")
        let remote = try HLSCheckBinary.run(["fix", "https://example.com/master.m3u8", "--diff"])
        #expect(remote.status == 64 && remote.stderr.contains("local streams only"), "\(remote.stderr)")
    }

    @Test func helpListsTheCommand() throws {
        let help = try HLSCheckBinary.run(["--help"])
        #expect(help.stdout.contains("fix") && help.stdout.contains("Rewrite what the media prove"), "\(help.stdout)")
    }
}
