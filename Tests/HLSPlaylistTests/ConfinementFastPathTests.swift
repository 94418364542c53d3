import Foundation
import HLSPlaylist
import Testing

/// The loader judges plain segment names (`seg123.ts`) in the playlist's folder from one listing
/// of that folder instead of one `realpath` each (a playlist of 92 000 segments). A name that is a
/// symlink must still be followed, and every other spelling still takes the full path.
@Suite("Loader: segment confinement from a folder listing")
struct ConfinementFastPathTests {
    func makeStream(_ media: String, in base: URL) throws -> String {
        let stream = base.appendingPathComponent("stream")
        try FileManager.default.createDirectory(
            at: stream.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data(media.utf8).write(to: stream.appendingPathComponent("sub/index.m3u8"))
        try Data("ts".utf8).write(to: stream.appendingPathComponent("sub/real.ts"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.ts"))
        // A plain name that leaves the root through a symlink, one that stays inside, and a
        // symlink to a folder outside.
        try FileManager.default.createSymbolicLink(
            atPath: stream.appendingPathComponent("sub/escape.ts").path, withDestinationPath: "../../secret.ts")
        try FileManager.default.createSymbolicLink(
            atPath: stream.appendingPathComponent("sub/alias.ts").path, withDestinationPath: "real.ts")
        try FileManager.default.createSymbolicLink(
            atPath: stream.appendingPathComponent("sub/up").path, withDestinationPath: "../..")
        return stream.path
    }

    @Test func aPlainSegmentNameThatIsASymlinkOutOfTheRootIsStillRefused() async throws {
        let media = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:6,
            real.ts
            #EXTINF:6,
            escape.ts
            #EXTINF:6,
            alias.ts
            #EXTINF:6,
            missing.ts
            #EXTINF:6,
            up/secret.ts
            #EXTINF:6,
            ../sub/escape.ts
            #EXTINF:6,
            ./real.ts
            #EXT-X-ENDLIST

            """
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hlsplaylist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let stream = try makeStream(media, in: base)
        let loader = PlaylistLoader(
            source: LocalFileSource(), limits: LoaderLimits(), confinement: Confinement(root: stream))
        let loaded = try await loader.load(stream + "/sub/index.m3u8")
        // "../sub/escape.ts" names the same file as "escape.ts": reported once, at the first.
        #expect(loaded.outsideRoot.map(\.uri) == ["escape.ts", "up/secret.ts"])
        #expect(loaded.outsideRoot.map(\.location.line) == [6, 12])
    }
}
