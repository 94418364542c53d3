@testable import HLSEmbedding
import Testing

/// The names rewritten segments get: what a repository of streams sees change after an embed.
@Suite("Segment names")
struct SegmentNameTests {
    @Test(
        "the fingerprint goes before the extension, replacing one already there",
        arguments: [
            ("seg0.ts", "seg0.embed-0123abcd.ts"),
            ("audio/seg0.ts", "audio/seg0.embed-0123abcd.ts"),
            ("seg0.embed-ffff0000.ts", "seg0.embed-0123abcd.ts"),
            ("audio/seg0.embed-ffff0000.ts?v=2#t", "audio/seg0.embed-0123abcd.ts?v=2#t"),
            ("seg0.ts?a/b.c", "seg0.embed-0123abcd.ts?a/b.c"),
            ("http://cdn.example/a.b/seg", "http://cdn.example/a.b/seg.embed-0123abcd"),
            (".hidden", ".hidden.embed-0123abcd"),
            ("a.tar.ts", "a.tar.embed-0123abcd.ts"),
            // Not our marker: upper-case hex, seven digits, another word before them.
            ("seg0.embed-FFFF0000.ts", "seg0.embed-FFFF0000.embed-0123abcd.ts"),
            ("seg0.embed-fff0000.ts", "seg0.embed-fff0000.embed-0123abcd.ts"),
            ("seg0.embedx-ffff0000.ts", "seg0.embedx-ffff0000.embed-0123abcd.ts"),
            ("視頻/片段.embed-ffff0000.ts", "視頻/片段.embed-0123abcd.ts"),
        ])
    func renamed(_ uri: String, _ expected: String) {
        #expect(SegmentName.renamed(uri, fingerprint: "0123abcd") == expected)
    }

    @Test("a name is told as a rewrite of another by the marker and eight hex digits")
    func isRenaming() {
        #expect(SegmentName.isRenaming("seg0.embed-0123abcd.ts", of: "seg0.ts"))
        #expect(SegmentName.isRenaming("seg0.embed-0123abcd.ts", of: "seg0.embed-ffff0000.ts"))
        #expect(SegmentName.isRenaming("片段.embed-0123abcd.ts", of: "片段.ts"))
        #expect(!SegmentName.isRenaming("seg0.embed-0123ABCD.ts", of: "seg0.ts"))
        #expect(!SegmentName.isRenaming("seg0.embed-0123abcd.aac", of: "seg0.ts"))
        #expect(!SegmentName.isRenaming("seg1.embed-0123abcd.ts", of: "seg0.ts"))
        #expect(!SegmentName.isRenaming("seg0.embed-0123abc.ts", of: "seg0.ts"))
        #expect(!SegmentName.isRenaming("seg0.ts", of: "seg0.ts"))
    }

    /// Reference values of XXH64 (seed 0), from the `xxhash` Python package, over every path of
    /// the function: under 32 bytes, whole stripes, and 8-, 4- and 1-byte tails.
    static let allBytesThriceAndXYZ: [UInt8] =
        Array(repeating: Array(0...255), count: 3).flatMap { $0 } + Array("xyz".utf8)
    static let xxh64Vectors: [(bytes: [UInt8], hash: UInt64)] = [
        ([], 0xEF46_DB37_51D8_E999),
        (Array("a".utf8), 0xD24E_C4F1_A98C_6E5B),
        (Array("abc".utf8), 0x44BC_2CF5_AD77_0999),
        (Array("0123456789abcdef0123456789abcdef0".utf8), 0xE876_84F0_8D6D_0816),
        (allBytesThriceAndXYZ, 0xE921_A1B4_5BD7_79F8),
    ]

    @Test("XXH64 gives the reference values")
    func xxh64() {
        for vector in Self.xxh64Vectors {
            #expect(vector.bytes.withUnsafeBytes { XXH64.hash($0) } == vector.hash, "\(vector.bytes.count) bytes")
        }
    }

    @Test("the fingerprint is XXH64 folded to eight lowercase hex digits")
    func fingerprint() {
        let bytes = Self.allBytesThriceAndXYZ
        #expect(SegmentName.fingerprint(bytes) == "b2f6d84c")  // 0xE921A1B4 ^ 0x5BD779F8
        #expect(SegmentName.fingerprint([]) == "be9e32ae")  // 0xEF46DB37 ^ 0x51D8E999
    }
}
