import Foundation
import HLSCheck
@testable import HLSEmbedding
import HLSPackaging
import TestSupport
import Testing

/// embed rewrites in playlist order but scans the new bytes and names the new files beside it, in
/// batches (docs/embed.md, "Many segments").
/// What a user would notice if that went wrong: a copy that differs from run to run or from the
/// in-place result, a file named after another segment's bytes, a TS continuity break, or a
/// failure that names the wrong segment or leaves a half-written copy.
@Suite struct ManySegmentsEmbedTests {
    /// An audio-only MPEG-TS variant of 125 segments of about 0.5 s (more than the scan batches
    /// in flight hold, and not a multiple of a batch), made with the ffmpeg CLI.
    static func stream() throws -> (folder: TemporaryFolder, multivariant: String) {
        try generatedAudioOnlyStream("stream", sine: "frequency=440:sample_rate=8000:duration=64", codecs: "mp4a.40.2")
        { audio in
            [
                "-c:a", "aac", "-b:a", "16k", "-ac", "1", "-f", "hls", "-hls_time", "0.5", "-hls_playlist_type", "vod",
                "-hls_segment_filename", "\(audio)/seg%d.ts", "\(audio)/index.m3u8",
            ]
        }
    }

    static func embed(_ input: String, _ destination: EmbedRequest.Destination) async throws -> EmbedOutcome {
        try await PosterEmbedder(
            EmbedRequest(
                input: input, poster: try Poster(image: try fixture("poster.png")), posterName: "poster.png",
                destination: destination)
        ).run()
    }

    /// Segment file name → bytes, as the media playlist lists them.
    static func segments(_ multivariant: String) throws -> [(name: String, bytes: Data)] {
        let playlist = ((multivariant as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
            "audio/index.m3u8")
        return try segmentFiles(of: playlist).map {
            (($0 as NSString).lastPathComponent, try Data(contentsOf: URL(fileURLWithPath: $0)))
        }
    }

    /// The 8 hex digits of `seg0.embed-1a2b3c4d.ts` for `bytes`: XXH64 folded to 32 bits, whose
    /// values `SegmentNameTests` holds to the reference implementation's (docs/embed.md, step 4).
    static func fingerprint(_ bytes: Data) -> String {
        SegmentName.fingerprint([UInt8](bytes))
    }

    @Test func everyRunGivesTheSameCopyAndInPlaceGivesTheSameSegments() async throws {
        let (folder, multivariant) = try Self.stream()
        let original = try Self.segments(multivariant)
        #expect(original.count >= 120)

        let first = try await Self.embed(multivariant, .folder(folder.path("out1")))
        _ = try await Self.embed(multivariant, .folder(folder.path("out2")))
        #expect(
            first.verification.diagnostics.filter { $0.severity == .error }.isEmpty, "\(first.verification.diagnostics)"
        )
        #expect(try snapshot(folder.path("out1")) == snapshot(folder.path("out2")))

        // Each new segment is named after its own bytes, in playlist order, one per original;
        // the last, a runt shorter than half the target duration, goes without the poster
        // (docs/measurement.md, "Runt segments") and keeps its bytes and name.
        let written = try Self.segments(first.output)
        #expect(written.count == original.count)
        let lastDuration = try String(contentsOfFile: folder.path("stream/audio/index.m3u8"), encoding: .utf8)
            .split(separator: "\n").last { $0.hasPrefix("#EXTINF:") }.flatMap {
                Double($0.dropFirst(8).prefix { $0 != "," })
            }
        let runt = try #require(lastDuration) < 0.25 ? written.count - 1 : nil
        #expect(runt != nil, "64 s of tone in 0.5 s segments end in a runt")
        for (index, segment) in written.enumerated() {
            if index == runt {
                #expect(segment.name == "seg\(index).ts" && segment.bytes == original[index].bytes)
            } else {
                #expect(segment.name == "seg\(index).embed-\(Self.fingerprint(segment.bytes)).ts")
            }
        }
        // The in-place rewrite (the journalled path: one file at a time) gives the same segments.
        let inPlace = try await Self.embed(multivariant, .inPlace)
        let rewritten = try Self.segments(inPlace.output)
        #expect(rewritten.map(\.name) == written.map(\.name))
        #expect(rewritten.map(\.bytes) == written.map(\.bytes))
    }

    @Test func aSegmentThatCannotBeRewrittenAmongManyIsNamedAndNothingIsWritten() async throws {
        let (folder, multivariant) = try Self.stream()
        // One packet on the PID the earlier segments give the timed ID3 (the first free one
        // after the audio's, 0x101): libavformat reads the segment, the rewrite must refuse it.
        let damaged = folder.path("stream/audio/seg97.ts")
        var packet: [UInt8] = [0x47, 0x01, 0x01, 0x10]
        packet += [UInt8](repeating: 0xFF, count: 184)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: damaged))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(packet))
        try handle.close()
        let before = try snapshot(folder.path("stream"))

        let error = await #expect(throws: EmbedError.self) {
            try await Self.embed(multivariant, .folder(folder.path("out")))
        }
        #expect(error?.description.contains("seg97.ts") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("0x0101") == true, "\(error?.description ?? "")")
        // Nothing written: no copy, no staging folder or owner file beside it, the input as it was.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["stream"])
        #expect(try snapshot(folder.path("stream")) == before)

        let inPlace = await #expect(throws: EmbedError.self) { try await Self.embed(multivariant, .inPlace) }
        #expect(inPlace?.description.contains("seg97.ts") == true)
        #expect(try snapshot(folder.path("stream")) == before)
    }
}
