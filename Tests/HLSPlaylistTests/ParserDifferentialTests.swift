import Foundation
import HLSCheck
import HLSPlaylist
import TestSupport
import Testing

/// The parser and the playlist rules were rewritten for speed without changing what
/// they report. This test holds them to that: for every playlist of the third-party corpus, the
/// samples and the test fixtures — as written, with CRLF line ends and trailing blanks, cut in
/// half, and with a few deterministic byte edits (what the fuzzer's seeds are made from) — a
/// digest of the whole parsed model (every field, every problem with its line, column and
/// message) and of the playlist-only check's diagnostics must equal the one recorded in
/// `Tests/Snapshots/playlist-differential.txt`, which was produced by the parser before the
/// rewrite. `HLSCHECK_UPDATE_GOLDEN=1` rewrites it (only for a deliberate change of output).
@Suite("Parser differential snapshot")
struct ParserDifferentialTests {
    static let snapshotURL = PackageRoot.url.appendingPathComponent("Tests/Snapshots/playlist-differential.txt")

    struct Input: Sendable, CustomTestStringConvertible {
        /// A stable name: `corpus/<path>` or `package/<path>`.
        var name: String
        var path: String
        var testDescription: String { name }
    }

    /// Every playlist this machine has: the package's own, then the corpus's when present.
    static let inputs: [Input] = {
        var inputs: [Input] = []
        let root = PackageRoot.url.path
        for folder in ["Samples", "Tests"] {
            let base = (root as NSString).appendingPathComponent(folder)
            let paths = (try? FileManager.default.subpathsOfDirectory(atPath: base)) ?? []
            for path in paths.sorted() where path.hasSuffix(".m3u8") || path.hasSuffix(".m3u") {
                inputs.append(
                    Input(name: "package/\(folder)/\(path)", path: (base as NSString).appendingPathComponent(path)))
            }
        }
        if let corpus = Corpus.directory {
            for entry in Corpus.playlists.sorted(by: { $0.corpus_path < $1.corpus_path }) {
                inputs.append(
                    Input(
                        name: "corpus/\(entry.corpus_path)", path: corpus.appendingPathComponent(entry.corpus_path).path
                    ))
            }
        }
        return inputs
    }()

    static func recorded() -> [String: String] {
        guard let text = try? String(contentsOf: snapshotURL, encoding: .utf8) else { return [:] }
        var table: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            table[String(line[line.index(after: space)...])] = String(line[..<space])
        }
        return table
    }

    @Test("parsed model and playlist-only diagnostics equal the snapshot taken before the rewrite")
    func matchesSnapshot() async throws {
        let update = ProcessInfo.processInfo.environment["HLSCHECK_UPDATE_GOLDEN"] == "1"
        let recorded = Self.recorded()
        var computed: [(key: String, digest: String)] = []
        for input in Self.inputs {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: input.path)))
            // The variants of the few large playlists (40 000 segments) add time, not paths.
            let variants = bytes.count <= 200_000 ? Self.variants(of: bytes) : [("as-written", bytes)]
            for (variant, variantBytes) in variants {
                let key = "\(input.name) \(variant)"
                let digest = Self.digest(of: PlaylistParser.parse(variantBytes, uri: "p.m3u8"))
                computed.append((key, digest))
                if !update {
                    #expect(recorded[key] == digest, "\(key): the parsed model differs from the snapshot")
                }
            }
            let key = "\(input.name) check"
            let digest = try await Self.checkDigest(of: input.path)
            computed.append((key, digest))
            if !update {
                #expect(recorded[key] == digest, "\(key): the playlist-only diagnostics differ from the snapshot")
            }
        }
        #expect(computed.count > 10)
        if update {
            // Merge: entries for files this machine lacks (the corpus) are kept.
            var table = recorded
            for (key, digest) in computed { table[key] = digest }
            let text = table.keys.sorted().map { "\(table[$0]!) \($0)\n" }.joined()
            try FileManager.default.createDirectory(
                at: Self.snapshotURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: Self.snapshotURL)
        }
    }

    /// The file as written, and three variants that take the parser down its other paths.
    static func variants(of bytes: [UInt8]) -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = [("as-written", bytes)]
        var crlf: [UInt8] = []
        crlf.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte == 0x0A { crlf += [0x20, 0x09, 0x0D] }
            crlf.append(byte)
        }
        result.append(("crlf", crlf))
        result.append(("half", Array(bytes.prefix(bytes.count / 2))))
        // Edits from the grammar's own characters at positions a fixed generator picks.
        var edited = bytes
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        let alphabet = Array("\",=:@#\n {$}-.x0 9AZé\t\r".utf8)
        if !edited.isEmpty {
            for _ in 0..<max(8, bytes.count / 200) {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                let position = Int(state % UInt64(edited.count))
                edited[position] = alphabet[Int((state >> 32) % UInt64(alphabet.count))]
            }
        }
        result.append(("edited", edited))
        return result
    }

    /// The playlist-only check of a file, its paths made relative.
    static func checkDigest(of given: String) async throws -> String {
        // The loader reads each playlist by its real path: resolve links first (../shared may be
        // a link to the corpus), so that the folder replaced below is the one reports name.
        let path = URL(fileURLWithPath: given).resolvingSymlinksInPath().path
        let folder = (path as NSString).deletingLastPathComponent
        var configuration = CheckConfiguration(playlistOnly: true)
        configuration.confinement = Confinement(root: folder)
        let checker = Checker(configuration: configuration)
        var text = ""
        do {
            let report = try await checker.check(path)
            for d in report.diagnostics {
                text +=
                    "\(d.rule) \(d.severity) \(d.suppressed) \(d.location.map { "\($0.uri):\($0.line):\($0.column)" } ?? "-") \(d.message)\n"
            }
            for v in report.variants { text += "\(v)\n" }
        } catch {
            text = "error \(error.description)"
        }
        // Samples that reuse ../compliant name files outside their folder: the clone's own
        // location must not reach the digest either.
        let package = PackageRoot.url.resolvingSymlinksInPath().path
        return fnv1a(
            text.replacingOccurrences(of: folder, with: "DIR").replacingOccurrences(of: package, with: "PACKAGE"))
    }

    static func digest(of playlist: Playlist) -> String {
        var text = ""
        canonical(playlist, into: &text)
        return fnv1a(text)
    }

    /// Every stored property, recursively; dictionaries and sets in sorted order (their
    /// iteration order changes from run to run).
    static func canonical(_ value: Any, into text: inout String) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary?, .set?:
            var parts: [String] = []
            for child in mirror.children {
                var part = ""
                canonical(child.value, into: &part)
                parts.append(part)
            }
            text += "{" + parts.sorted().joined(separator: ",") + "}"
        case .optional?:
            if let child = mirror.children.first { canonical(child.value, into: &text) } else { text += "nil" }
        case .collection?:
            text += "["
            for child in mirror.children {
                canonical(child.value, into: &text)
                text += ","
            }
            text += "]"
        case .enum?:
            if mirror.children.isEmpty {
                text += String(describing: value)
            } else {
                for child in mirror.children {
                    text += ".\(child.label ?? "")("
                    canonical(child.value, into: &text)
                    text += ")"
                }
            }
        case .struct?, .class?, .tuple?:
            text += "("
            for child in mirror.children {
                text += "\(child.label ?? ""):"
                canonical(child.value, into: &text)
                text += ";"
            }
            text += ")"
        default:
            text += String(reflecting: value)
        }
    }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
