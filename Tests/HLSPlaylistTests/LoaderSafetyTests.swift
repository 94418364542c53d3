import Foundation
import HLSPlaylist
import Testing
import StreamSources

/// The real local source, counting what it is asked to read, per resolved real path.
actor ReadCounter {
    private(set) var reads: [String: Int] = [:]
    func count(_ path: String) { reads[path, default: 0] += 1 }
}

struct CountingSource: PlaylistSource {
    let base = LocalFileSource()
    let counter = ReadCounter()

    func read(_ uri: String) async throws -> [UInt8] {
        await counter.count(await base.canonicalName(uri) ?? uri)
        return try await base.read(uri)
    }

    func canonicalName(_ uri: String) async -> String? { await base.canonicalName(uri) }
}

@Suite("Loader: hostile input")
struct LoaderSafetyTests {
    /// A fresh tree under the temporary folder, with a sibling file outside it; removed by the caller.
    func makeTree(_ files: [String: String]) throws -> (base: String, stream: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hlsplaylist-\(UUID().uuidString)")
        for (path, text) in files {
            let url = base.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return (base.path, base.appendingPathComponent("stream").path)
    }

    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg.ts\n#EXT-X-ENDLIST\n"
    static let variant = "#EXT-X-STREAM-INF:BANDWIDTH=48000,CODECS=\"mp4a.40.2\"\n"

    @Test func aMultivariantPlaylistNamedByEveryVariantUnderManyNamesIsReadOnce() async throws {
        let names = [
            "master.m3u8", "./master.m3u8", "a/../master.m3u8", ".//master.m3u8", "link.m3u8", "other.m3u8",
            "./other.m3u8",
        ]
        let multivariant = "#EXTM3U\n" + names.map { Self.variant + $0 + "\n" }.joined()
        let tree = try makeTree([
            "stream/master.m3u8": multivariant, "stream/a/.keep": "", "stream/other.m3u8": Self.media,
        ])
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        try FileManager.default.createSymbolicLink(
            atPath: tree.stream + "/link.m3u8", withDestinationPath: "master.m3u8")

        let source = CountingSource()
        let stream = try await PlaylistLoader(source: source).load(tree.stream + "/master.m3u8")
        let reads = await source.counter.reads
        let real = try #require(await source.canonicalName(tree.stream + "/master.m3u8"))
        #expect(reads[real] == 1, "\(reads)")
        #expect(reads.values.allSatisfy { $0 == 1 }, "\(reads)")
        #expect(reads.count == 2)
        #expect(stream.failures.isEmpty)
        // Every variant, whatever its spelling, names the multivariant playlist itself.
        let parsedMultivariant = try #require(stream.root.multivariant)
        for variant in parsedMultivariant.variants.prefix(5) {
            #expect(stream.playlist(for: variant)?.multivariant != nil, "\(variant.uri)")
        }
        // Its problems (none here) and the other playlist are counted once.
        #expect(stream.uniquePlaylists.count == 2)
    }

    @Test(arguments: ["../secret.m3u8", "../../secret.m3u8", "/etc/passwd", "escape.m3u8", "file:///etc/passwd"])
    func aPlaylistOutsideTheRootIsReportedAndNeverRead(_ uri: String) async throws {
        let tree = try makeTree([
            "stream/master.m3u8": "#EXTM3U\n" + Self.variant + uri + "\n", "secret.m3u8": "SECRET\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        try FileManager.default.createSymbolicLink(
            atPath: tree.stream + "/escape.m3u8", withDestinationPath: "../secret.m3u8")

        let source = CountingSource()
        let stream = try await PlaylistLoader(source: source).load(tree.stream + "/master.m3u8")
        let reads = await source.counter.reads
        #expect(reads.count == 1, "only the multivariant playlist is read: \(reads)")
        let outside = try #require(stream.outsideRoot.first)
        #expect(outside.uri == uri)
        #expect(outside.location.line == 3)
        #expect(stream.mediaPlaylists.isEmpty && stream.failures.isEmpty)
    }

    /// Serves playlists from memory under https URLs, recording every URI asked for.
    actor MemoryPlaylists: PlaylistSource {
        let files: [String: String]
        private(set) var asked: [String] = []
        init(_ files: [String: String]) { self.files = files }

        func read(_ uri: String) async throws -> [UInt8] {
            asked.append(uri)
            guard let text = files[uri] else { throw InputReadError(uri: uri, reason: "not found") }
            return Array(text.utf8)
        }
    }

    @Test func aStreamFromTheNetworkNamesNoLocalFile() async throws {
        let source = MemoryPlaylists([
            "https://cdn.test/master.m3u8": "#EXTM3U\n" + Self.variant + "file:///etc/passwd\n" + Self.variant
                + "a.m3u8\n",
            "https://cdn.test/a.m3u8":
                "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nfile:///etc/hostname\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n",
        ])
        let stream = try await PlaylistLoader(source: source).load("https://cdn.test/master.m3u8")
        #expect(await source.asked == ["https://cdn.test/master.m3u8", "https://cdn.test/a.m3u8"])
        #expect(Set(stream.outsideRoot.map(\.uri)) == ["file:///etc/passwd", "file:///etc/hostname"])
    }

    @Test func allowOutsideRootReadsItAll() async throws {
        let tree = try makeTree([
            "stream/master.m3u8": "#EXTM3U\n" + Self.variant + "../secret.m3u8\n", "secret.m3u8": Self.media,
        ])
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        let loader = PlaylistLoader(
            source: LocalFileSource(), limits: LoaderLimits(), confinement: Confinement(allowOutside: true))
        let stream = try await loader.load(tree.stream + "/master.m3u8")
        #expect(stream.outsideRoot.isEmpty)
        #expect(stream.mediaPlaylists.count == 1)
        let widened = PlaylistLoader(
            source: LocalFileSource(), limits: LoaderLimits(), confinement: Confinement(root: tree.base))
        #expect(try await widened.load(tree.stream + "/master.m3u8").mediaPlaylists.count == 1)
    }

    @Test func segmentsAndMapsOutsideTheRootAreListedWithTheirLines() async throws {
        let media =
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"../init.mp4\"\n#EXTINF:6,\nin.m4s\n#EXTINF:6,\n/etc/hostname\n#EXT-X-ENDLIST\n"
        let tree = try makeTree(["stream/index.m3u8": media])
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        let stream = try await PlaylistLoader(source: LocalFileSource()).load(tree.stream + "/index.m3u8")
        #expect(stream.outsideRoot.map(\.uri) == ["../init.mp4", "/etc/hostname"])
        #expect(stream.outsideRoot.map(\.location.line) == [3, 7])
    }

    /// AES-128 key URIs are read (16 bytes, to decrypt and measure): one outside the root is a
    /// finding like a segment, and never read.
    @Test func keysOutsideTheRootAreListedWithTheirLines() async throws {
        let media =
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"../secret.key\"\n#EXTINF:6,\nin.ts\n#EXT-X-KEY:METHOD=AES-128,URI=\"inside.key\"\n#EXTINF:6,\nin2.ts\n#EXT-X-ENDLIST\n"
        let tree = try makeTree(["stream/index.m3u8": media])
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        let stream = try await PlaylistLoader(source: LocalFileSource()).load(tree.stream + "/index.m3u8")
        #expect(stream.outsideRoot.map(\.uri) == ["../secret.key"])
        #expect(stream.outsideRoot.map(\.location.line) == [3])
    }

    @Test func tooManyPlaylistsAreNotReadAndSaySo() async throws {
        let multivariant = "#EXTM3U\n" + (0..<5).map { Self.variant + "v\($0).m3u8\n" }.joined()
        var files = ["stream/master.m3u8": multivariant]
        for index in 0..<5 { files["stream/v\(index).m3u8"] = Self.media }
        let tree = try makeTree(files)
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        let source = CountingSource()
        let stream = try await PlaylistLoader(source: source, limits: LoaderLimits(playlists: 3)).load(
            tree.stream + "/master.m3u8")
        #expect(await source.counter.reads.count == 3)
        #expect(stream.mediaPlaylists.count == 2)
        #expect(stream.failures.count == 3)
        #expect(
            stream.failures.first?.reason.contains("more than 3 playlists (raise the limit with --max-playlists)")
                == true)
    }

    @Test func tooManyLinesOrSegmentsInAMediaPlaylistIsAFailure() async throws {
        let long = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + String(repeating: "#EXTINF:6,\nseg.ts\n", count: 10)
        let tree = try makeTree([
            "stream/master.m3u8": "#EXTM3U\n" + Self.variant + "long.m3u8\n", "stream/long.m3u8": long,
        ])
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        let bySegments = try await PlaylistLoader(
            source: LocalFileSource(), limits: LoaderLimits(segmentsPerPlaylist: 9)
        )
        .load(tree.stream + "/master.m3u8")
        #expect(
            bySegments.failures.first?.reason
                == "has 10 segments, more than the limit of 9 (raise it with --max-segments)")
        let byLines = try await PlaylistLoader(source: LocalFileSource(), limits: LoaderLimits(playlistLines: 20))
            .load(tree.stream + "/master.m3u8")
        #expect(byLines.failures.first?.reason == "has more than 20 lines (raise the limit with --max-playlist-lines)")
    }

    @Test func aFolderOrADeviceIsNotAPlaylist() async throws {
        let tree = try makeTree([
            "stream/master.m3u8": "#EXTM3U\n" + Self.variant + "dir.m3u8\n", "stream/dir.m3u8/.keep": "",
        ])
        defer { try? FileManager.default.removeItem(atPath: tree.base) }
        let stream = try await PlaylistLoader(source: LocalFileSource()).load(tree.stream + "/master.m3u8")
        #expect(stream.failures.first?.reason == "is a folder, not a regular file; only regular files are read")
        let loader = PlaylistLoader(
            source: LocalFileSource(), limits: LoaderLimits(), confinement: Confinement(allowOutside: true))
        await #expect(
            throws: InputReadError(
                uri: "/dev/zero", reason: "is a character device, not a regular file; only regular files are read")
        ) {
            _ = try await loader.load("/dev/zero")
        }
    }
}
