/// What a playlist's bytes were when it was parsed: their count and a 64-bit hash of them. A
/// program that writes a playlist while hlscheck works on it (a live encoder sliding its window,
/// an editor saving) is told apart by comparing the digest of the bytes read now with the one
/// the analysis parsed — `hlscheck embed` does, before it replaces a playlist.
///
/// It detects change, it does not authenticate: whoever may write the folder may write anything.
package struct PlaylistSourceDigest: Sendable, Hashable, CustomStringConvertible {
    /// The number of bytes.
    package var byteCount: Int
    /// The hash of the bytes: eight at a time, each folded in by two multiplies and a shift.
    package var value: UInt64

    /// The digest of `bytes`.
    package init(_ bytes: [UInt8]) {
        byteCount = bytes.count
        value = bytes.withUnsafeBytes { raw in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(raw.count)
            let prime: UInt64 = 0x0000_0100_0000_01B3
            var offset = 0
            while offset + 8 <= raw.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash = ((hash ^ word) &* prime) &* 0x9E37_79B9_7F4A_7C15
                hash ^= hash >> 29
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* prime
                offset += 1
            }
            return hash
        }
    }

    package var description: String { "\(byteCount) bytes, digest \(String(value, radix: 16))" }
}
