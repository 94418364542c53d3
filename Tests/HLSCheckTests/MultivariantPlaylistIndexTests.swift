import Foundation
@testable import HLSCheck
import Testing
import TestSupport

/// A media playlist given as input names the multivariant playlist beside it that references it;
/// over a run, each folder is read once however many of its media playlists are checked, so N
/// media playlists of one folder cost one read of the folder, not N.
@Suite struct MultivariantPlaylistIndexTests {
    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ns.ts\n#EXT-X-ENDLIST\n"

    @Test func oneIndexReadsEachFolderOnceForEveryMediaPlaylistOfIt() throws {
        let folder = try TemporaryFolder([
            "master.m3u8":
                "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nsub/b.m3u8\n",
            "a.m3u8": Self.media, "sub/b.m3u8": Self.media, "c.m3u8": Self.media,
        ])
        let index = MultivariantPlaylistIndex()
        #expect(
            StreamDiscovery.multivariantPlaylists(referencing: folder.path("a.m3u8"), index: index) == [
                folder.path("master.m3u8")
            ])
        #expect(StreamDiscovery.multivariantPlaylists(referencing: folder.path("c.m3u8"), index: index).isEmpty)
        // The folder's answer is kept: with master.m3u8 gone, the same index still knows it
        // (read once), and a fresh index does not (read again).
        try FileManager.default.removeItem(atPath: folder.path("master.m3u8"))
        #expect(
            StreamDiscovery.multivariantPlaylists(referencing: folder.path("sub/b.m3u8"), index: index) == [
                folder.path("master.m3u8")
            ])
        #expect(StreamDiscovery.multivariantPlaylists(referencing: folder.path("sub/b.m3u8")).isEmpty)
    }
}
