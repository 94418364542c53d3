import Foundation
import HLSPlaylist
import TestSupport
import Testing

/// The third-party corpus in `../shared/corpus` (a sibling of the package root). Absent on a
/// user's machine: then every corpus test has an empty argument list and nothing runs.
enum Corpus {
    struct Entry: Sendable, Decodable, CustomTestStringConvertible {
        var corpus_path: String
        var kind: String
        var verdict: String

        var testDescription: String { corpus_path }
        var isValid: Bool { verdict.hasPrefix("valid") }
        var isInvalid: Bool { verdict.hasPrefix("INVALID") }
    }

    static let directory: URL? = PackageRoot.corpus

    static let entries: [Entry] = {
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent("index.json")) else {
            return []
        }
        return (try? JSONDecoder().decode([Entry].self, from: data)) ?? []
    }()

    static var playlists: [Entry] { entries.filter { $0.kind == "playlist" } }
    static var expectedParses: [Entry] { entries.filter { $0.kind == "expected-parse-json" } }

    static func bytes(_ path: String) throws -> [UInt8] {
        let directory = try #require(Corpus.directory)
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
    }
}

@Suite("Third-party corpus")
struct CorpusTests {
    @Test("every corpus playlist parses to the verdict its source project expects", arguments: Corpus.playlists)
    func corpusPlaylist(_ entry: Corpus.Entry) throws {
        let playlist = PlaylistParser.parse(try Corpus.bytes(entry.corpus_path), uri: entry.corpus_path)
        for problem in playlist.problems {
            #expect(problem.location.line >= 1, "\(problem.message) has no line")
            #expect(problem.location.uri == entry.corpus_path)
        }
        let errors = playlist.errors.map { "\($0.location) \($0.message)" }
        if entry.isValid {
            if CorpusExceptions.validButBreaksSpec[entry.corpus_path] != nil {
                #expect(
                    !errors.isEmpty,
                    "listed as breaking the spec, but parses without error: remove it from CorpusExceptions")
            } else {
                #expect(errors.isEmpty, "valid playlist reported: \(errors)")
            }
        } else if entry.isInvalid {
            #expect(playlist.problems.contains { $0.location.line >= 1 }, "INVALID playlist without a located problem")
        }
    }

    @Test("videojs/m3u8-parser fixtures parse like its expected JSON", arguments: Corpus.expectedParses)
    func videojsExpectedParse(_ entry: Corpus.Entry) throws {
        let name = (entry.corpus_path as NSString).lastPathComponent.replacingOccurrences(of: ".json", with: "")
        let fixture = "videojs-m3u8-parser/test/fixtures/integration/\(name).m3u8"
        guard let directory = Corpus.directory,
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(fixture).path)
        else { return }
        let expected = try #require(
            try JSONSerialization.jsonObject(with: Data(Corpus.bytes(entry.corpus_path))) as? [String: Any])
        let playlist = PlaylistParser.parse(try Corpus.bytes(fixture), uri: fixture)

        let expectedSegments = expected["segments"] as? [[String: Any]] ?? []
        let expectedVariants = expected["playlists"] as? [[String: Any]] ?? []
        if let media = playlist.media {
            #expect(media.segments.count == expectedSegments.count)
            for (segment, e) in zip(media.segments, expectedSegments) {
                if let uri = e["uri"] as? String { #expect(segment.uri == uri) }
                // videojs fills a missing EXTINF with the target duration and a zero one with
                // 0.01 s; our model keeps what the file says (and reports the missing EXTINF).
                if let duration = (e["duration"] as? NSNumber)?.doubleValue, segment.extinfLine != nil,
                    segment.duration > 0
                {
                    #expect(
                        abs(segment.duration - duration) < 1e-9, "segment \(segment.uri) at line \(segment.uriLine)")
                }
                if let range = e["byterange"] as? [String: Any],
                    let length = (range["length"] as? NSNumber)?.intValue,
                    let offset = (range["offset"] as? NSNumber)?.intValue
                {
                    #expect(
                        segment.byteRange == ByteRange(length: length, offset: offset),
                        "segment at line \(segment.uriLine)")
                }
            }
            #expect(expectedVariants.isEmpty)
        } else if let multivariant = playlist.multivariant {
            #expect(multivariant.variants.count == expectedVariants.count)
            for (variant, e) in zip(multivariant.variants, expectedVariants) {
                if let uri = e["uri"] as? String { #expect(variant.uri == uri) }
                let attributes = e["attributes"] as? [String: Any] ?? [:]
                if let bandwidth = (attributes["BANDWIDTH"] as? NSNumber)?.intValue {
                    #expect(variant.bandwidth == bandwidth)
                }
                if let codecs = attributes["CODECS"] as? String {
                    #expect(variant.attributes.string("CODECS") == codecs)
                }
                if let resolution = attributes["RESOLUTION"] as? [String: Any] {
                    #expect(variant.resolution?.width == (resolution["width"] as? NSNumber)?.intValue)
                    #expect(variant.resolution?.height == (resolution["height"] as? NSNumber)?.intValue)
                }
            }
        }
    }
}
