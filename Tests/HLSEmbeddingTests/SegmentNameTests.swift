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
}
