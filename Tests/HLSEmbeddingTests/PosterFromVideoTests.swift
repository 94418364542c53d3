import Foundation
import HLSCheck
import HLSEmbedding
import HLSPackaging
import MediaFormats
import TestSupport
import Testing

/// A ladder whose picture tells the time, made by the ffmpeg CLI at test time: 12 s of solid
/// red (0–4 s), green (4–8 s) and blue (8–12 s) in two H.264 TS variants, 160x90 listed first and
/// 320x180 second, a keyframe every second and 2-second segments (two groups of pictures each),
/// and a 32 kbit/s AAC rendition. With `audioOnlyVariant` the rendition is also listed as the
/// audio-only variant.
struct ColourClockLadder {
    var audioOnlyVariant = false

    static let script = #"""
        set -e
        c="-nostdin -hide_banner -loglevel error -y"
        x="-map_metadata -1 -fflags +bitexact -flags:a +bitexact -flags:v +bitexact"
        hls="-f hls -hls_time 2 -hls_playlist_type vod"
        x264="-c:v libx264 -threads 1 -profile:v baseline -pix_fmt yuv420p -g 25 -keyint_min 25 -sc_threshold 0 -b:v 100k"
        mkdir -p low high audio
        ffmpeg $c -f lavfi -i color=c=red:s=320x180:r=25:d=4 -f lavfi -i color=c=lime:s=320x180:r=25:d=4 -f lavfi -i color=c=blue:s=320x180:r=25:d=4 \
          -filter_complex '[0][1][2]concat=n=3:v=1:a=0,split[h][l];[l]scale=160:90[lo]' \
          -map '[h]' $x264 $x $hls -hls_segment_filename high/seg%d.ts high/index.m3u8 \
          -map '[lo]' $x264 $x $hls -hls_segment_filename low/seg%d.ts low/index.m3u8
        ffmpeg $c -f lavfi -i sine=frequency=440:sample_rate=48000:duration=12 -c:a aac -b:a 32k -ac 2 $x $hls -hls_segment_filename audio/seg%d.ts audio/index.m3u8
        """#

    /// Writes the ladder into `folder/stream`; returns its multivariant playlist.
    func make(in folder: TemporaryFolder) throws -> String {
        let stream = folder.url.appendingPathComponent("stream")
        try FileManager.default.createDirectory(at: stream, withIntermediateDirectories: true)
        try ChildProcess.run(["/bin/sh", "-c", Self.script, "ladder"], in: stream.path)
        var text = """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="English",LANGUAGE="en",DEFAULT=YES,AUTOSELECT=YES,CHANNELS="2",URI="audio/index.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.42c00c,mp4a.40.2",RESOLUTION=160x90,AUDIO="aud"
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS="avc1.42c00d,mp4a.40.2",RESOLUTION=320x180,AUDIO="aud"
            high/index.m3u8

            """
        if audioOnlyVariant { text += "#EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n" }
        let multivariant = stream.appendingPathComponent("master.m3u8").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: multivariant))
        return multivariant
    }
}

/// The mean colour of a JPEG as the ffmpeg CLI decodes it (an outside decoder): red, green, blue.
func meanColour(ofJPEG bytes: [UInt8], in folder: TemporaryFolder) throws -> [Int] {
    let path = folder.path("still-\(UUID().uuidString).jpg")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let text = try Shell.run([
        "sh", "-c", "ffmpeg -v error -i \"$0\" -vf scale=1:1:flags=area -f rawvideo -pix_fmt rgb24 - | od -An -tu1",
        path,
    ])
    return text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
}

/// `embed --poster-from-video`: the poster is a frame of the stream's own video.
@Suite struct PosterFromVideoTests {
    /// Which colour a time shows: 0 red, 1 green, 2 blue.
    static func dominantChannel(_ colour: [Int]) -> Int? {
        guard colour.count == 3, let top = colour.max(), top > 150 else { return nil }
        let others = colour.filter { $0 != top }
        guard others.count == 2, others.allSatisfy({ $0 < 80 }) else { return nil }
        return colour.firstIndex(of: top)
    }

    @Test(arguments: [
        (PosterFrameTime.default, 0),  // 10 % of 12 s: 1.2 s, red
        (.seconds(5.5), 1), (.share(0.5), 1), (.seconds(9.5), 2), (.seconds(11.9), 2),
    ])
    func takesTheFrameAtTheTimeFromTheSharpestVariant(_ time: PosterFrameTime, _ channel: Int) async throws {
        let folder = try TemporaryFolder()
        let multivariant = try ColourClockLadder(audioOnlyVariant: true).make(in: folder)
        var request = EmbedRequest(
            input: multivariant, poster: nil, posterName: "", destination: .folder(folder.path("out")))
        request.posterFromVideo = time
        let notes = Messages()
        request.report = { notes.append($0) }
        let outcome = try await PosterEmbedder(request).run()

        #expect(
            notes.all.contains { $0.hasPrefix("took the poster from the frame at ") && $0.contains("high/index.m3u8") },
            "\(notes.all)")
        let audio = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect(audio.artwork?.segmentsWithArtwork == outcome.targets.first.map { $0.segments - $0.withoutPoster })
        let written = URL(fileURLWithPath: outcome.output).deletingLastPathComponent().path
        let segments = try segmentFiles(of: (written as NSString).appendingPathComponent("audio/index.m3u8"))
        let picture = try #require(try pictures(in: segments[0], container: .mpegTS).first)
        #expect(picture.mimeType == "image/jpeg")
        // The 320x180 variant's picture, whole: a solid colour is a few hundred bytes.
        let record = try #require(outcome.verification.variants.first { $0.audioOnly })
        #expect(record.artwork?.width == 320 && record.artwork?.height == 180, "\(String(describing: record.artwork))")
        let colour = try meanColour(ofJPEG: picture.data, in: folder)
        #expect(Self.dominantChannel(colour) == channel, "the poster's colour at \(time) is \(colour)")
    }

    @Test func addAudioOnlyTakesThePosterFromTheVideoToo() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try ColourClockLadder().make(in: folder)
        var request = AudioOnlyRequest(
            input: multivariant, poster: nil, posterName: "", destination: .folder(folder.path("out")))
        request.posterFromVideo = .seconds(6.5)
        request.posterDescription = "still"
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        #expect(outcome.action == .added)
        let variant = try #require(outcome.variantURI)
        let written = URL(fileURLWithPath: outcome.output).deletingLastPathComponent().path
        let segments = try segmentFiles(of: (written as NSString).appendingPathComponent(variant))
        #expect(segments.count == 7)
        let picture = try #require(try pictures(in: segments[0], container: .mpegTS).first)
        #expect(picture.description == "still")
        #expect(Self.dominantChannel(try meanColour(ofJPEG: picture.data, in: folder)) == 1)
        let audio = try #require(outcome.verification?.variants.first { $0.audioOnly })
        #expect((audio.measuredPeakBitrate ?? .max) <= 64_000)
    }

    /// ffmpeg's default ladder (testsrc2, 640x360): the frame at qscale 2 is far over what fits
    /// beside the audio, so it goes through --fit's search like an oversized --image.
    @Test func fitsAFrameTooLargeForTheBudget() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try makeFFmpegDefaultLadder(in: folder.path("stream"))
        var request = AudioOnlyRequest(
            input: multivariant, poster: nil, posterName: "", destination: .folder(folder.path("out")))
        request.posterFromVideo = .default
        let notes = Messages()
        request.report = { notes.append($0) }
        let outcome = try await AudioOnlyVariantBuilder(request).run()
        let taken = try #require(
            notes.all.first { $0.hasPrefix("took the poster from the frame at 0.6 s of ") }, "\(notes.all)")
        #expect(taken.contains("stream_0.m3u8") && taken.contains("640x360"), "\(taken)")
        let fitted = try #require(outcome.fittedImage, "the frame was not re-encoded")
        #expect(fitted.hasPrefix("JPEG "), "\(fitted)")
        let variant = try #require(outcome.verification?.variants.first { $0.uri == outcome.variantURI })
        #expect((variant.measuredPeakBitrate ?? .max) <= 64_000)
        #expect((variant.artwork?.maxBytes ?? 0) > 0)
    }

    @Test func refusesATimeBeyondTheStream() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try ColourClockLadder(audioOnlyVariant: true).make(in: folder)
        var request = EmbedRequest(
            input: multivariant, poster: nil, posterName: "", destination: .folder(folder.path("out")))
        request.posterFromVideo = .seconds(12)
        let error = await #expect(throws: EmbedError.self) { try await PosterEmbedder(request).run() }
        #expect(
            error?.description.contains("--poster-from-video 12 s: beyond the end of") == true,
            "\(String(describing: error))")
        #expect(
            error?.description.contains("high/index.m3u8, whose segments last 12 s") == true,
            "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test func refusesAStreamWithoutVideo() async throws {
        let (folder, multivariant) = try generatedAudioOnlyStream(
            "radio", sine: "frequency=440:sample_rate=48000:duration=6", codecs: "mp4a.40.2"
        ) { audio in
            [
                "-c:a", "aac", "-b:a", "32k", "-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod",
                "-hls_segment_filename", "\(audio)/seg%d.ts", "\(audio)/index.m3u8",
            ]
        }
        var request = EmbedRequest(
            input: multivariant, poster: nil, posterName: "", destination: .folder(folder.path("out")))
        request.posterFromVideo = .default
        let error = await #expect(throws: EmbedError.self) { try await PosterEmbedder(request).run() }
        #expect(
            error?.description.contains("no variant carries video to take a poster from") == true,
            "\(String(describing: error))")
    }

    @Test func refusesASegmentThatDoesNotDecode() async throws {
        let folder = try TemporaryFolder()
        let multivariant = try ColourClockLadder().make(in: folder)
        // The 320x180 variant's third segment (4–6 s) becomes MPEG-TS null packets: a valid
        // container holding no picture.
        var null: [UInt8] = [0x47, 0x1F, 0xFF, 0x10] + [UInt8](repeating: 0xFF, count: 184)
        null = Array([[UInt8]](repeating: null, count: 50).joined())
        try Data(null).write(to: URL(fileURLWithPath: folder.path("stream/high/seg2.ts")))
        var request = AudioOnlyRequest(
            input: multivariant, poster: nil, posterName: "", destination: .folder(folder.path("out")))
        request.posterFromVideo = .seconds(5)
        let error = await #expect(throws: EmbedError.self) { try await AudioOnlyVariantBuilder(request).run() }
        let text = error?.description ?? ""
        #expect(
            text.contains("high/index.m3u8:") && text.contains("segment seg2.ts does not decode to a picture"),
            "\(text)")
        #expect(text.contains("choose another time or give --image"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
    }

    @Test(arguments: [
        ("10%", PosterFrameTime.share(0.1)), ("12", .seconds(12)), ("12.5", .seconds(12.5)), ("1:30", .seconds(90)),
        ("1:02:03.5", .seconds(3723.5)), ("0", .seconds(0)),
    ])
    func readsTimes(_ text: String, _ time: PosterFrameTime) {
        #expect(PosterFrameTime(text) == time)
    }

    @Test(arguments: ["", "-1", "100%", "1:60", "1:2:3:4", "abc", "1e3", "nan", "1:-5", "master.m3u8", "12s"])
    func rejectsWhatIsNotATime(_ text: String) {
        #expect(PosterFrameTime(text) == nil)
    }
}
