internal import CFFmpeg

/// How to decrypt a segment encrypted with EXT-X-KEY METHOD=AES-128 (RFC 8216 §4.3.2.4, §5.2):
/// AES-128 in CBC mode with PKCS7 padding over the whole segment, a 16-byte key read from the
/// key URI, and an IV from the tag or the segment's media sequence number.
public struct SegmentDecryption: Sendable, Hashable {
    /// The key URI, resolved against the media playlist.
    public var keyURI: String
    /// 16 bytes.
    public var iv: [UInt8]

    /// Makes a request; `iv` must be 16 bytes.
    public init(keyURI: String, iv: [UInt8]) {
        self.keyURI = keyURI
        self.iv = iv
    }

    /// RFC 8216 §5.2: without an IV attribute, the media sequence number as a 128-bit
    /// big-endian integer.
    public static func iv(mediaSequence: Int) -> [UInt8] {
        let value = UInt64(truncatingIfNeeded: mediaSequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}

/// What happened to an encrypted segment's content.
public enum DecryptionOutcome: Sendable, Hashable, Codable {
    /// Decrypted with its key: the facts describe the clear content.
    case decrypted
    /// The key could not be had (unreachable, wrong size): only the byte count is known.
    case keyUnavailable(String)
}

/// AES-128-CBC decryption with PKCS7 padding, through libavutil's av_aes.
enum AES128CBC {
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    static func decrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        guard key.count == 16, iv.count == 16 else { throw Failure(description: "key and IV must be 16 bytes") }
        guard !data.isEmpty, data.count % 16 == 0 else {
            throw Failure(description: "\(data.count) bytes is not a whole number of 16-byte AES blocks: the segment is truncated or not AES-128 encrypted")
        }
        guard let context = av_aes_alloc() else { throw Failure(description: "av_aes_alloc returned NULL") }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        guard av_aes_init(context, key, 128, 1) == 0 else { throw Failure(description: "av_aes_init failed") }
        var plain = [UInt8](repeating: 0, count: data.count)
        var chain = iv
        plain.withUnsafeMutableBufferPointer { output in
            data.withUnsafeBufferPointer { input in
                chain.withUnsafeMutableBufferPointer { vector in
                    av_aes_crypt(context, output.baseAddress, input.baseAddress, Int32(data.count / 16), vector.baseAddress, 1)
                }
            }
        }
        // PKCS7 (RFC 5652 §6.3): the last byte says how many padding bytes, each of that value.
        guard let padding = plain.last, (1...16).contains(padding),
              plain.suffix(Int(padding)).allSatisfy({ $0 == padding })
        else { throw Failure(description: "the padding is wrong after decryption: the key or the IV does not match the segment") }
        return Array(plain.dropLast(Int(padding)))
    }
}
