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
              let entries = try? JSONDecoder().decode([Entry].self, from: data) else { return [] }
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
                let tracks = facts.tracks.map { "\($0.kind.rawValue):\($0.codecString ?? $0.codecName)" }.joined(separator: ",")
                let id3 = facts.id3.map { $0.frames.map(\.id).joined(separator: "+") + ($0.problem.map { "!\($0)" } ?? "") }
                print("CORPUS \((path as NSString).lastPathComponent) \(facts.container.rawValue) [\(tracks)] dur=\(facts.duration.map { String(format: "%.3f", $0) } ?? "-") id3=\(id3) tsts=\(facts.transportStreamTimestamp.map(String.init) ?? "-") problem=\(facts.problem ?? "-")")
            }
        }
    }
}
