import Foundation
import HLSCheck
import HLSPlaylist
import MediaFormats
import Testing
import TestSupport
import FileSystem

/// A path the user gives is a file path, not a URI: its '#', '?', '%' are part of folder names,
/// and the stream's URIs resolve inside that folder (`ResolutionBase`, docs/security.md, "Paths
/// the user gives are not URIs").
@Suite("File paths as the base of resolution")
struct FilePathBaseTests {
    /// Folder names that mean something in a URI, each with one that does not.
    static let awkwardFolders = ["Stream #1", "what?", "100%", "a%20b", "a b", "x;[y]é", "50%25#?&=", "my:stream"]

    static let multivariant = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n"
    static func media(_ segments: [String]) -> String {
        "#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + segments.map { "#EXTINF:6,\n\($0)\n" }.joined() + "#EXT-X-ENDLIST\n"
    }

    @Test(arguments: awkwardFolders)
    func aReferenceResolvesInsideTheFolderTheUserNamed(_ folder: String) {
        for base in ["/srv/\(folder)/show/master.m3u8", "\(folder)/show/master.m3u8"] {
            let resolved = URIResolver.resolve("audio/seg%200.ts?v=1", against: .filePath(base))
            let file = LocalFileName(uri: resolved)
            #expect(file.refusal == nil, "\(base)")
            #expect(
                file.path == base.replacingOccurrences(of: "master.m3u8", with: "audio/seg 0.ts"),
                "\(base) → \(resolved)")
            // `..` climbs the folders the user named, not a query or fragment.
            let up = LocalFileName(uri: URIResolver.resolve("../other/x.m3u8", against: .filePath(base))).path
            #expect(up == base.replacingOccurrences(of: "show/master.m3u8", with: "other/x.m3u8"), "\(base)")
        }
    }

    @Test(arguments: awkwardFolders)
    func theURIOfAPathNamesExactlyThatPath(_ folder: String) {
        for path in ["/srv/\(folder)/master.m3u8", "\(folder)/master.m3u8", "\(folder)", "//srv/\(folder)/m.m3u8"] {
            let uri = LocalFileName.uriReference(forPath: path)
            // Nothing on disk: the decoded name is the one meant, and it is the path typed.
            let expected = path.hasPrefix("//") ? String(path.dropFirst()) : path
            #expect(LocalFileName(uri: uri).path == expected, "\(path) → \(uri)")
            #expect(LocalPath.name(of: uri) != nil, "\(uri) is not taken for a URL")
        }
        // A plain path is its own URI reference: nothing changes for the common case.
        #expect(LocalFileName.uriReference(forPath: "streams/show-1/master.m3u8") == "streams/show-1/master.m3u8")
        #expect(
            ResolutionBase(input: "https://cdn.example/a%20b/m.m3u8?t=1")
                == .uri("https://cdn.example/a%20b/m.m3u8?t=1"))
        #expect(ResolutionBase(input: "file:///srv/a%20b/m.m3u8") == .uri("file:///srv/a%20b/m.m3u8"))
        #expect(ResolutionBase(input: "Stream #1/m.m3u8") == .filePath("Stream #1/m.m3u8"))
    }

    /// What the playlist writes keeps its meaning in a folder the user named with escapes: an
    /// invalid escape stays literal in its own segment only, a name written un-encoded on disk is
    /// found, and an encoded '/' is still refused.
    @Test func theURIRulesHoldForWhatThePlaylistWritesInsideSuchAFolder() throws {
        let tree = try TemporaryFolder([
            "Stream #1/100%.ts": "literal percent",
            "Stream #1/a%20b.ts": "written to disk un-encoded",
            "Stream #1/c d.ts": "decoded",
        ])
        let base = ResolutionBase.filePath(tree.path("Stream #1/index.m3u8"))
        func file(_ written: String) -> LocalFileName {
            LocalFileName(uri: URIResolver.resolve(written, against: base))
        }
        #expect(file("100%.ts").path == tree.path("Stream #1/100%.ts"))
        #expect(file("a%20b.ts").path == tree.path("Stream #1/a%20b.ts"))
        #expect(file("c%20d.ts").path == tree.path("Stream #1/c d.ts"))
        let missing = file("gone%20away.ts")
        #expect(missing.isMissing)
        #expect(
            missing.triedNames
                == "tried '\(tree.path("Stream #1/gone away.ts"))' (the URI's path, decoded) and '\(tree.path("Stream #1/gone%20away.ts"))' (as written)"
        )
        #expect(file("..%2F..%2Fsecret.ts").refusal != nil)
        #expect(file("seg.ts%00.jpg").refusal != nil)
    }

    /// The loader's base is made from the path the user typed: a stream in `Stream #1/` or
    /// `what?/` is read inside it, nothing is outside its root.
    @Test(arguments: ["Stream #1", "what?", "100%"])
    func theLoaderReadsAStreamInsideTheFolderTheUserNamed(_ folder: String) async throws {
        let tree = try TemporaryFolder([
            "\(folder)/master.m3u8": Self.multivariant,
            "\(folder)/audio/index.m3u8": Self.media(["seg%200.ts", "seg1.ts"]),
            "\(folder)/audio/seg 0.ts": "",
            "\(folder)/audio/seg1.ts": "",
        ])
        let loaded = try await PlaylistLoader(source: LocalFileSource()).load(tree.path("\(folder)/master.m3u8"))
        #expect(loaded.outsideRoot.isEmpty, "\(loaded.outsideRoot.map(\.resolvedURI))")
        #expect(loaded.failures.isEmpty, "\(loaded.failures.map(\.reason))")
        let audio = try #require(loaded.mediaPlaylists.values.first)
        #expect(audio.media?.segments.count == 2)
        #expect(LocalPath.shown(audio.uri) == tree.path("\(folder)/audio/index.m3u8"))
    }

    /// A folder literally named `a%20b` beside one named `a b`: the one typed is the one read,
    /// root and media playlists alike.
    @Test func aFolderNamedWithAnEscapeIsNotItsDecodedNeighbour() async throws {
        let tree = try TemporaryFolder([
            "a%20b/master.m3u8": Self.multivariant,
            "a%20b/audio/index.m3u8": Self.media(["seg0.ts", "seg1.ts", "seg2.ts"]),
            "a b/master.m3u8": Self.multivariant + "#EXT-X-STREAM-INF:BANDWIDTH=99000\nother.m3u8\n",
            "a b/audio/index.m3u8": Self.media(["seg0.ts"]),
        ])
        let loaded = try await PlaylistLoader(source: LocalFileSource()).load(tree.path("a%20b/master.m3u8"))
        #expect(loaded.root.multivariant?.variants.count == 1, "the neighbour's multivariant playlist was read")
        let audio = try #require(loaded.mediaPlaylists.values.first)
        #expect(audio.media?.segments.count == 3, "the neighbour's media playlist was read")
        // Folder discovery tells the multivariant playlist from the media playlist it references.
        #expect(
            try StreamDiscovery.unreferencedPlaylists(in: tree.path("a%20b"), ignore: { _ in false }) == [
                tree.path("a%20b/master.m3u8")
            ])
    }

    @Test func folderDiscoveryInAFolderNamedWithAHashFindsOnlyTheMultivariantPlaylist() throws {
        let tree = try TemporaryFolder([
            "Stream #1/master.m3u8": Self.multivariant,
            "Stream #1/audio/index.m3u8": Self.media(["seg0.ts"]),
        ])
        #expect(
            try StreamDiscovery.unreferencedPlaylists(in: tree.path("Stream #1"), ignore: { _ in false }) == [
                tree.path("Stream #1/master.m3u8")
            ])
    }
}
