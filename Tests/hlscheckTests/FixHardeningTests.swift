import Foundation
import TestSupport
import Testing

/// `hlscheck fix` as hardened as the check: its diff names only the stream's playlists and shows
/// a terminal nothing it would act on; what it writes is a fixed point (a second run has nothing
/// to do); a run killed at any write step leaves nothing of hlscheck's once the next run is done.
@Suite struct FixHardeningTests {
    static let hasPatch = FileManager.default.isExecutableFile(atPath: "/usr/bin/patch")

    /// ffmpeg's default ladder (`makeFFmpegDefaultLadder`) with media playlist N and its segments
    /// moved into the folder `folders[N]` (created, nested where it holds a `/`), which the
    /// multivariant playlist names percent-encoded. Returns the multivariant playlist's path.
    static func ladder(in folder: String, folders: [String]) throws -> String {
        let multivariant = try makeFFmpegDefaultLadder(in: folder)
        var text = try String(contentsOfFile: multivariant, encoding: .utf8)
        let base = folder as NSString
        for (index, name) in folders.enumerated() {
            let playlist = "stream_\(index).m3u8"
            let target = base.appendingPathComponent(name) as NSString
            try FileManager.default.createDirectory(atPath: target as String, withIntermediateDirectories: true)
            let media = try String(contentsOfFile: base.appendingPathComponent(playlist), encoding: .utf8)
            let files = [playlist] + media.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
            for file in files {
                try FileManager.default.moveItem(
                    atPath: base.appendingPathComponent(file), toPath: target.appendingPathComponent(file))
            }
            let encoded = name.split(separator: "/", omittingEmptySubsequences: false).map {
                $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? String($0)
            }.joined(separator: "/")
            text = text.replacingOccurrences(of: "\n\(playlist)\n", with: "\n\(encoded)/\(playlist)\n")
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        return multivariant
    }

    /// Every file under `folder` whose name says it is hlscheck's (lock, journal, temporary file).
    static func hlscheckFiles(_ folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter {
            ($0 as NSString).lastPathComponent.contains("hlscheck")
        }.sorted()
    }

    // MARK: - The diff

    /// A folder whose name holds line breaks (the multivariant playlist names it with `%0A`,
    /// which hlscheck decodes) must not add header or hunk lines to `fix --diff`: piped into
    /// patch, the diff names the stream's three playlists and nothing else, and applied it
    /// creates no file.
    @Test(.enabled(if: hasPatch, "needs patch(1)"))
    func aFolderNameWithLineBreaksAddsNoFileToThePatch() throws {
        let folder = try TemporaryFolder()
        // Written raw into `--- a/…` and `+++ b/…`, this name makes a patch that creates `pwned`.
        let hostile = "v\n+++ b/pwned\n@@ -0,0 +1 @@\n+owned\n--- a"
        _ = try Self.ladder(in: folder.path("ladder"), folders: ["low", hostile])
        let diff = try HLSCheckBinary.run(["fix", "ladder/master.m3u8", "--diff"], in: folder.url)
        #expect(diff.status == 1, "\(diff.stderr)")
        let headers = diff.stdout.split(separator: "\n").filter { $0.hasPrefix("--- ") || $0.hasPrefix("+++ ") }
        #expect(headers.count == 6, "three playlists, two header lines each: \(headers)")
        #expect(
            headers.contains(#"+++ "b/ladder/v\n+++ b/pwned\n@@ -0,0 +1 @@\n+owned\n--- a/stream_1.m3u8""#),
            "quoted as git quotes it: \(headers)")
        try Data(diff.standardOutput).write(to: URL(fileURLWithPath: folder.path("edits.diff")))

        let dryRun = try ChildProcess.capture(
            ["patch", "-p1", "--batch", "--dry-run", "-i", folder.path("edits.diff")], in: folder.url.path)
        #expect(dryRun.status == 0, "\(dryRun.output)")
        // patch names each file it would change, quoted as a shell would when it holds a line break.
        let checked = Set(
            dryRun.stdout.components(separatedBy: "checking file ").dropFirst().map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(
                    in: CharacterSet(charactersIn: "'"))
            })
        #expect(
            checked == ["ladder/master.m3u8", "ladder/low/stream_0.m3u8", "ladder/\(hostile)/stream_1.m3u8"],
            "\(dryRun.stdout)")

        let before = Set(try snapshot(folder.path("ladder")).keys)
        let applied = try ChildProcess.capture(
            ["patch", "-p1", "--batch", "--quiet", "-i", folder.path("edits.diff")], in: folder.url.path)
        #expect(applied.status == 0, "\(applied.output)")
        #expect(Set(try snapshot(folder.path("ladder")).keys) == before, "patch created or removed a file")
        #expect(!FileManager.default.fileExists(atPath: folder.path("pwned")))
        // What patch wrote is what fix would write: nothing is left to change.
        let again = try HLSCheckBinary.run(["fix", "ladder/master.m3u8", "--diff"], in: folder.url)
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)\(again.stderr)")
    }

    /// A comment line holding terminal control sequences (an OSC title, a CSI colour): on a
    /// terminal `fix --diff` shows them escaped as `check` does; into a pipe the diff carries the
    /// playlist's bytes, so that patch applies it to them.
    @Test(.enabled(if: hasPatch, "needs patch(1)"))
    func controlSequencesAreEscapedOnATerminalAndKeptForPatch() throws {
        let folder = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let text = try String(contentsOfFile: multivariant, encoding: .utf8)
        let hostile = "# encoded by \u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mred"
        try Data(text.replacingOccurrences(of: "#EXTM3U\n", with: "#EXTM3U\n\(hostile)\n").utf8).write(
            to: URL(fileURLWithPath: multivariant))

        // script(1) gives the command a terminal for its standard output.
        let shown = try ChildProcess.capture(
            [
                "script", "-qec", "'\(HLSCheckBinary.executable)' fix ladder/master.m3u8 --diff 2>/dev/null",
                "/dev/null",
            ],
            in: folder.url.path)
        #expect(shown.stdout.contains("@@ -1,"), "\(shown.stdout)")
        #expect(!shown.standardOutput.contains(0x1B), "a raw ESC reached the terminal: \(shown.stdout)")
        #expect(shown.stdout.contains(#" # encoded by \x1b]0;owned\x07\x1b[2J\x1b[31mred"#), "\(shown.stdout)")

        let piped = try HLSCheckBinary.run(["fix", "ladder/master.m3u8", "--diff"], in: folder.url)
        #expect(piped.status == 1)
        #expect(piped.stdout.contains("\n \(hostile)\n"), "the context line carries the playlist's bytes")
        try Data(piped.standardOutput).write(to: URL(fileURLWithPath: folder.path("edits.diff")))
        let applied = try ChildProcess.capture(
            ["patch", "-p1", "--batch", "--quiet", "-i", folder.path("edits.diff")], in: folder.url.path)
        #expect(applied.status == 0, "\(applied.output)")
        #expect(try String(contentsOfFile: multivariant, encoding: .utf8).contains("\n\(hostile)\n"))
    }

    /// A playlist with CR LF line endings: `--diff` shows the same edits `--in-place` makes, as
    /// a diff that patch applies to the CR LF bytes, giving what `--output` writes.
    @Test(.enabled(if: hasPatch, "needs patch(1)"))
    func aCRLFPlaylistGetsTheDiffOfTheEditsOutputMakes() throws {
        let folder = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("ladder"))
        let playlists = ["master.m3u8", "stream_0.m3u8", "stream_1.m3u8"]
        for playlist in playlists {
            let path = folder.path("ladder/" + playlist)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).write(to: URL(fileURLWithPath: path))
        }
        let diff = try HLSCheckBinary.run(["fix", "ladder/master.m3u8", "--diff"], in: folder.url)
        #expect(diff.status == 1, "\(diff.stderr)")
        // By line feed, in bytes: a Swift String sees "\r\n" as one character.
        let added = diff.standardOutput.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }.filter {
            $0.hasPrefix("+") && !$0.hasPrefix("+++")
        }
        #expect(added.contains("+#EXT-X-PLAYLIST-TYPE:VOD\r"), "\(diff.stdout)")
        let written = try HLSCheckBinary.run(["fix", multivariant, "--output", folder.path("fixed")])
        #expect(written.status != 2, "\(written.stderr)")
        try Data(diff.standardOutput).write(to: URL(fileURLWithPath: folder.path("edits.diff")))
        let patch = try ChildProcess.capture(
            ["patch", "-p1", "--batch", "--quiet", "-i", folder.path("edits.diff")], in: folder.url.path)
        #expect(patch.status == 0, "\(patch.output)")
        for playlist in playlists {
            #expect(
                FileManager.default.contentsEqual(
                    atPath: folder.path("ladder/" + playlist), andPath: folder.path("fixed/" + playlist)),
                "\(playlist)")
        }
    }

    // MARK: - A fixed point

    /// The ffmpeg ladder with a finding of every rule `fix` settles but the fMP4 sample entry
    /// (`codecs-sample-entry-mismatch`, covered by the fMP4 ladder below): one EXTINF half its
    /// segment's length among them, so the bit rates must come from the corrected durations.
    static func ladderWithEveryFixableFinding(in folder: String) throws -> String {
        let multivariant = try makeFFmpegDefaultLadder(in: folder)
        func edit(_ name: String, _ change: (String) -> String) throws {
            let path = (folder as NSString).appendingPathComponent(name)
            try Data(change(try String(contentsOfFile: path, encoding: .utf8)).utf8).write(
                to: URL(fileURLWithPath: path))
        }
        try edit("master.m3u8") {
            $0.replacingOccurrences(
                of: #"BANDWIDTH=730400,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2""#,
                with:
                    #"BANDWIDTH=9000000,AVERAGE-BANDWIDTH=1000,RESOLUTION=1280x720,CODECS="avc1.42c01e,mp4a.40.5",FRAME-RATE=50.000"#
            ).replacingOccurrences(
                of: #"BANDWIDTH=290400,RESOLUTION=320x180,CODECS="avc1.64000c,mp4a.40.2""#, with: "BANDWIDTH=1000")
        }
        // Variant 0: above the peak, wrong average, resolution, codecs and frame rate; variant 1:
        // below the peak, without any of them.
        try edit("stream_0.m3u8") {
            // The first segment lasts 2 s: an EXTINF of 1 s doubles its bit rate.
            $0.replacingOccurrences(of: "#EXTINF:2.000000,\nstream_00.ts", with: "#EXTINF:1.000000,\nstream_00.ts")
        }
        try edit("stream_1.m3u8") {
            $0.replacingOccurrences(of: "#EXT-X-TARGETDURATION:2", with: "#EXT-X-TARGETDURATION:1")
                .replacingOccurrences(of: "#EXT-X-VERSION:3", with: "#EXT-X-VERSION:2")
        }
        return multivariant
    }

    /// One EXTINF of 1 s for a 2-second segment: `fix --in-place` corrects it and computes
    /// BANDWIDTH and AVERAGE-BANDWIDTH from the corrected duration, so the check of what it wrote
    /// finds nothing it settles, and a second `fix --diff` has nothing to change.
    @Test func fixingEveryFixableFindingIsAFixedPoint() throws {
        let folder = try TemporaryFolder()
        let multivariant = try Self.ladderWithEveryFixableFinding(in: folder.path("ladder"))
        let before = try HLSCheckBinary.run(["check", multivariant, "--profile", "apple-ios", "--format", "json"])
        let found = Set(try FixCommandTests.rules(inJSON: before.stdout))
        let expected = FixCommandTests.fixable.subtracting(["codecs-sample-entry-mismatch"])
        #expect(found.isSuperset(of: expected), "not provoked: \(expected.subtracting(found).sorted())")

        let fixed = try HLSCheckBinary.run(["fix", multivariant, "--in-place", "--profile", "apple-ios"])
        #expect(fixed.status != 2, "\(fixed.stderr)")
        let written = try String(contentsOfFile: multivariant, encoding: .utf8)
        let after = try HLSCheckBinary.run(["check", multivariant, "--profile", "apple-ios", "--format", "json"])
        let left = try FixCommandTests.rules(inJSON: after.stdout).filter(FixCommandTests.fixable.contains)
        #expect(left.isEmpty, "\(left)\n\(written)")
        let again = try HLSCheckBinary.run(["fix", multivariant, "--diff", "--profile", "apple-ios"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)\(again.stderr)")
        #expect(
            try String(contentsOfFile: folder.path("ladder/stream_0.m3u8"), encoding: .utf8).contains("#EXTINF:2.000,"))
    }

    /// H.265 in fMP4 at 25 frames per second, by ffmpeg and x265 (B-frames, so presentation and
    /// decode order differ): `fix` writes FRAME-RATE=25.000, the rate the timestamps give, and a
    /// second run changes nothing.
    @Test func anHEVCFragmentedMP4LadderAt25FramesASecondGetsFrameRate25() throws {
        let folder = try TemporaryFolder()
        let ladder = folder.path("ladder")
        try FileManager.default.createDirectory(atPath: ladder, withIntermediateDirectories: true)
        try ChildProcess.run(
            [
                "ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y",
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-t", "6",
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error:keyint=50:min-keyint=50",
                "-tag:v", "hvc1", "-b:v", "200k",
                "-f", "hls", "-hls_segment_type", "fmp4", "-hls_time", "2", "-master_pl_name", "master.m3u8",
                "index.m3u8",
            ], in: ladder)
        let multivariant = folder.path("ladder/master.m3u8")
        let diff = try HLSCheckBinary.run(["fix", multivariant, "--diff"])
        #expect(diff.status == 1, "\(diff.stderr)")
        let variant = diff.stdout.split(separator: "\n").first { $0.hasPrefix("+#EXT-X-STREAM-INF:") }
        #expect(variant?.contains("FRAME-RATE=25.000") == true, "\(diff.stdout)")
        let fixed = try HLSCheckBinary.run(["fix", multivariant, "--in-place"])
        #expect(fixed.status != 2, "\(fixed.stderr)")
        let again = try HLSCheckBinary.run(["fix", multivariant, "--diff"])
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again.stdout)\(again.stderr)")
    }

    // MARK: - Killed

    /// SIGKILL at every write step of `fix --in-place` on a stream whose media playlists live
    /// in folders of their own (each locked while it is rewritten): after the next run the stream
    /// holds the fixed playlists and nothing of hlscheck's — no lock, journal or temporary file
    /// in any folder, wherever the kill landed.
    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the kill hook is compiled into debug builds only"))
    func killedAtAnyStepInAMultiFolderStreamTheNextRunLeavesNothingOfHlscheck() throws {
        let reference = try TemporaryFolder()
        _ = try Self.ladder(in: reference.path("ladder"), folders: ["a", "b"])
        try FileManager.default.copyItem(atPath: reference.path("ladder"), toPath: reference.path("counted"))
        let (counted, steps) = try FixCommandTests.countedFix(reference.path("counted/master.m3u8"))
        #expect(counted.status != 2, "\(counted.stderr)")
        let new = try snapshot(reference.path("counted"))
        let playlists = ["master.m3u8", "a/stream_0.m3u8", "b/stream_1.m3u8"]
        let old = try snapshot(reference.path("ladder"))
        #expect(playlists.allSatisfy { old[$0] != new[$0] })
        #expect(steps > 5, "\(counted.stderr)")
        for step in 1...max(steps, 1) {
            let folder = try TemporaryFolder()
            try FileManager.default.copyItem(atPath: reference.path("ladder"), toPath: folder.path("ladder"))
            let input = folder.path("ladder/master.m3u8")
            let killed = try FixCommandTests.fixKilled(input, atStep: step)
            #expect(killed.killedBySignal, "step \(step): \(killed.stderr)")
            let finished = try HLSCheckBinary.run(["fix", input, "--in-place"])
            #expect(finished.status != 2, "step \(step): \(finished.stderr)")
            let leftovers = try Self.hlscheckFiles(folder.path("ladder"))
            #expect(leftovers.isEmpty, "step \(step): \(leftovers)")
            let done = try snapshot(folder.path("ladder"))
            for playlist in playlists { #expect(done[playlist] == new[playlist], "step \(step): \(playlist)") }
        }
    }
}
