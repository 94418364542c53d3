import Foundation
@testable import MediaInspection
import TestSupport
import StreamSources

/// Paths to the committed fixtures and to the optional shared corpus.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// `../shared/corpus` next to the package root, or `HLSCHECK_CORPUS`; nil when absent.
    static let corpus: URL? = PackageRoot.corpus

    static func inspect(_ name: String, streamInfo: Bool = false) async throws -> SegmentFacts {
        try await SegmentInspector(source: LocalSegmentSource()).inspect(
            SegmentRequest(uri: path(name), wantsStreamInfo: streamInfo))
    }
}

/// Serves bytes from memory, for damaged variants of the fixtures.
struct MemorySource: SegmentByteSource {
    var files: [String: [UInt8]]

    func read(_ uri: String, range: SegmentByteRange?) async throws -> [UInt8] {
        guard let bytes = files[uri] else { throw InputReadError(uri: uri, reason: "no such file") }
        guard let range else { return bytes }
        return Array(bytes[range.offset..<(range.offset + range.length)])
    }
}
