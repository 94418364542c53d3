import Foundation
import Testing
@testable import MediaInspection
import MediaFormats
import TestSupport

/// Segments are read through bounded buffers: a segment larger than every buffer is
/// measured exactly as when it was loaded whole, a byte range is served from the middle of a
/// file, an AES-128 segment is decrypted where it is read, and what the buffers hold at once
/// does not grow with the segment.
struct StreamingInspectionTests {
    /// Bytes served without the in-memory shortcut, so the scanners' window really slides.
    struct WindowedBytes: RandomAccessBytes {
        var storage: [UInt8]
        var count: Int { storage.count }
        func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ByteReadError) -> Int {
            try InMemoryBytes(storage).read(at: offset, into: buffer)
        }
    }

    static func ffmpeg(_ arguments: [String]) throws {
        try ChildProcess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y"] + arguments)
    }

    /// 30 s of AAC at 192 kbit/s (~720 KB, several windows and many I/O buffers), as ADTS and
    /// as TS, in a fresh folder.
    static func bigSegments() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let source = [
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=30", "-c:a", "aac", "-b:a", "192k",
            "-ac", "2",
        ]
        try ffmpeg(source + ["-f", "adts", folder.path("big.aac")])
        try ffmpeg(source + ["-f", "mpegts", folder.path("big.ts")])
        return folder
    }

    /// An ID3v2.4 tag with one TXXX frame, as a packager would put between audio frames.
    static let trailingTag = ID3Tag(majorVersion: 4, frames: [.userText(description: "note", value: "at the end")])
        .serialized()

    static func facts(_ bytes: [UInt8], uri: String, windowed: Bool, windowSize: Int = ByteCursor.defaultWindowSize)
        throws -> SegmentFacts
    {
        try SegmentInspector.inspect(
            uri: uri, segment: windowed ? WindowedBytes(storage: bytes) : InMemoryBytes(bytes), initSection: nil,
            wantsStreamInfo: true, windowSize: windowSize)
    }

    @Test func segmentLargerThanTheBuffersIsMeasuredExactly() async throws {
        let folder = try Self.bigSegments()
        let audio = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("big.aac")))
        let withTag = audio + Self.trailingTag
        try folder.write(Data(withTag), to: "tagged.aac")
        #expect(withTag.count > 2 * ByteCursor.defaultWindowSize + Int(ReaderInput.bufferSize))

        let streamed = try await SegmentInspector(source: LocalSegmentSource()).inspect(
            SegmentRequest(uri: folder.path("tagged.aac"), wantsStreamInfo: true))
        #expect(streamed.problem == nil)
        #expect(streamed.byteCount == withTag.count)
        let duration = try #require(streamed.duration)
        // 30 s of 48 kHz AAC is 1407 frames of 1024 samples (plus the encoder's priming frame).
        #expect(abs(duration - 30) < 0.05, "duration \(duration)")
        let last = try #require(streamed.id3.last)
        #expect(last.offset == audio.count, "the tag after the last audio frame is found where it is")
        #expect(last.frames.contains { $0.summary == "note=at the end" })
        // The same facts as when the whole segment was in memory.
        #expect(streamed == (try Self.facts(withTag, uri: folder.path("tagged.aac"), windowed: false)))
    }

    @Test func transportStreamLargerThanTheBuffersMatchesTheInMemoryFacts() async throws {
        let folder = try Self.bigSegments()
        let ts = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("big.ts")))
        let streamed = try await SegmentInspector(source: LocalSegmentSource()).inspect(
            SegmentRequest(uri: folder.path("big.ts"), wantsStreamInfo: true))
        #expect(streamed.problem == nil)
        #expect(streamed.byteCount == ts.count)
        #expect(streamed.continuity?.errorCount == 0)
        #expect(abs((streamed.duration ?? 0) - 30) < 0.05)
        #expect(streamed == (try Self.facts(ts, uri: folder.path("big.ts"), windowed: false)))
    }

    @Test func byteRangeInTheMiddleOfAFileIsServedBySeeking() async throws {
        let folder = try Self.bigSegments()
        let audio = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("big.aac")))
        let middle = audio + Self.trailingTag
        // Three segments in one resource; the middle one ends in an ID3 tag.
        let resource = audio + middle + audio
        try folder.write(Data(resource), to: "all.aac")
        let range = SegmentByteRange(offset: audio.count, length: middle.count)
        let facts = try await SegmentInspector(source: LocalSegmentSource()).inspect(
            SegmentRequest(uri: folder.path("all.aac"), range: range, wantsStreamInfo: true))
        #expect(facts.byteCount == middle.count)
        #expect(facts.id3.map(\.offset) == [audio.count], "offsets count from the start of the range")
        #expect(facts == (try Self.facts(middle, uri: folder.path("all.aac"), windowed: false)))
    }

    @Test func encryptedSegmentIsDecryptedWhereItIsRead() async throws {
        let folder = try Self.bigSegments()
        let key: [UInt8] = Array(0..<16)
        try folder.write(Data(key), to: "enc/key.bin")
        try folder.write(
            Data("key.bin\n\(folder.path("enc/key.bin"))\n000102030405060708090a0b0c0d0e0f\n".utf8), to: "keyinfo")
        try Self.ffmpeg([
            "-i", folder.path("big.ts"), "-c", "copy", "-f", "hls", "-hls_time", "100", "-hls_playlist_type", "vod",
            "-hls_key_info_file", folder.path("keyinfo"), "-hls_segment_filename", folder.path("enc/seg%d.ts"),
            folder.path("enc/index.m3u8"),
        ])
        let clear = try await SegmentInspector(source: LocalSegmentSource()).inspect(
            SegmentRequest(uri: folder.path("big.ts")))
        let encrypted = try #require(
            FileManager.default.attributesOfItem(atPath: folder.path("enc/seg0.ts"))[.size] as? Int)
        let decryption = SegmentDecryption(keyURI: folder.path("enc/key.bin"), iv: Array(0..<16))
        let gauge = BufferGauge()
        let facts = try await SegmentInspector(source: LocalSegmentSource()).inspect(
            SegmentRequest(uri: folder.path("enc/seg0.ts"), decryption: decryption), gauge: gauge)
        #expect(facts.decryption == .decrypted)
        #expect(facts.problem == nil)
        #expect(facts.byteCount == encrypted, "the encrypted size counts for bit rate")
        #expect(facts.tracks.map(\.packetCount) == clear.tracks.map(\.packetCount))
        #expect(abs((facts.duration ?? 0) - (clear.duration ?? -1)) < 0.001)
        #expect(gauge.peak <= ByteCursor.defaultWindowSize + Int(ReaderInput.bufferSize))

        // A transfer cut inside an AES block cannot be decrypted, and says so.
        let cut = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("enc/seg0.ts"))).dropLast(5)
        try folder.write(Data(cut), to: "enc/cut.ts")
        let refused = try await SegmentInspector(source: LocalSegmentSource()).inspect(
            SegmentRequest(uri: folder.path("enc/cut.ts"), decryption: decryption))
        #expect(refused.byteCount == encrypted - 5)
        #expect(
            refused.problem?.contains("not a whole number of 16-byte AES blocks") == true,
            "\(refused.problem ?? "no problem")")
    }

    @Test func buffersHoldTheSameFewBytesWhateverTheSegmentSize() async throws {
        let folder = try Self.bigSegments()
        let ts = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("big.ts")))
        try folder.write(Data(ts + ts + ts + ts), to: "bigger.ts")
        var peaks: [Int] = []
        for name in ["big.ts", "bigger.ts"] {
            let gauge = BufferGauge()
            let facts = try await SegmentInspector(source: LocalSegmentSource()).inspect(
                SegmentRequest(uri: folder.path(name), wantsStreamInfo: true), gauge: gauge)
            #expect(facts.tracks.contains { $0.kind == .audio && $0.packetCount > 1000 })
            peaks.append(gauge.peak)
        }
        #expect(peaks[0] == peaks[1], "4× the bytes, the same buffers: \(peaks)")
        #expect(peaks[1] <= ByteCursor.defaultWindowSize + Int(ReaderInput.bufferSize))
        #expect(peaks[1] * 10 < ts.count * 4)
    }

    /// Segments of 16 MiB and more are demuxed and scanned side by side: the same facts.
    @Test func concurrentPassesGiveTheSameFacts() async throws {
        let folder = try Self.bigSegments()
        let audio = [UInt8](try Data(contentsOf: folder.url.appendingPathComponent("big.aac")))
        try folder.write(Data(audio + Self.trailingTag), to: "tagged.aac")
        for name in ["big.ts", "tagged.aac"] {
            let source = try LocalSegmentSource().openSync(folder.path(name), range: nil)
            let together = try await SegmentInspector.inspectConcurrently(
                uri: folder.path(name), segment: source, initSection: nil, wantsStreamInfo: true, wantsDecode: false,
                maximumImagePixels: ImageHeader.defaultMaximumPixels, maximumID3Bytes: EmbeddedID3.maximumPESSize)
            let inTurn = try await SegmentInspector(source: LocalSegmentSource()).inspect(
                SegmentRequest(uri: folder.path(name), wantsStreamInfo: true), gauge: BufferGauge())
            #expect(together == inTurn, "\(name)")
            #expect(!together.id3.isEmpty || name == "big.ts")
        }
    }

    /// A window far smaller than the fixtures: every tag, packet and resynchronisation crosses
    /// window edges, damaged or not, and the facts stay those of the whole bytes.
    @Test(arguments: DamagedSegmentTests.files, [nil] + DamagedSegmentTests.Damage.allCases.map(Optional.some))
    func aSmallWindowGivesTheFactsOfTheWholeBytes(_ file: String, damage: DamagedSegmentTests.Damage?) throws {
        let original = try Fixtures.bytes(file)
        let bytes = damage?.apply(original) ?? original
        let whole = try Self.facts(bytes, uri: file, windowed: false)
        let windowed = try Self.facts(bytes, uri: file, windowed: true, windowSize: 1024)
        #expect(windowed == whole, "\(file) \(damage.map(\.rawValue) ?? "intact")")
    }
}
