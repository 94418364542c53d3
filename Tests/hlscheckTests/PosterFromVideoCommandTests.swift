import Foundation
import TestSupport
import Testing

/// `hlscheck embed --poster-from-video [TIME]` as users type it: TIME given or left out, before
/// the playlist or before another option.
@Suite struct PosterFromVideoCommandTests {
    static func arguments(_ folder: TemporaryFolder, _ options: [String]) -> [String] {
        ["--add-audio-only"] + options + [
            folder.path("no-audio-only/master.m3u8"), "--output", folder.path("out"), "--root", folder.path(""),
        ]
    }

    @Test(arguments: [
        // Left out before the playlist, left out before another option, and given.
        (["--poster-from-video"], "1.8 s"),
        (["--poster-from-video", "--audio-bitrate", "32"], "1.8 s"),
        (["--poster-from-video", "0:05"], "5 s"),
    ])
    func takesTheFrameWithOrWithoutATime(_ options: [String], _ time: String) throws {
        let folder = try TemporaryFolder()
        _ = try AddAudioOnlyCommandTests.sampleCopy(in: folder)
        let result = try #require(try EmbedCommandTests.embed(Self.arguments(folder, options)))
        #expect(result.status == 0, "\(result.stderr)")
        // The 426x240 variant, the one with the most pixels; 10 % of the 18-second stream is 1.8 s.
        #expect(result.stderr.contains("hlscheck: took the poster from the frame at \(time) of "), "\(result.stderr)")
        #expect(result.stderr.contains("compliant/v1/index.m3u8 (seg"), "\(result.stderr)")
        #expect(result.stderr.contains(", 426x240, JPEG "), "\(result.stderr)")
        #expect(result.stdout.contains("added the audio-only variant audio-only/index.m3u8 "), "\(result.stdout)")
        #expect(result.stdout.contains("1 stream checked: 0 errors, 0 warnings, 0 notes"), "\(result.stdout)")
    }

    @Test func refusesATimeBeyondTheEndAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        _ = try AddAudioOnlyCommandTests.sampleCopy(in: folder)
        let result = try #require(
            try EmbedCommandTests.embed(Self.arguments(folder, ["--poster-from-video", "1:00:00"])))
        #expect(result.status == 2)
        #expect(result.stderr.contains("--poster-from-video 3600 s: beyond the end of "), "\(result.stderr)")
        #expect(result.stderr.contains("compliant/v1/index.m3u8, whose segments last 18 s"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test(arguments: [["--poster-from-video", "--image", "poster.jpg"], ["--poster-from-video", "5", "--remove"]])
    func refusesAnotherPosterBeside(_ options: [String]) throws {
        let folder = try TemporaryFolder()
        _ = try AddAudioOnlyCommandTests.sampleCopy(in: folder)
        let result = try #require(try EmbedCommandTests.embed(Self.arguments(folder, options)))
        #expect(result.status == 64)
        #expect(result.stderr.contains("--poster-from-video"), "\(result.stderr)")
    }

    /// A malformed TIME is refused as the option's value, never taken for the playlist.
    @Test(arguments: ["1e20", "-5", "120%", "1:xx"])
    func aMalformedTimeIsRefusedAsTheOptionsValue(_ time: String) throws {
        let folder = try TemporaryFolder()
        _ = try AddAudioOnlyCommandTests.sampleCopy(in: folder)
        let result = try #require(try EmbedCommandTests.embed(Self.arguments(folder, ["--poster-from-video", time])))
        #expect(result.status == 64)
        #expect(result.stderr.contains("--poster-from-video"), "\(result.stderr)")
        #expect(!result.stderr.contains("Unexpected argument"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }
}
