import Synchronization

/// What decoding a poster showed, remembered by the image's content: a stream carries the same
/// poster in every segment (600 of them here and there), and decoding it again for each one —
/// the largest cost of reading a packed-audio segment's facts after libavformat's — told
/// nothing new. Keyed by the image's SHA-256 (which the facts hold anyway), its size, its MIME
/// type and the pixel limit it was judged against; a few distinct images are kept, then the
/// memo starts over, so a hostile stream of all-different images costs what it did before.
package final class DecodedImages: Sendable {
    struct Key: Hashable {
        var contentHash: String
        var byteCount: Int
        var mimeType: String
        var maximumPixels: Int
    }

    /// Distinct images kept: a stream's poster, and whatever else a few segments carry.
    static let capacity = 16

    private let results = Mutex<[Key: Result<PixelSize, ArtworkDecodeFailure>]>([:])

    /// Remembers nothing yet.
    package init() {}

    /// The result of decoding the image `key` names: remembered, or `decode()`'s.
    func result(
        _ key: Key, decode: () -> Result<PixelSize, ArtworkDecodeFailure>
    ) -> Result<PixelSize, ArtworkDecodeFailure> {
        if let known = results.withLock({ $0[key] }) { return known }
        let decoded = decode()
        results.withLock { results in
            if results.count >= Self.capacity { results.removeAll(keepingCapacity: true) }
            results[key] = decoded
        }
        return decoded
    }
}
