import Foundation
import TestSupport
import Testing

/// The values that crashed `hlscheck` (exit 132, "Swift runtime failure") once, through
/// the real binary with media measurement on: exit 1 with a located finding, in every format.
@Suite("Command line: numbers from files")
struct HostileNumberCommandTests {
    /// A copy of Samples/compliant whose audio playlist's first EXTINF (or BANDWIDTH) is `edit`ed.
    static func stream(multivariant: (String) -> String = { $0 }, audio: (String) -> String = { $0 }) throws
        -> TemporaryFolder
    {
        let source = PackageRoot.url.appendingPathComponent("Samples/compliant")
        let folder = try TemporaryFolder()
        for path in try FileManager.default.subpathsOfDirectory(atPath: source.path) {
            var isDirectory: ObjCBool = false
            let full = source.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: full.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            var data = try Data(contentsOf: full)
            if path == "master.m3u8" { data = Data(multivariant(String(decoding: data, as: UTF8.self)).utf8) }
            if path == "audio/index.m3u8" { data = Data(audio(String(decoding: data, as: UTF8.self)).utf8) }
            try folder.write(data, to: path)
        }
        return folder
    }

    static let extinfValues = [
        "0." + String(repeating: "0", count: 29) + "1", "-1.5", "100000000000000000", "100000000000000000000",
        "400000000000000000000000", String(repeating: "9", count: 400),
    ]

    @Test("a hostile EXTINF is a located error, exit 1, in every format", arguments: extinfValues)
    func hostileExtinf(_ value: String) throws {
        let folder = try Self.stream(audio: {
            $0.replacingOccurrences(of: "#EXTINF:6.013967,", with: "#EXTINF:\(value),")
        })
        // Every reporter renders each value in-process (HLSReportingTests); here the binary's exit
        // code and the two most read formats, and all five for the value that printed `{}`.
        let formats = value.count > 100 ? ["text", "json", "junit", "github", "sarif"] : ["text", "json"]
        for format in formats {
            let result = try HLSCheckBinary.run(["master.m3u8", "--format", format], in: folder.url)
            #expect(result.status == 1, "\(format): exit \(result.status), \(result.stderr.prefix(300))")
            #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("runtime failure"))
            #expect(result.stdout.contains("EXTINF"), "\(format) does not name the problem")
            if format == "text" { #expect(result.stdout.contains("audio/index.m3u8:6:9: error:")) }
            if format == "json" { #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) != "{}") }
        }
    }

    @Test func hugeBandwidthIsALocatedErrorNotATrap() throws {
        let folder = try Self.stream(multivariant: {
            $0.replacingOccurrences(of: "BANDWIDTH=47133", with: "BANDWIDTH=9223372036854775807")
        })
        let result = try HLSCheckBinary.run(["master.m3u8"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("master.m3u8:8:19: error: attribute BANDWIDTH: 9223372036854775807 is out of range"))
    }
}
