import Foundation
@testable import HLSCheck
import HLSPlaylist
import Testing
import TestSupport
import StreamSources

/// Folder discovery reads every playlist once and the check reuses those bytes, never
/// stale ones, within a memory budget.
@Suite struct DiscoveredPlaylistsTests {
    static let multivariant = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\naudio/index.m3u8\n"
    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"

    @Test func discoveryKeepsWhatItReadForTheCheck() async throws {
        let tree = try TemporaryFolder(["show/master.m3u8": Self.multivariant, "show/audio/index.m3u8": Self.media])
        var discovered = DiscoveredPlaylists()
        let found = try StreamDiscovery.inputs([tree.url.path], keeping: &discovered)
        #expect(found == [tree.path("show/master.m3u8")])
        #expect(discovered.count == 2)
        #expect(discovered.keptBytes == Self.multivariant.utf8.count + Self.media.utf8.count)
        let source = DiscoveredPlaylistSource(discovered: discovered)
        #expect(try await source.read(tree.path("show/audio/index.m3u8")) == Array(Self.media.utf8))
        // Any spelling of the file is the same file.
        #expect(try await source.read(tree.path("show/audio/../audio/index.m3u8")) == Array(Self.media.utf8))
    }

    @Test func aPlaylistChangedAfterDiscoveryIsReadAgain() async throws {
        let tree = try TemporaryFolder(["show/master.m3u8": Self.multivariant, "show/audio/index.m3u8": Self.media])
        var discovered = DiscoveredPlaylists()
        _ = try StreamDiscovery.inputs([tree.url.path], keeping: &discovered)
        let source = DiscoveredPlaylistSource(discovered: discovered)
        let path = tree.path("show/audio/index.m3u8")

        // Rewritten in place with the same length: the modification time tells.
        let sameLength = Self.media.replacingOccurrences(of: "s.ts", with: "t.ts")
        try Data(sameLength.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: path)
        #expect(try await source.read(path) == Array(sameLength.utf8))

        // Replaced by another file (a new inode), as an editor saving does.
        let replacement = tree.path("show/audio/new.m3u8")
        try Data((Self.media + "\n").utf8).write(to: URL(fileURLWithPath: replacement))
        #expect(rename(replacement, path) == 0)
        #expect(try await source.read(path) == Array((Self.media + "\n").utf8))

        // Gone: the check's own message, as without discovery.
        try FileManager.default.removeItem(atPath: path)
        await #expect(throws: InputReadError.self) { try await source.read(path) }
    }

    /// A multivariant playlist found by discovery is parsed once: the loader takes discovery's
    /// parse (same model as a fresh parse), and a multivariant playlist changed since is parsed
    /// again from the file.
    @Test func theCheckTakesDiscoverysParseOfAMultivariantPlaylist() async throws {
        let tree = try TemporaryFolder(["show/master.m3u8": Self.multivariant, "show/audio/index.m3u8": Self.media])
        var discovered = DiscoveredPlaylists()
        let found = try StreamDiscovery.inputs([tree.url.path], keeping: &discovered)
        let multivariantPath = try #require(found.first)
        let counting = ReadCountingSource(base: DiscoveredPlaylistSource(discovered: discovered))
        let handed = try #require(await counting.parsedPlaylist(multivariantPath))
        #expect(handed.playlist == PlaylistParser.parse(Array(Self.multivariant.utf8), uri: multivariantPath))
        let stream = try await PlaylistLoader(source: counting).load(multivariantPath)
        #expect(stream.root == handed.playlist && stream.mediaPlaylists.count == 1)
        #expect(await counting.reads == [tree.path("show/audio/index.m3u8")])
        // A media playlist was never parsed by discovery: nothing to hand over.
        #expect(await counting.parsedPlaylist(tree.path("show/audio/index.m3u8")) == nil)

        // Changed after discovery: read and parsed again.
        let changed = Self.multivariant.replacingOccurrences(of: "48000", with: "47000")
        try Data(changed.utf8).write(to: URL(fileURLWithPath: multivariantPath))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: multivariantPath)
        #expect(await counting.parsedPlaylist(multivariantPath) == nil)
        let again = try await PlaylistLoader(source: counting).load(multivariantPath)
        #expect(again.root.multivariant?.variants.first?.bandwidth == 47000)
    }

    @Test func keptBytesStayWithinTheBudget() throws {
        var files: [String: String] = [:]
        for index in 0..<20 { files["s\(index)/index.m3u8"] = Self.media }
        let tree = try TemporaryFolder(files)
        let budget = 5 * Self.media.utf8.count
        var discovered = DiscoveredPlaylists(budget: budget)
        let found = try StreamDiscovery.inputs([tree.url.path], keeping: &discovered)
        #expect(found.count == 20)
        #expect(discovered.count == 5)
        #expect(discovered.keptBytes <= budget)
    }

    @Test func aPlaylistOverTheCheckLimitIsLeftToTheLimitsMessage() async throws {
        let tree = try TemporaryFolder(["show/index.m3u8": Self.media])
        var discovered = DiscoveredPlaylists()
        _ = try StreamDiscovery.inputs([tree.url.path], keeping: &discovered)
        let source = DiscoveredPlaylistSource(discovered: discovered, base: LocalFileSource(maximumSize: 10))
        let error = await #expect(throws: InputReadError.self) {
            try await source.read(tree.path("show/index.m3u8"))
        }
        #expect(error?.reason.contains("--max-playlist-bytes") == true)
    }

    /// Discovery parses only playlists that may reference others: over every playlist of the
    /// corpus, one the quick test passes over has no variant, rendition or I-frame URI to find.
    @Test func theQuickTestMissesNoReferencingPlaylistOfTheCorpus() throws {
        guard let corpus = PackageRoot.corpus else { return }
        var referencing = 0, skipped = 0
        let walker = try #require(FileManager.default.enumerator(atPath: corpus.path))
        for case let name as String in walker where name.hasSuffix(".m3u8") || name.hasSuffix(".m3u") {
            let path = corpus.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let bytes = Array(data)
            let multivariant = PlaylistParser.parse(bytes, uri: path).multivariant
            let uris =
                (multivariant?.variants.map(\.uri) ?? []) + (multivariant?.iFrameVariants.map(\.uri) ?? [])
                + (multivariant?.renditions.compactMap(\.uri) ?? [])
            if StreamDiscovery.mayReferencePlaylists(bytes) {
                referencing += 1
            } else {
                skipped += 1
                #expect(uris.isEmpty, "\(name) references \(uris.prefix(3)) but discovery would not parse it")
            }
        }
        #expect(referencing > 0 && skipped > 0)
    }

    @Test(arguments: [
        ("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", true),
        ("#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI=\"i.m3u8\"\n", true),
        ("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",URI=\"a.m3u8\"\n", true),
        ("#EXTM3U\n#EXT-X-MEDIA", true),
        ("#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:3\n#EXTINF:6,\ns.ts\n", false),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n#s.ts\n", false),
        ("", false),
    ])
    func theQuickTestFindsTagsThatReferencePlaylists(_ text: String, _ expected: Bool) {
        #expect(StreamDiscovery.mayReferencePlaylists(Array(text.utf8)) == expected)
    }
}

/// Forwards to `base`, recording which URIs were read.
private actor ReadCountingSource: PlaylistSource {
    let base: DiscoveredPlaylistSource
    var reads: [String] = []

    init(base: DiscoveredPlaylistSource) {
        self.base = base
    }

    func read(_ uri: String) async throws -> [UInt8] {
        reads.append(uri)
        return try await base.read(uri)
    }

    func canonicalName(_ uri: String) async -> String? { await base.canonicalName(uri) }

    func parsedPlaylist(_ uri: String) async -> (bytes: [UInt8], playlist: Playlist)? { await base.parsedPlaylist(uri) }
}
