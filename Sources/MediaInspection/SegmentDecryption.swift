internal import CFFmpeg
internal import MediaFormats

/// How to decrypt a segment encrypted with EXT-X-KEY METHOD=AES-128 (RFC 8216 §4.3.2.4, §5.2):
/// AES-128 in CBC mode with PKCS7 padding over the whole segment, a 16-byte key read from the
/// key URI, and an IV from the tag or the segment's media sequence number.
package struct SegmentDecryption: Sendable, Hashable {
    /// The key URI, resolved against the media playlist.
    package var keyURI: String
    /// 16 bytes.
    package var iv: [UInt8]

    /// Makes a request; `iv` must be 16 bytes.
    package init(keyURI: String, iv: [UInt8]) {
        self.keyURI = keyURI
        self.iv = iv
    }

    /// RFC 8216 §5.2: without an IV attribute, the media sequence number as a 128-bit
    /// big-endian integer.
    package static func iv(mediaSequence: Int) -> [UInt8] {
        let value = UInt64(truncatingIfNeeded: mediaSequence)
        return [UInt8](repeating: 0, count: 8) + (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}

extension SegmentDecryption {
    /// The clear text of `cipher`, the first bytes of a resource that AES-128-CBC encrypts as one
    /// run from its first byte with `iv` (RFC 8216 §5.2; bis-22 §6.2.3 for the resources of
    /// I-frame playlists): whole blocks only, and no padding looked for, since the run goes on
    /// past them. Nil when the key or the IV is not 16 bytes.
    package static func clearStart(of cipher: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8]? {
        guard key.count == 16, iv.count == 16, let context = av_aes_alloc() else { return nil }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        guard av_aes_init(context, key, 128, 1) == 0 else { return nil }
        let blocks = cipher.count / 16
        var clear = [UInt8](repeating: 0, count: blocks * 16)
        guard blocks > 0 else { return clear }
        var chain = iv
        clear.withUnsafeMutableBufferPointer { output in
            cipher.withUnsafeBufferPointer { input in
                chain.withUnsafeMutableBufferPointer { vector in
                    av_aes_crypt(context, output.baseAddress, input.baseAddress, Int32(blocks), vector.baseAddress, 1)
                }
            }
        }
        return clear
    }
}

/// What happened to an encrypted segment's content.
package enum DecryptionOutcome: Sendable, Hashable, Codable {
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

    /// The whole clear text at once (small inputs; segments go through ``DecryptedBytes``).
    static func decrypt(_ data: [UInt8], key: [UInt8], iv: [UInt8]) throws(Failure) -> [UInt8] {
        let clear = try DecryptedBytes(cipher: InMemoryBytes(data), key: key, iv: iv)
        do {
            return try clear.bytes(at: 0, length: clear.count)
        } catch {
            throw Failure(description: error.reason)
        }
    }
}

/// The clear text of an AES-128-CBC encrypted segment, decrypted where it is read. CBC allows
/// random access: clear block *i* is D(C*i*) ⊕ C*i*−1 (the IV before the first), so any range
/// is decrypted from the cipher text one block before it, through one bounded scratch buffer,
/// and the segment is never held whole. The PKCS7 padding (RFC 5652 §6.3) is checked up front
/// by decrypting the last block, which also gives the clear size.
final class DecryptedBytes: RandomAccessBytes {
    private let cipher: any RandomAccessBytes
    private let iv: [UInt8]
    private let context: OpaquePointer
    /// Cipher text of the blocks being decrypted, the one before them first.
    private var scratch: [UInt8]
    private var clear: [UInt8]
    private(set) var count: Int

    /// Blocks decrypted per step: 64 KiB of cipher text.
    private static let blocksPerStep = 4096

    init(cipher: any RandomAccessBytes, key: [UInt8], iv: [UInt8]) throws(AES128CBC.Failure) {
        guard key.count == 16, iv.count == 16 else {
            throw AES128CBC.Failure(description: "key and IV must be 16 bytes")
        }
        guard cipher.count > 0, cipher.count % 16 == 0 else {
            throw AES128CBC.Failure(
                description:
                    "\(cipher.count) bytes is not a whole number of 16-byte AES blocks: the segment is truncated or not AES-128 encrypted"
            )
        }
        guard let context = av_aes_alloc() else { throw AES128CBC.Failure(description: "av_aes_alloc returned NULL") }
        guard av_aes_init(context, key, 128, 1) == 0 else {
            av_free(UnsafeMutableRawPointer(context))
            throw AES128CBC.Failure(description: "av_aes_init failed")
        }
        self.context = context
        self.cipher = cipher
        self.iv = iv
        scratch = [UInt8](repeating: 0, count: (Self.blocksPerStep + 1) * 16)
        clear = [UInt8](repeating: 0, count: Self.blocksPerStep * 16)
        count = cipher.count
        let last: [UInt8]
        do {
            last = try decryptBlocks(first: cipher.count / 16 - 1, count: 1)
        } catch {
            throw AES128CBC.Failure(description: error.reason)
        }
        guard let padding = last.last, (1...16).contains(padding),
            last.suffix(Int(padding)).allSatisfy({ $0 == padding })
        else {
            throw AES128CBC.Failure(
                description: "the padding is wrong after decryption: the key or the IV does not match the segment")
        }
        count = cipher.count - Int(padding)
    }

    deinit {
        av_free(UnsafeMutableRawPointer(context))
    }

    /// Clear text of `count` blocks starting at block `first` (count ≤ blocksPerStep).
    private func decryptBlocks(first: Int, count: Int) throws(ByteReadError) -> [UInt8] {
        let from = first == 0 ? 0 : (first - 1) * 16
        let length = (first == 0 ? 0 : 16) + count * 16
        var thrown: ByteReadError?
        let got = scratch.withUnsafeMutableBytes { buffer -> Int in
            do throws(ByteReadError) {
                return try cipher.read(at: from, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]))
            } catch {
                thrown = error
                return 0
            }
        }
        if let thrown { throw thrown }
        guard got == length else { throw ByteReadError(reason: "the encrypted segment ended early") }
        let blocks = first == 0 ? 0 : 16
        var chain = first == 0 ? iv : Array(scratch[0..<16])
        clear.withUnsafeMutableBufferPointer { output in
            scratch.withUnsafeBufferPointer { input in
                chain.withUnsafeMutableBufferPointer { vector in
                    av_aes_crypt(
                        context, output.baseAddress, input.baseAddress.map { $0 + blocks }, Int32(count),
                        vector.baseAddress, 1)
                }
            }
        }
        return Array(clear[0..<(count * 16)])
    }

    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(ByteReadError) -> Int {
        guard offset >= 0, offset < count, let base = buffer.baseAddress else { return 0 }
        let wanted = min(buffer.count, count - offset)
        var done = 0
        while done < wanted {
            let position = offset + done
            let block = position / 16
            let lastBlock = (offset + wanted - 1) / 16
            let blocks = min(Self.blocksPerStep, lastBlock - block + 1)
            let plain = try decryptBlocks(first: block, count: blocks)
            let skip = position - block * 16
            let take = min(wanted - done, plain.count - skip)
            plain.withUnsafeBytes { source in
                if let from = source.baseAddress { (base + done).copyMemory(from: from + skip, byteCount: take) }
            }
            done += take
        }
        return done
    }
}
