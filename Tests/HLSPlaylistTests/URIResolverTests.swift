import HLSPlaylist
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
}
