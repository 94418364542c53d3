import Foundation
import HLSEmbedding
import HLSPackaging
import HTTPTestServer
import TestSupport
import Testing

/// GStreamer, a player that shares no demuxer or decoder with hlscheck's FFmpeg: `playbin3`
/// (hlsdemux2, tsdemux / qtdemux / aacparse, the avdec_aac decoder of gst-libav) plays a media
/// playlist over HTTP — hlsdemux2 fetches through libsoup, which has no file:// — into fake
/// sinks as fast as it can. `gst-launch-1.0 -v` prints every buffer the
/// audio sink receives (`silent=false`), so the run tells how far the audio went, not only that
/// the pipeline ended.
enum GStreamerPlayback {
    /// What `gst-launch-1.0` needs: the tool (gstreamer1.0-tools) and, for HLS, AAC and both
    /// containers, plugins-base, -good, -bad and gstreamer1.0-libav — the Makefile's
    /// TEST_DEB_PACKAGES, which `make test` installs.
    static let missing =
        "gst-launch-1.0 is not installed: `make test-deps` installs GStreamer (gstreamer1.0-tools, -plugins-base, -good, -bad, gstreamer1.0-libav)"

    struct Playback {
        var result: ChildProcess.Outcome
        /// The paths GStreamer asked the server for, in order: a failed run says how far it got.
        var requested: [String]
        /// "Got EOS from element "playbin3-0"": the pipeline played to its end.
        var reachedEndOfStream: Bool { result.output.contains("Got EOS from element \"playbin3") }
        /// Lines where GStreamer reports an error (a demuxer or decoder that gave up).
        var errors: [String] { result.output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("ERROR:") } }
        /// The audio buffers the sink received: each one's start and duration, in seconds of
        /// GStreamer's timeline (hlsdemux2 puts the stream at an offset of its own).
        var audioBuffers: [(pts: Double, duration: Double)] {
            result.output.matches(of: /pts: (\d+):(\d+):(\d+\.\d+), duration: (\d+):(\d+):(\d+\.\d+)/).compactMap {
                match in
                func seconds(_ h: Substring, _ m: Substring, _ s: Substring) -> Double? {
                    guard let h = Double(h), let m = Double(m), let s = Double(s) else { return nil }
                    return h * 3600 + m * 60 + s
                }
                guard let pts = seconds(match.1, match.2, match.3), let duration = seconds(match.4, match.5, match.6)
                else { return nil }
                return (pts, duration)
            }
        }

        /// Seconds of audio played: the buffers' durations added up.
        var audioDuration: Double { audioBuffers.reduce(0) { $0 + $1.duration } }
    }

    /// Plays `relativePath` of `folder`, served over loopback HTTP, to its end; killed after a
    /// minute (a pipeline that stalls fails the test instead of hanging it).
    static func play(_ relativePath: String, in folder: String) async throws -> Playback {
        let server = try await HTTPTestServer(folder: folder)
        let result: ChildProcess.Outcome
        do {
            result = try await ChildProcess.capture(
                [
                    "gst-launch-1.0", "-v", "playbin3", "uri=\(server.url(relativePath))",
                    "audio-sink=fakesink silent=false", "video-sink=fakesink", "text-sink=fakesink",
                ], timeLimit: .seconds(60))
        } catch {
            await server.stop()
            throw error
        }
        let requested = server.requests.map(\.path)
        await server.stop()
        return Playback(result: result, requested: requested)
    }
}

/// What `embed --add-audio-only` writes plays in GStreamer from its first to its last frame.
@Suite(.serialized) struct GStreamerPlaybackTests {
    @Test(arguments: Ladder.allCases)
    func gstreamerPlaysTheNewAudioOnlyVariantToItsEnd(_ ladder: Ladder) async throws {
        // Never skipped: without GStreamer the test fails and says how to install it.
        try #require(ChildProcess.locate("gst-launch-1.0") != nil, "\(GStreamerPlayback.missing)")
        let folder = try TemporaryFolder()
        // Longer than hlsdemux2's 30 s high watermark, where it stops fetching until the output
        // drains: GStreamer 1.22 fails a stream it fetches to its end before its output pads are
        // exposed ("Couldn't download fragments", posted with "Can't push EOS on non-exposed
        // pad"), which a short stream on a loaded machine does; a longer one waits for the output.
        let multivariant = try await ladder.make(in: folder, seconds: 40)
        let request = AudioOnlyRequest(
            input: multivariant, poster: try Poster(image: fixture("poster.jpg")), posterName: "poster.jpg",
            destination: .folder(folder.path("out")))
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        let written = (outcome.output as NSString).deletingLastPathComponent
        let variant = try #require(outcome.variantURI)

        let playback = try await GStreamerPlayback.play(variant, in: written)
        let tail =
            playback.result.output.split(separator: "\n").filter { !$0.contains("last-message") }.suffix(12).joined(
                separator: "\n")
            + "\nrequests served: " + playback.requested.joined(separator: " ")
        #expect(
            !playback.result.killedBySignal && playback.result.status == 0,
            "gst-launch-1.0 exited \(playback.result.status)\(playback.result.killedBySignal ? " (killed: it did not finish within a minute)" : ""):\n\(tail)"
        )
        #expect(playback.errors.isEmpty, "\(playback.errors)")
        #expect(playback.reachedEndOfStream, "no end of stream:\n\(tail)")
        // As much audio as the source holds (its packets as ffprobe reads them, a second opinion
        // that needs no server), within two AAC frames per run of continuous timestamps (the
        // encoder starts afresh at each discontinuity).
        let buffers = playback.audioBuffers
        #expect(!buffers.isEmpty, "the audio sink received no buffer:\n\(tail)")
        let sourcePlaylist = ((multivariant as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
            ladder.audioPlaylist)
        let sourceDuration = try Shell.audioPackets(sourcePlaylist).reduce(0) { $0 + $1.duration }
        #expect(sourceDuration > 0, "ffprobe read no audio from the source \(sourcePlaylist)")
        let runs = ladder == .tsDiscontinuity ? 2.0 : 1.0
        #expect(
            abs(playback.audioDuration - sourceDuration) <= runs * 2 * 1024 / 48_000,
            "GStreamer played \(playback.audioDuration) s of the new audio; the source holds \(sourceDuration) s")
    }
}
