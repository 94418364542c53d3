package import HLSPlaylist
import MediaInspection

/// What one run may cost, whatever the input says. Every limit has a default that real streams
/// stay far below, and a flag that raises it; a hit is reported with that flag's name
/// (docs/security.md, "Limits").
package struct Limits: Sendable, Hashable {
    /// Bytes of one playlist (`--max-playlist-bytes`, 16 MiB).
    package var playlistBytes: Int
    /// Lines of one playlist (`--max-playlist-lines`, 1 000 000).
    package var playlistLines: Int
    /// Playlists of one stream, the root included (`--max-playlists`, 1 000).
    package var playlists: Int
    /// Segments of one media playlist (`--max-segments`, 100 000).
    package var segmentsPerPlaylist: Int
    /// Bytes of one segment (`--max-segment-bytes`, 256 MiB). At most `maxConcurrentSegments`
    /// segments are held at once, so segment bytes in memory stay under their product.
    package var segmentBytes: Int
    /// Bytes of one ID3 tag carried in a segment, its APIC picture included (`--max-id3-bytes`, 16 MiB).
    package var id3Bytes: Int
    /// Pixels of a poster, read from its header before anything is decoded
    /// (`--max-image-pixels`, 40 000 000: 8000 × 5000).
    package var imagePixels: Int
    /// Seconds the whole run may take (`--timeout`, 3 600); nil: no limit.
    package var timeoutSeconds: Int?

    /// The default of `timeoutSeconds`: one hour.
    package static let defaultTimeoutSeconds = 3_600

    /// Makes limits; every default is the one documented on its property.
    package init(
        playlistBytes: Int = maximumPlaylistSize, playlistLines: Int = 1_000_000, playlists: Int = 1_000,
        segmentsPerPlaylist: Int = 100_000, segmentBytes: Int = LocalSegmentSource.defaultMaximumByteCount,
        id3Bytes: Int = 16 << 20, imagePixels: Int = ImageHeader.defaultMaximumPixels,
        timeoutSeconds: Int? = Limits.defaultTimeoutSeconds
    ) {
        self.playlistBytes = playlistBytes
        self.playlistLines = playlistLines
        self.playlists = playlists
        self.segmentsPerPlaylist = segmentsPerPlaylist
        self.segmentBytes = segmentBytes
        self.id3Bytes = id3Bytes
        self.imagePixels = imagePixels
        self.timeoutSeconds = timeoutSeconds
    }

    /// The part the playlist loader enforces.
    package var loader: LoaderLimits {
        LoaderLimits(
            playlistBytes: playlistBytes, playlistLines: playlistLines, playlists: playlists,
            segmentsPerPlaylist: segmentsPerPlaylist)
    }
}
