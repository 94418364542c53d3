#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
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

    private let results = Mutex<[Key: Result<PixelSize, PosterDecodeFailure>]>([:])

    /// Pictures up to this size have their SHA-256 remembered (a poster is tens of KB): the
    /// memo holds at most `capacity` of them.
    static let largestRememberedPicture = 1 << 20

    /// The SHA-256 of the pictures seen last, with their bytes: the same poster in every segment
    /// is hashed once, and told from another by comparing bytes, which costs a small part of
    /// hashing them again.
    private let digests = Mutex<[(picture: [UInt8], digest: String)]>([])

    /// Remembers nothing yet.
    package init() {}

    /// The hex SHA-256 of `picture`: remembered, or computed.
    func contentHash(_ picture: [UInt8]) -> String {
        guard picture.count <= Self.largestRememberedPicture else { return SHA256.hexDigest(picture) }
        if let known = digests.withLock({ $0.first { Self.sameBytes($0.picture, picture) }?.digest }) { return known }
        let digest = SHA256.hexDigest(picture)
        digests.withLock { digests in
            if digests.count >= Self.capacity { digests.removeAll(keepingCapacity: true) }
            digests.append((picture, digest))
        }
        return digest
    }

    private static func sameBytes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        return first.withUnsafeBytes { a in
            second.withUnsafeBytes { b in
                guard let x = a.baseAddress, let y = b.baseAddress else { return true }
                return memcmp(x, y, a.count) == 0
            }
        }
    }

    /// The result of decoding the image `key` names: remembered, or `decode()`'s.
    func result(
        _ key: Key, decode: () -> Result<PixelSize, PosterDecodeFailure>
    ) -> Result<PixelSize, PosterDecodeFailure> {
        if let known = results.withLock({ $0[key] }) { return known }
        let decoded = decode()
        results.withLock { results in
            if results.count >= Self.capacity { results.removeAll(keepingCapacity: true) }
            results[key] = decoded
        }
        return decoded
    }
}
