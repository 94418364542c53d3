import Foundation
import Testing
import TestSupport
@testable import MediaInspection

/// `--decode`: every audio and video frame goes through libavcodec; what fails is counted per
/// track, with libav's own words.
struct SegmentDecoderTests {
    static let cleanFiles = [
        "audio-aac.ts", "video-h264-aac.ts", "audio.aac", "audio-apic.mp3", "audio.ac3", "gstreamer-audio.ts",
    ]

    static func decode(_ name: String, bytes: [UInt8]? = nil, decode: Bool = true) async throws -> SegmentFacts {
        let data = try bytes ?? Fixtures.bytes(name)
        return try await SegmentInspector(source: MemorySource(files: [name: data]))
            .inspect(SegmentRequest(uri: name, wantsDecode: decode))
    }

    @Test(arguments: cleanFiles)
    func cleanSegmentDecodesWithoutErrors(_ name: String) async throws {
        let facts = try await Self.decode(name)
        let decoding = try #require(facts.decoding)
        #expect(!decoding.isEmpty, "\(name): no track decoded")
        for track in decoding {
            #expect(track.notDecoded == nil, "\(name): \(track)")
            #expect(track.frameCount > 0, "\(name): \(track)")
            #expect(track.failedFrameCount == 0, "\(name): \(track)")
        }
        // The attached cover picture of the MP3 is no video track to decode.
        #expect(decoding.allSatisfy { $0.kind == .audio || $0.kind == .video })
    }

    @Test func fragmentedMP4DecodesWithItsInitSection() async throws {
        let source = MemorySource(files: [
            "init.mp4": try Fixtures.bytes("fmp4-init.mp4"), "seg.m4s": try Fixtures.bytes("fmp4-seg0.m4s"),
        ])
        let facts = try await SegmentInspector(source: source).inspect(
            SegmentRequest(uri: "seg.m4s", initSection: .init(uri: "init.mp4"), wantsDecode: true))
        let audio = try #require(facts.decoding?.first)
        #expect(audio.kind == .audio && audio.frameCount > 50 && audio.failedFrameCount == 0, "\(audio)")
    }

    @Test func withoutDecodeTheFactsAreAbsentNotClean() async throws {
        let facts = try await Self.decode("video-h264-aac.ts", decode: false)
        #expect(facts.decoding == nil)
    }

    @Test func droppedVideoTransportPacketsAreDecodeErrors() async throws {
        let ts = try Fixtures.bytes("video-h264-aac.ts")
        let pid = try #require(TransportStreamDamage.videoPID(ts))
        // Three video packets from the middle of the segment, inside frames.
        let dropped = Array(TransportStreamDamage.framePackets(ts, pid: pid).prefix(3))
        #expect(dropped.count == 3)
        let facts = try await Self.decode(
            "video-h264-aac.ts", bytes: TransportStreamDamage.dropping(ts, packets: dropped))
        #expect(facts.problem == nil, "dropping whole packets keeps the segment demuxable")
        let decoding = try #require(facts.decoding)
        let video = try #require(decoding.first { $0.kind == .video })
        #expect(video.failedFrameCount > 0 && video.failedFrameCount < video.frameCount, "\(video)")
        // What ffmpeg prints: the demuxer's "packet corrupt" and the H.264 decoder's own words.
        #expect(video.reasons.contains { $0.contains("packet corrupt") }, "\(video.reasons)")
        #expect(video.reasons.contains { $0.contains("error while decoding MB") }, "\(video.reasons)")
        let audio = try #require(decoding.first { $0.kind == .audio })
        #expect(audio.failedFrameCount == 0, "audio untouched: \(audio)")
    }

    @Test func zeroedBytesInsideAVideoFrameAreDecodeErrors() async throws {
        let ts = try Fixtures.bytes("video-h264-aac.ts")
        let pid = try #require(TransportStreamDamage.videoPID(ts))
        let targets = Array(TransportStreamDamage.framePackets(ts, pid: pid).prefix(2))
        #expect(targets.count == 2)
        let facts = try await Self.decode(
            "video-h264-aac.ts", bytes: TransportStreamDamage.zeroingPayload(ts, packets: targets))
        let video = try #require(facts.decoding?.first { $0.kind == .video })
        #expect(video.failedFrameCount > 0, "\(video)")
        #expect(!video.reasons.isEmpty)
        // Continuity counters are intact: this is the decoder's finding, not the demuxer's.
        #expect(!video.reasons.contains { $0.contains("packet corrupt") }, "\(video.reasons)")
    }

    @Test func damagedAudioFrameIsADecodeError() async throws {
        var aac = try Fixtures.bytes("audio.aac")
        // Past the leading ID3 tag, scramble the middle of the ADTS stream but keep its sync words
        // findable: overwrite 40 bytes after a frame header with a pattern.
        let middle = aac.count / 2
        let sync = try #require((middle..<aac.count - 1).first { aac[$0] == 0xFF && aac[$0 + 1] & 0xF0 == 0xF0 })
        for index in (sync + 9)..<(sync + 49) { aac[index] = 0xA5 }
        let facts = try await Self.decode("audio.aac", bytes: aac)
        let audio = try #require(facts.decoding?.first { $0.kind == .audio })
        #expect(audio.failedFrameCount > 0, "\(audio)")
    }
}

extension CorpusTests {
    /// `--decode` on third-party segments (ffmpeg, mux.js and other packagers' test media): every
    /// one whose demux is clean decodes without a failed frame.
    @Test(.enabled(if: !segments.isEmpty, "shared corpus not present"))
    func corpusSegmentsDecodeWithoutFalseAlarms() async throws {
        let inspector = SegmentInspector(source: LocalSegmentSource())
        let results = await inspector.inspectAll(Self.segments.map { SegmentRequest(uri: $0, wantsDecode: true) })
        var decoded = 0
        for (path, result) in zip(Self.segments, results) {
            let facts = try result.get()
            guard facts.problem == nil else { continue }
            let decoding = try #require(facts.decoding, "\(path)")
            #expect(!decoding.isEmpty, "\(path)")
            for track in decoding {
                #expect(
                    track.failedFrameCount == 0 && track.notDecoded == nil,
                    "\((path as NSString).lastPathComponent): \(track)")
            }
            decoded += 1
        }
        #expect(decoded >= 25, "only \(decoded) corpus segments demuxed cleanly")
    }
}
