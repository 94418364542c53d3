import Testing
@testable import MediaInspection
import MediaFormats

/// Facts of the committed fixtures (regenerate with Fixtures/make-fixtures.sh). The expected
/// durations are the encoded truth: 88 AAC frames × 1024 / 44100 Hz = 2.0434 s, 20 frames at
/// 10 fps = 2.0 s, 58 AC-3 frames × 1536 / 44100 Hz = 2.0202 s, MP3 78 × 1152 / 44100 = 2.0376 s.
struct SegmentInspectorTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        var container: SegmentContainer
        var codecs: [String]
        var channels: Int
        var duration: Double
        var testDescription: String { file }
    }

    static let expectations = [
        Expectation(
            file: "audio-aac.ts", container: .mpegTS, codecs: ["mp4a.40.2"], channels: 2, duration: 88 * 1024 / 44100),
        Expectation(
            file: "video-h264-aac.ts", container: .mpegTS, codecs: ["avc1.64000a", "mp4a.40.2"], channels: 1,
            duration: 88 * 1024 / 44100),
        Expectation(
            file: "audio.aac", container: .adts, codecs: ["mp4a.40.2"], channels: 2, duration: 88 * 1024 / 44100),
        Expectation(
            file: "audio-apic.mp3", container: .mp3, codecs: ["mp4a.40.34"], channels: 1, duration: 78 * 1152 / 44100),
        Expectation(file: "audio.ac3", container: .ac3, codecs: ["ac-3"], channels: 6, duration: 58 * 1536 / 44100),
    ]

    @Test(arguments: expectations, [false, true])
    func reportsTracksCodecsAndPacketDuration(_ expected: Expectation, streamInfo: Bool) async throws {
        let facts = try await Fixtures.inspect(expected.file, streamInfo: streamInfo)
        #expect(facts.problem == nil)
        #expect(facts.container == expected.container)
        #expect(facts.codecStrings == expected.codecs)
        let audio = try #require(facts.tracks.first { $0.kind == .audio })
        #expect(audio.channels == expected.channels)
        #expect(audio.sampleRate == 44100)
        let duration = try #require(facts.duration)
        #expect(abs(duration - expected.duration) < 0.005, "duration \(duration), expected \(expected.duration)")
    }

    @Test(arguments: [false, true])
    func videoResolutionWithAndWithoutStreamInfo(_ streamInfo: Bool) async throws {
        let facts = try await Fixtures.inspect("video-h264-aac.ts", streamInfo: streamInfo)
        let video = try #require(facts.tracks.first { $0.kind == .video })
        #expect(video.width == 128)
        #expect(video.height == 72)
        #expect(video.packetCount == 20)
        #expect(video.codecName == "h264")
    }

    @Test func fragmentIsDemuxedWithItsInitSection() async throws {
        let inspector = SegmentInspector(source: LocalSegmentSource())
        let request = SegmentRequest(
            uri: Fixtures.path("fmp4-seg0.m4s"), initSection: .init(uri: Fixtures.path("fmp4-init.mp4")))
        let facts = try await inspector.inspect(request)
        #expect(facts.problem == nil)
        #expect(facts.container == .fragmentedMP4)
        #expect(facts.byteCount == 12814, "byteCount counts the fragment only")
        #expect(facts.codecStrings == ["mp4a.40.2"])
        let duration = try #require(facts.duration)
        #expect(abs(duration - 88 * 1024 / 44100) < 0.005, "not the doubled container duration")
    }

    @Test func fragmentWithoutInitSectionIsAProblem() async throws {
        let facts = try await Fixtures.inspect("fmp4-seg0.m4s")
        #expect(facts.problem != nil)
    }

    @Test func byteRangeSelectsTheSegmentInsideAResource() async throws {
        // Two segments in one resource, as EXT-X-BYTERANGE addresses them.
        let ts = try Fixtures.bytes("audio-aac.ts"), ac3 = try Fixtures.bytes("audio.ac3")
        let inspector = SegmentInspector(source: MemorySource(files: ["all.ts": ts + ac3]))
        let second = try await inspector.inspect(
            SegmentRequest(uri: "all.ts", range: SegmentByteRange(offset: ts.count, length: ac3.count)))
        #expect(second.byteCount == ac3.count)
        #expect(second.container == .ac3, "sniffed bytes win over the .ts extension")
        #expect(second.codecStrings == ["ac-3"])
        let first = try await inspector.inspect(
            SegmentRequest(uri: "all.ts", range: SegmentByteRange(offset: 0, length: ts.count)))
        #expect(first.codecStrings == ["mp4a.40.2"])
    }

    @Test func packedAudioReportsTheLeadingTimestampTag() async throws {
        let facts = try await Fixtures.inspect("audio.aac")
        #expect(facts.startsWithTimestampTag)
        #expect(facts.transportStreamTimestamp == 90000)
        #expect(facts.id3.first?.frames.map(\.id) == ["PRIV"])
        #expect(facts.firstPTS == 1.0, "the PRIV timestamp, not libav's made-up 0")
    }

    @Test func transportStreamReportsItsFirstPTS() async throws {
        // ffmpeg's mpegts muxer starts at 1.4 s (its default muxdelay + preload).
        let facts = try await Fixtures.inspect("audio-aac.ts")
        let first = try #require(facts.firstPTS)
        #expect(abs(first - 1.4) < 0.001)
    }

    @Test func packedAudioWithoutID3LacksTheTimestampTag() async throws {
        let facts = try await Fixtures.inspect("audio.ac3")
        #expect(!facts.startsWithTimestampTag)
        #expect(facts.transportStreamTimestamp == nil)
        #expect(facts.firstPTS == nil)
    }

    @Test func posterIsMeasuredButNotKept() async throws {
        let facts = try await Fixtures.inspect("audio-apic.mp3")
        let poster = try #require(facts.artwork.first)
        let jpeg = try Fixtures.bytes("poster.jpg")
        #expect(poster.mimeType == "image/jpeg")
        #expect(poster.pictureType == 3)
        #expect(poster.byteCount == jpeg.count)
        #expect(poster.contentHash == SHA256.hexDigest(jpeg))
        #expect(poster.width == 64 && poster.height == 48)
        #expect(poster.decodeProblem == nil)
        #expect(facts.transportStreamTimestamp == 0)
        #expect(!facts.tracks.contains { $0.kind == .video }, "the cover is not a video track")
        #expect(facts.tracks.contains { $0.kind == .attachedPicture })
    }

    @Test func extractPicturesReturnsTheImageBytes() async throws {
        let inspector = SegmentInspector(source: LocalSegmentSource())
        let pictures = try await inspector.extractPictures(SegmentRequest(uri: Fixtures.path("audio-apic.mp3")))
        #expect(pictures.map(\.data) == [try Fixtures.bytes("poster.jpg")])
    }

    @Test func inspectAllKeepsInputOrderAndReportsReadFailures() async throws {
        let names = ["audio.ac3", "missing.ts", "audio-aac.ts", "audio.aac", "video-h264-aac.ts"]
        let requests = names.map { SegmentRequest(uri: Fixtures.path($0)) }
        let results = await SegmentInspector(source: LocalSegmentSource()).inspectAll(requests, maxConcurrent: 2)
        #expect(results.count == names.count)
        for (name, result) in zip(names, results) {
            switch result {
            case .success(let facts): #expect(facts.uri.hasSuffix(name))
            case .failure(let error): #expect(name == "missing.ts", "\(error)")
            }
        }
    }

    @Test func factsRoundTripThroughJSON() async throws {
        let facts = try await Fixtures.inspect("audio-apic.mp3")
        let data = try JSONEncoder().encode(facts)
        #expect(try JSONDecoder().decode(SegmentFacts.self, from: data) == facts)
    }
}

import Foundation
