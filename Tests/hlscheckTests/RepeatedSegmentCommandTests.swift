import Foundation
import HTTPTestServer
import TestSupport
import Testing

/// A playlist that lists one segment on many lines: the segment is fetched and inspected once
/// (SegmentFactsCache), and every line still gets the findings it would get if it named a file of
/// its own (docs/security.md, "Repeated segments").
@Suite("hlscheck with a segment listed many times")
struct RepeatedSegmentCommandTests {
    static let lines = 40

    /// One folder, two forms of one stream: `repeated.m3u8` lists `seg.ts` on every line,
    /// `copies.m3u8` lists `copy-N.ts`, each a copy of the same bytes.
    static func twoForms() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let segment = try Data(contentsOf: PackageRoot.url.appendingPathComponent("Samples/compliant/audio/seg1.ts"))
        try folder.write(segment, to: "seg.ts")
        var repeated = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        var copies = repeated
        for index in 0..<lines {
            try folder.write(segment, to: "copy-\(index).ts")
            // One EXTINF in ten is too long: a per-line finding the cache must not smear.
            let extinf = index % 10 == 3 ? "7.5" : "5.990756"
            repeated += "#EXTINF:\(extinf),\nseg.ts\n"
            copies += "#EXTINF:\(extinf),\ncopy-\(index).ts\n"
        }
        try folder.write(Data((repeated + "#EXT-X-ENDLIST\n").utf8), to: "repeated.m3u8")
        try folder.write(Data((copies + "#EXT-X-ENDLIST\n").utf8), to: "copies.m3u8")
        return folder
    }

    /// Each finding as rule, line and message, the segment's name made the same in both forms.
    static func findings(_ json: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
        let copyName = try NSRegularExpression(pattern: "copy-[0-9]+\\.ts")
        return diagnostics.map { finding in
            let location = finding["location"] as? [String: Any]
            let line = "\(finding["rule"] ?? "") line \(location?["line"] ?? "-"): \(finding["message"] ?? "")"
            return copyName.stringByReplacingMatches(
                in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "seg.ts"
            )
            .replacingOccurrences(of: "copies.m3u8", with: "repeated.m3u8")
        }
    }

    @Test func aSegmentListedOnEveryLineIsFetchedOnceAndEveryLineKeepsItsFindings() async throws {
        let folder = try Self.twoForms()
        let server = try await HTTPTestServer(folder: folder.url.path)
        let repeated: CommandResult, copies: CommandResult, requests: [ReceivedRequest]
        do {
            repeated = try await HLSCheckBinary.run([server.url("repeated.m3u8"), "--format", "json"])
            requests = server.requests
            copies = try await HLSCheckBinary.run([server.url("copies.m3u8"), "--format", "json"])
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
        // One GET for forty lines (main fetched it forty times).
        #expect(requests.filter { $0.path.hasSuffix("/seg.ts") }.count == 1)
        // The same findings on the same lines as forty files of the same bytes give.
        let found = try Self.findings(repeated.stdout)
        #expect(found == (try Self.findings(copies.stdout)))
        #expect(repeated.status == copies.status)
        // Every fourth-in-ten line keeps its own too-long EXTINF, on its own line.
        let tooLong = found.filter {
            $0.hasPrefix("target-duration-exceeded") || $0.hasPrefix("extinf-duration-mismatch")
        }
        #expect(Set(tooLong.compactMap { $0.split(separator: ":").first }).count >= Self.lines / 10, "\(found)")
    }
}
