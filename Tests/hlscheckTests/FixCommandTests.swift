import Foundation
import TestSupport
import Testing

/// `hlscheck fix` as a user runs it, on ffmpeg's default multivariant output.
@Suite struct FixCommandTests {
    /// The rules `fix` settles (FixPlan.fixableRules): after `fix --in-place` the check reports none.
    static let fixable: Set<String> = [
        "bandwidth-below-peak", "bandwidth-above-peak", "average-bandwidth-mismatch", "average-bandwidth-missing",
        "codecs-mismatch", "codecs-missing", "codecs-sample-entry-mismatch", "resolution-mismatch",
        "resolution-missing",
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
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let before = try snapshot(folder.path("ladder"))
        let result = try HLSCheckBinary.run(["fix", multivariant, "--diff"])
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
            let bandwidth = line.split(separator: ":", maxSplits: 1)[1].split(separator: ",").first {
                $0.hasPrefix("BANDWIDTH=")
            }
            #expect(bandwidth?.hasSuffix("000") == true, "\(line)")
        }
        #expect(
            result.stdout.contains("--- \(multivariant)\n+++ \(multivariant)\n@@ -1,"),
            "an absolute path as it is: \(result.stdout)")
        #expect(
            result.stderr.contains("playlist-type-missing") && result.stderr.contains("frame-rate-missing"),
            "\(result.stderr)")
    }

    @Test func inPlaceLeavesAppleIOSNothingFixableToReportAndAnotherDiffIsEmpty() throws {
        let folder = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let before = try HLSCheckBinary.run(["check", multivariant, "--profile", "apple-ios", "--format", "json"])
        #expect(try Self.rules(inJSON: before.stdout).contains("average-bandwidth-missing"))
        let fixed = try HLSCheckBinary.run(["fix", multivariant, "--in-place", "--profile", "apple-ios"])
        #expect(fixed.status != 2, "\(fixed.stderr)")
        #expect(fixed.stdout.contains("fixed ") && fixed.stdout.contains("wrote "), "\(fixed.stdout)")
        let after = try HLSCheckBinary.run(["check", multivariant, "--profile", "apple-ios", "--format", "json"])
        let left = try Self.rules(inJSON: after.stdout).filter(Self.fixable.contains)
        #expect(left.isEmpty, "\(left)")
        let again = try HLSCheckBinary.run(["fix", multivariant, "--diff"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)")
        // In place a second time: nothing to fix, and nothing said to be written.
        let inPlaceAgain = try HLSCheckBinary.run(["fix", multivariant, "--in-place", "--profile", "apple-ios"])
        #expect(
            inPlaceAgain.stdout.contains("nothing to fix") && !inPlaceAgain.stdout.contains("wrote "),
            "\(inPlaceAgain.stdout)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("ladder")).filter {
            $0.contains("hlscheck")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func checkWithFixFixesFirstAndReportsWhatIsLeft() throws {
        let folder = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let result = try HLSCheckBinary.run([
            "check", multivariant, "--fix", "--profile", "apple-ios", "--format", "json",
        ])
        #expect(result.status != 2, "\(result.stderr)")
        #expect(
            result.stderr.contains("hlscheck: fixed ") && result.stderr.contains("average-bandwidth-missing"),
            "\(result.stderr)")
        let left = try Self.rules(inJSON: result.stdout).filter(Self.fixable.contains)
        #expect(left.isEmpty, "\(left)")
        let written = try String(contentsOfFile: multivariant, encoding: .utf8)
        #expect(
            written.contains("FRAME-RATE=25.000") && written.contains("#EXT-X-INDEPENDENT-SEGMENTS\n"), "\(written)")
        let refused = try HLSCheckBinary.run(["check", multivariant, "--fix", "--playlist-only"])
        #expect(refused.status == 64, "\(refused.stderr)")
    }

    static let hasPatch = FileManager.default.isExecutableFile(atPath: "/usr/bin/patch")

    /// The diff is the edit: patch(1) applied to the stream gives the bytes `--output` writes.
    @Test(.enabled(if: hasPatch, "needs patch(1)"))
    func theDiffAppliedWithPatchGivesWhatOutputWrites() throws {
        let folder = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        // Run where a CI job runs it, in the repository: relative paths, patch -p1 from there.
        let diff = try HLSCheckBinary.run(["fix", "ladder/master.m3u8", "--diff"], in: folder.url)
        #expect(diff.status == 1)
        #expect(diff.stdout.hasPrefix("--- a/ladder/master.m3u8\n+++ b/ladder/master.m3u8\n"), "\(diff.stdout)")
        let written = try HLSCheckBinary.run(["fix", multivariant, "--output", folder.path("fixed")])
        #expect(written.status != 2, "\(written.stderr)")
        try diff.stdout.write(toFile: folder.path("edits.diff"), atomically: true, encoding: .utf8)
        let patch = try ChildProcess.capture(
            ["patch", "-p1", "--batch", "--quiet", "-i", folder.path("edits.diff")], in: folder.url.path)
        #expect(patch.status == 0, "\(patch.output)")
        for playlist in ["master.m3u8", "stream_0.m3u8", "stream_1.m3u8"] {
            #expect(
                FileManager.default.contentsEqual(
                    atPath: folder.path("ladder/" + playlist), andPath: folder.path("fixed/" + playlist)), "\(playlist)"
            )
        }
    }

    /// `fix --in-place` on `input` with the debug build's step counter: the run, and how many
    /// write steps it took (the last "hlscheck: test: step N" line).
    static func countedFix(_ input: String) throws -> (outcome: CommandResult, steps: Int) {
        let outcome = try HLSCheckBinary.run(
            ["fix", input, "--in-place"], environment: ["HLSCHECK_TEST_COUNT_STEPS": "1"])
        let steps =
            outcome.stderr.split(separator: "\n").compactMap {
                $0.hasPrefix("hlscheck: test: step ") ? $0.split(separator: " ").last.flatMap { Int($0) } : nil
            }.max() ?? 0
        return (outcome, steps)
    }

    /// `fix --in-place` on `input`, killed (SIGKILL) by the debug build's hook at write step `step`.
    static func fixKilled(_ input: String, atStep step: Int) throws -> CommandResult {
        try HLSCheckBinary.run(["fix", input, "--in-place"], environment: ["HLSCHECK_TEST_KILL_AT_STEP": String(step)])
    }

    /// SIGKILL at every writing step of `fix --in-place`: each playlist is wholly old or new, the
    /// input playlist never new before its media playlists, and the next run finishes the job.
    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the kill hook is compiled into debug builds only"))
    func killedAtAnyStepLeavesEachPlaylistOldOrNewAndTheNextRunFinishes() throws {
        let reference = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: reference.path("ladder"))
        let old = try snapshot(reference.path("ladder"))
        try FileManager.default.copyItem(atPath: reference.path("ladder"), toPath: reference.path("counted"))
        let (counted, steps) = try FixCommandTests.countedFix(reference.path("counted/master.m3u8"))
        #expect(counted.status != 2, "\(counted.stderr)")
        let new = try snapshot(reference.path("counted"))
        #expect(steps > 5, "\(counted.stderr)")
        let playlists = ["stream_0.m3u8", "stream_1.m3u8", "master.m3u8"]
        #expect(playlists.allSatisfy { old[$0] != new[$0] })
        for step in 1...max(steps, 1) {
            let folder = try TemporaryFolder()
            try FileManager.default.copyItem(atPath: reference.path("ladder"), toPath: folder.path("ladder"))
            let input = folder.path("ladder/master.m3u8")
            let killed = try FixCommandTests.fixKilled(input, atStep: step)
            #expect(killed.killedBySignal, "step \(step): \(killed.stderr)")
            let after = try snapshot(folder.path("ladder"))
            for playlist in playlists {
                #expect(
                    after[playlist] == old[playlist] || after[playlist] == new[playlist],
                    "step \(step): \(playlist) is neither")
            }
            if after["master.m3u8"] == new["master.m3u8"] {
                #expect(
                    after["stream_0.m3u8"] == new["stream_0.m3u8"] && after["stream_1.m3u8"] == new["stream_1.m3u8"],
                    "step \(step): the input playlist came first")
            }
            let finished = try HLSCheckBinary.run(["fix", input, "--in-place"])
            #expect(finished.status != 2, "step \(step): \(finished.stderr)")
            let done = try snapshot(folder.path("ladder"))
            #expect(done.filter { $0.key.contains("hlscheck") }.isEmpty, "step \(step): \(done.keys.sorted())")
            for playlist in playlists { #expect(done[playlist] == new[playlist], "step \(step): \(playlist)") }
        }
        _ = multivariant
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
