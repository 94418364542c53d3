import Foundation
import Testing
import MediaFormats
import TestSupport

/// The shared third-party corpus (../shared/corpus from the package root, or $HLSCHECK_CORPUS).
/// It is absent on users' machines: tests then return without failing.
enum Corpus {
    static let directory: URL? = PackageRoot.corpus

    static func segment(_ path: String) -> [UInt8]? {
        guard let directory,
            let data = FileManager.default.contents(atPath: directory.appendingPathComponent(path).path)
        else {
            return nil
        }
        return [UInt8](data)
    }

    /// corpus_path of every entry whose kind is "segment".
    static let segmentPaths: [String] = {
        guard let directory,
            let data = FileManager.default.contents(atPath: directory.appendingPathComponent("index.json").path),
            let json = try? JSONSerialization.jsonObject(with: data)
        else { return [] }
        let entries = (json as? [[String: Any]]) ?? ((json as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
        return entries.filter { $0["kind"] as? String == "segment" }.compactMap { $0["corpus_path"] as? String }
            .sorted()
    }()
}

struct CorpusExpectation: Sendable, CustomTestStringConvertible {
    var path: String
    var container: ContainerKind
    var offsets: [Int]
    var pts90k: [Int64?]
    var frames: [[ID3Frame]?]
    var testDescription: String { path }
}

let timestampOwner = TransportStreamTimestamp.owner

@Suite("ID3 in real corpus segments")
struct CorpusSegmentTests {
    static let expectations: [CorpusExpectation] = [
        // Packed AC-3 and AAC: one leading ID3v2.4 tag with only Apple's timestamp PRIV.
        CorpusExpectation(
            path: "videojs-http-streaming/test/segments/ac3WithId3.ac3", container: .packedAudio,
            offsets: [0], pts90k: [900_000],
            frames: [[.privateData(owner: timestampOwner, data: [0, 0, 0, 0, 0, 0x0D, 0xBB, 0xA0])]]),
        CorpusExpectation(
            path: "videojs-muxjs/test/segments/test-aac-segment.aac", container: .packedAudio,
            offsets: [0], pts90k: [895_690],
            frames: [[.privateData(owner: timestampOwner, data: [0, 0, 0, 0, 0, 0x0D, 0xAA, 0xCA])]]),
        // A 45-byte tag with major version 0: reported as unreadable, and the audio after it is still walked.
        CorpusExpectation(
            path: "videojs-http-streaming/test/segments/aacWithId3.aac", container: .packedAudio,
            offsets: [0], pts90k: [nil], frames: [nil]),
        CorpusExpectation(
            path: "videojs-http-streaming/test/segments/aacWithoutId3.aac", container: .packedAudio,
            offsets: [], pts90k: [], frames: []),
        CorpusExpectation(
            path: "videojs-http-streaming/test/segments/ac3WithoutId3.ac3", container: .packedAudio,
            offsets: [], pts90k: [], frames: []),
        // TS with a timed-ID3 PID (stream_type 0x15, metadata descriptors): one TXXX each.
        CorpusExpectation(
            path: "videojs-http-streaming/test/segments/id3.ts", container: .mpegTS,
            offsets: [564], pts90k: [900_001],
            frames: [[.userText(description: "", value: "{\"id\":1, \"data\": \"id3\"}\n")]]),
        CorpusExpectation(
            path: "videojs-http-streaming/test/segments/zeroLength.ts", container: .mpegTS,
            offsets: [376], pts90k: [900_000],
            frames: [[.userText(description: "", value: "test zero length")]]),
        CorpusExpectation(
            path: "videojs-muxjs/test/segments/test-segment.ts", container: .mpegTS,
            offsets: [], pts90k: [], frames: []),
    ]

    @Test("finds the ID3 tags each segment holds", arguments: expectations)
    func findsTags(expected: CorpusExpectation) throws {
        guard let bytes = Corpus.segment(expected.path) else { return }  // corpus absent: skip
        #expect(EmbeddedID3.sniffContainer(bytes[...]) == expected.container)
        let found = EmbeddedID3.tags(in: bytes, container: expected.container)
        #expect(found.map(\.offset) == expected.offsets)
        #expect(found.map(\.pts90k) == expected.pts90k)
        #expect(found.map { $0.tag?.frames } == expected.frames)
        for tag in found where tag.tag == nil {
            #expect(tag.error?.isEmpty == false)
        }
    }

    @Test("every corpus segment is read without trapping, and its TS continuity is clean")
    func readsAllSegments() {
        for path in Corpus.segmentPaths {
            guard let bytes = Corpus.segment(path) else { continue }
            let kind = EmbeddedID3.sniffContainer(bytes[...])
            _ = EmbeddedID3.tags(in: bytes, container: .unknown)
            if kind == .mpegTS {
                #expect(TransportStream.continuityErrors(in: bytes).isEmpty, "\(path)")
            }
            // Truncating a real segment mid-packet must not trap either.
            _ = EmbeddedID3.tags(in: Array(bytes.prefix(bytes.count / 2 + 7)), container: kind)
        }
    }
}
