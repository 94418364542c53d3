import Foundation
import Testing
@testable import MediaInspection

/// Third-party segments from /work/shared/corpus (not committed): each must inspect without a
/// crash. Skipped when the corpus is absent, as on a user's machine.
struct CorpusTests {
    struct Entry: Decodable { var corpus_path: String; var kind: String }

    static let segments: [String] = {
        guard let corpus = Fixtures.corpus,
            let data = try? Data(contentsOf: corpus.appendingPathComponent("index.json")),
            let entries = try? JSONDecoder().decode([Entry].self, from: data)
        else { return [] }
        return entries.filter { $0.kind == "segment" }.map { corpus.appendingPathComponent($0.corpus_path).path }
    }()

    @Test(.enabled(if: !segments.isEmpty, "shared corpus not present"))
    func corpusSegmentsInspectWithoutCrashing() async throws {
        let inspector = SegmentInspector(source: LocalSegmentSource())
        let results = await inspector.inspectAll(Self.segments.map { SegmentRequest(uri: $0, wantsStreamInfo: true) })
        #expect(results.count == Self.segments.count)
        for (path, result) in zip(Self.segments, results) {
            let facts = try result.get()
            #expect(facts.uri == path)
            if ProcessInfo.processInfo.environment["HLSCHECK_CORPUS_REPORT"] != nil {
                let tracks = facts.tracks.map { track in
                    let size = track.width.flatMap { w in track.height.map { " \(w)x\($0)" } } ?? ""
                    let audio = track.channels.map { " \($0)ch" } ?? ""
                    return "\(track.kind.rawValue):\(track.codecString ?? track.codecName)\(size)\(audio)"
                }.joined(separator: ",")
                let id3 = facts.id3.map {
                    $0.frames.map(\.id).joined(separator: "+") + ($0.problem.map { "!\($0)" } ?? "")
                }
                print(
                    "CORPUS \((path as NSString).lastPathComponent) \(facts.container.rawValue) [\(tracks)] dur=\(facts.duration.map { String(format: "%.3f", $0) } ?? "-") id3=\(id3) tsts=\(facts.transportStreamTimestamp.map(String.init) ?? "-") problem=\(facts.problem ?? "-")"
                )
            }
        }
    }

    /// The cheap path (no find_stream_info; size from the SPS, codec string from parameter
    /// sets or ADTS) must agree with libav's full analysis wherever both know the answer.
    @Test(.enabled(if: !segments.isEmpty, "shared corpus not present"))
    func cheapPathAgreesWithStreamInfo() async throws {
        let inspector = SegmentInspector(source: LocalSegmentSource())
        for path in Self.segments {
            let cheap = try await inspector.inspect(SegmentRequest(uri: path))
            let full = try await inspector.inspect(SegmentRequest(uri: path, wantsStreamInfo: true))
            for (a, b) in zip(cheap.tracks, full.tracks) where b.packetCount > 0 {
                #expect(a.kind == b.kind, "\(path)")
                if let w = b.width, let h = b.height { #expect(a.width == w && a.height == h, "\(path)") }
                if let c = b.codecString, b.kind == .video { #expect(a.codecString == c, "\(path)") }
                if let ch = b.channels, a.channels != nil { #expect(a.channels == ch, "\(path)") }
            }
            if let d = full.duration, let c = cheap.duration {
                #expect(abs(d - c) < 0.05, "\(path): \(c) vs \(d)")
            }
        }
    }
}
