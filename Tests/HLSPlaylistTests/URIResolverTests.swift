@testable import HLSPlaylist
import Testing

@Suite("URI resolution (RFC 3986 §5)")
struct URIResolverTests {
    static let base = "http://a/b/c/d;p?q"

    /// RFC 3986 §5.4.1 and §5.4.2 (strict parser).
    static let examples: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ]

    @Test("RFC 3986 §5.4 examples", arguments: examples)
    func rfc3986Example(_ example: (String, String)) {
        #expect(URIResolver.resolve(example.0, against: Self.base) == example.1)
    }

    @Test(
        "local paths stay paths",
        arguments: [
            ("audio/index.m3u8", "streams/master.m3u8", "streams/audio/index.m3u8"),
            ("../x/index.m3u8", "streams/master.m3u8", "x/index.m3u8"),
            ("../x.m3u8", "master.m3u8", "../x.m3u8"),
            ("a.m3u8", "/tmp/s/master.m3u8", "/tmp/s/a.m3u8"),
            ("../a.m3u8", "/tmp/s/master.m3u8", "/tmp/a.m3u8"),
            ("/abs/a.m3u8", "rel/master.m3u8", "/abs/a.m3u8"),
            ("http://cdn/a.m3u8", "/tmp/master.m3u8", "http://cdn/a.m3u8"),
            ("seg.ts", "master.m3u8", "seg.ts"),
        ])
    func localPath(_ reference: String, _ base: String, _ expected: String) {
        #expect(URIResolver.resolve(reference, against: base) == expected)
    }

    /// The bytes-only road for plain references must give what the component-wise resolution
    /// gives, for every base it takes and every base it leaves to the other.
    static let bases = [
        "http://a/b/c/d;p?q", "http://a/b/c/d", "http://a", "http://a/", "https://cdn.example/v0/index.m3u8",
        "HTTP://a/b/c", "file:///tmp/s/audio/index.m3u8", "file://host/s/x.m3u8", "file:x.m3u8",
        "streams/master.m3u8", "master.m3u8", "/tmp/s/master.m3u8", "/", "", "//host/p/x.m3u8",
        "../up/index.m3u8", "a/./b/index.m3u8", "a/../b/index.m3u8", "/tmp/a:b/index.m3u8",
        "Stream %231/v0/index.m3u8", "a//b/index.m3u8", "x/index.m3u8#frag", "C:/streams/index.m3u8",
        "mailto:x", "/tmp/s/.hidden/index.m3u8", "/tmp/s/../index.m3u8", "/tmp/s/./",
    ]
    static let references = [
        "seg0.ts", "audio/seg0.ts", "a//b.ts", ".hidden.ts", "..g", "g..", "...", "a/.../b.ts", "ñ/視頻.ts",
        "./seg.ts", "../seg.ts", "a/./b.ts", "a/..", ".", "..", "seg.ts?v=1", "seg.ts#t", "/abs.ts", "//h/x.ts",
        "g:h", "a:b/c.ts", "C:/x.ts", "", "seg%20.ts",
    ]

    @Test("the plain road resolves as the component-wise one", arguments: bases)
    func plainRoadAgrees(_ base: String) {
        for reference in Self.references {
            #expect(
                URIResolver.resolve(reference, against: base)
                    == URIResolver.resolveComponents(reference, against: base), "\(reference) against \(base)")
        }
    }

    @Test("plain references against plain bases take the plain road")
    func plainRoadIsTaken() {
        for base in ["https://cdn.example/v0/index.m3u8", "file:///tmp/s/index.m3u8", "s/master.m3u8", "m.m3u8"] {
            for reference in ["seg0.ts", "audio/seg0.ts", "..g", "ñ/視頻.ts"] {
                #expect(URIResolver.resolvePlain(reference, against: base) != nil, "\(reference) against \(base)")
            }
        }
        // A dot segment in the folder, a query, a scheme the bytes do not tell: the other road.
        for base in ["a/../b/index.m3u8", "http://a/b?q", "mailto:x", "http://a"] {
            #expect(URIResolver.resolvePlain("seg0.ts", against: base) == nil, "\(base)")
        }
    }
}
