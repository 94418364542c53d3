import Foundation
import TestSupport
import Testing

/// `hlscheck embed --add-audio-only` as users run it, on a copy of Samples/no-audio-only (which
/// refers to ../compliant).
@Suite struct AddAudioOnlyCommandTests {
    /// A private copy of the two samples and the poster; returns the multivariant playlist's path.
    static func sampleCopy(in folder: TemporaryFolder) throws -> String {
        let samples = PackageRoot.url.appendingPathComponent("Samples")
        for name in ["no-audio-only", "compliant", "poster.jpg"] {
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        return folder.path("no-audio-only/master.m3u8")
    }

    static func arguments(_ folder: TemporaryFolder, _ extra: [String] = []) -> [String] {
        [
            "--add-audio-only", "--image", folder.path("poster.jpg"), folder.path("no-audio-only/master.m3u8"),
            "--in-place", "--root", folder.path(""),
        ] + extra
    }

    @Test func addsTheVariantSaysTheArithmeticThenFindsItThenRemovesIt() throws {
        let folder = try TemporaryFolder()
        let multivariant = try Self.sampleCopy(in: folder)
        let original = try Data(contentsOf: URL(fileURLWithPath: multivariant))

        let added = try #require(try EmbedCommandTests.embed(Self.arguments(folder)))
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added the audio-only variant audio-only/index.m3u8 "), "\(added.stdout)")
        #expect(
            added.stdout.contains("\n  audio ")
                && added.stdout.contains(" kbit/s (AAC-LC, stereo, 44100 Hz; measured peak "), "\(added.stdout)")
        #expect(added.stdout.contains("\n  + poster 6449 bytes in every segment "))
        #expect(added.stdout.contains("within the 64.0 kbit/s budget"))
        #expect(added.stdout.contains("1 stream checked: 0 errors, 0 warnings, 0 notes"), "\(added.stdout)")

        // The same check, run on its own, agrees.
        let check = try HLSCheckBinary.run([multivariant, "--root", folder.path("")])
        #expect(check.status == 0, "\(check.stdout)")

        let again = try #require(try EmbedCommandTests.embed(Self.arguments(folder)))
        #expect(again.status == 0)
        #expect(
            again.stdout.contains("already has an audio-only variant that does its job: audio-only/index.m3u8 "),
            "\(again.stdout)")
        #expect(
            again.stdout.contains("within the 64.0 kbit/s budget, the poster in every segment; nothing was written"),
            "\(again.stdout)")

        let removed = try #require(
            try EmbedCommandTests.embed(
                ["--add-audio-only", "--remove", multivariant, "--in-place", "--root", folder.path("")]))
        // Exits like check: without the variant the stream fails again, and says why.
        #expect(removed.status == 1, "\(removed.stderr)")
        #expect(removed.stdout.contains("removed the audio-only variant audio-only/index.m3u8"), "\(removed.stdout)")
        #expect(removed.stdout.contains("[audio-only-variant-missing]"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: multivariant)) == original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("no-audio-only/audio-only")).isEmpty)
    }

    @Test func inPlaceRefusesALiveLadderItsEncoderIsStillWriting() throws {
        let folder = try TemporaryFolder()
        let multivariant = try Self.sampleCopy(in: folder)
        for variant in ["v0", "v1", "audio"] {
            let playlist = folder.path("compliant/\(variant)/index.m3u8")
            let live = try String(contentsOfFile: playlist, encoding: .utf8).replacingOccurrences(
                of: "#EXT-X-ENDLIST\n", with: "")
            try Data(live.utf8).write(to: URL(fileURLWithPath: playlist))
        }
        let before = try snapshot(folder.path(""))
        let result = try #require(try EmbedCommandTests.embed(Self.arguments(folder)))
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "index.m3u8 has no EXT-X-ENDLIST: a live stream whose encoder may still be writing it"),
            "\(result.stderr)")
        #expect(try snapshot(folder.path("")) == before, "nothing written: \(multivariant)")
    }

    @Test func audioOptionsWithoutAddAudioOnlyAreAUsageError() throws {
        let result = try #require(
            try EmbedCommandTests.embed(["--image", "poster.jpg", "--audio-bitrate", "48", "master.m3u8", "--in-place"])
        )
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("--audio-bitrate, --audio-from, --name and --replace go with --add-audio-only"),
            "\(result.stderr)")
    }

    /// Every URI the multivariant playlist and its media playlists name exists: a player sees a
    /// whole stream.
    static func missingReferences(_ multivariant: String) -> [String] {
        var missing: [String] = []
        var pending = [multivariant]
        while let playlist = pending.popLast() {
            guard let text = try? String(contentsOfFile: playlist, encoding: .utf8) else {
                missing.append(playlist)
                continue
            }
            let base = (playlist as NSString).deletingLastPathComponent
            for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.isEmpty {
                let path = (base as NSString).appendingPathComponent(String(line))
                if path.hasSuffix(".m3u8") {
                    pending.append(path)
                } else if !FileManager.default.fileExists(atPath: path) {
                    missing.append(path)
                }
            }
        }
        return missing
    }

    @Test(.enabled(if: HLSCheckBinary.hasWriteStepHook, "the write-step hook exists in debug builds only"))
    func killedAtAnyWritingStepTheStreamStaysWholeAndTheNextRunFinishesClean() throws {
        // How many steps a run takes, and the clean result.
        let reference = try TemporaryFolder()
        _ = try Self.sampleCopy(in: reference)
        let counted = try #require(
            try EmbedCommandTests.embed(Self.arguments(reference), environment: ["HLSCHECK_TEST_COUNT_STEPS": "1"]))
        #expect(counted.status == 0, "\(counted.stderr)")
        let steps =
            counted.stderr.split(separator: "\n").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.max()
            ?? 0
        #expect(steps > 10, "\(steps) steps")
        let clean = try FileManager.default.contentsOfDirectory(atPath: reference.path("no-audio-only/audio-only"))
            .sorted()

        var generator = SplitMix64(seed: 12)
        var chosen = Set([1, 2, steps - 1, steps])
        while chosen.count < 10 { chosen.insert(Int.random(in: 1...steps, using: &generator)) }
        for step in chosen.sorted() {
            let folder = try TemporaryFolder()
            let multivariant = try Self.sampleCopy(in: folder)
            let killed = try EmbedCommandTests.embed(
                Self.arguments(folder), environment: ["HLSCHECK_TEST_KILL_AT_STEP": String(step)])
            #expect(killed == nil, "step \(step) is within the run")
            #expect(
                Self.missingReferences(multivariant).isEmpty,
                "killed at step \(step): \(Self.missingReferences(multivariant))")

            let next = try #require(try EmbedCommandTests.embed(Self.arguments(folder)))
            #expect(next.status == 0, "after a kill at step \(step): \(next.stderr)")
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path("no-audio-only/audio-only"))
                .sorted()
            #expect(left == clean, "after a kill at step \(step) and a run to the end")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path("no-audio-only")).filter {
                $0.hasPrefix(".hlscheck-embed")
            }
            #expect(leftovers.isEmpty, "after a kill at step \(step): \(leftovers)")
        }
    }
}
