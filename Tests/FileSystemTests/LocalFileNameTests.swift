import Foundation
import FileSystem
import Testing
import TestSupport

/// How a URI in a stream on disk maps to a file (RFC 8216 §4.1, RFC 3986 §2.1).
@Suite("Local file names")
struct LocalFileNameTests {
    @Test(arguments: [
        ("lo%20001.ts", "lo 001.ts"),
        ("seg.ts?v=1&token=x", "seg.ts"),
        ("seg.ts#t=10", "seg.ts"),
        ("file:///abs/caf%C3%A9.ts?x", "/abs/café.ts"),
        ("a%2520b.ts", "a%20b.ts"),
        ("100%.ts", "100%.ts"),
        ("bad%zz.ts?q", "bad%zz.ts"),
        ("%2E%2E/up.ts", "../up.ts"),
    ])
    func mapsTheURIToTheNameItMeans(_ uri: String, _ path: String) {
        let isURL = uri.hasPrefix("file://")
        let name = LocalFileName(uri: isURL ? uri : "/nonexistent-hlscheck-folder/" + uri)
        let expected = isURL ? path : "/nonexistent-hlscheck-folder/" + path
        #expect(name.refusal == nil)
        #expect(name.path == expected)
    }

    @Test(arguments: ["..%2Fsecret.ts", "..%2f..%2fetc%2fpasswd", "seg.ts%00.jpg", "caf%E9.ts"])
    func refusesEscapesThatNameNoFile(_ uri: String) {
        let name = LocalFileName(uri: uri)
        #expect(name.refusal != nil, "\(uri) was mapped to \(name.path)")
    }

    @Test func fallsBackToTheNameAsWrittenOnlyWhenTheDecodedOneIsMissing() throws {
        let folder = try TemporaryFolder(["a%20b.ts": "literal", "c d.ts": "decoded", "c%20d.ts": "literal too"])
        #expect(LocalFileName(uri: folder.path("a%20b.ts")).path == folder.path("a%20b.ts"))
        #expect(LocalFileName(uri: folder.path("c%20d.ts")).path == folder.path("c d.ts"))
        let missing = LocalFileName(uri: folder.path("e%20f.ts?v=1"))
        #expect(missing.path == folder.path("e f.ts"))
        #expect(missing.triedNames?.contains("'\(folder.path("e f.ts"))'") == true)
        #expect(missing.triedNames?.contains("'\(folder.path("e%20f.ts?v=1"))' (as written)") == true)
        #expect(LocalFileName(uri: folder.path("plain.ts")).triedNames == nil)
    }

    @Test func aDecodedNameThatIsALoopingOrDanglingLinkIsTheOneRead() throws {
        // Read, it says what the link does (it loops, it points nowhere), not "no such file".
        let folder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: folder.path("lo op.ts"), withDestinationPath: "lo op.ts")
        try FileManager.default.createSymbolicLink(atPath: folder.path("da ngling.ts"), withDestinationPath: "gone.ts")
        for decoded in ["lo op.ts", "da ngling.ts"] {
            let name = LocalFileName(uri: folder.path(decoded.replacingOccurrences(of: " ", with: "%20")))
            #expect(name.path == folder.path(decoded))
            #expect(!name.isMissing, "\(decoded) is an entry of its folder")
        }
        #expect(LocalFileName(uri: folder.path("e%20f.ts")).isMissing)
    }
}
