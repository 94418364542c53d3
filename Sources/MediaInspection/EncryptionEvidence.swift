internal import MediaFormats

/// What a segment's own bytes say about whether they are encrypted, for bis-22 §6.2.3: an
/// encrypted segment has an EXT-X-KEY, a clear one is under METHOD=NONE or before any key. Whole-
/// segment encryption (AES-128) leaves no container structure and bytes as evenly spread as
/// random ones; clear media has its container's structure.
enum EncryptionEvidence {
    /// The container the bytes plainly start as, by structure strict enough that ciphertext does
    /// not pass by chance (about one in 2^24 or rarer): TS sync bytes at the start of each of the
    /// first packets, an ISO BMFF box of a known type and a size that fits, or an ID3v2 tag with
    /// a well-formed header followed by an audio frame sync. nil for anything else.
    static func clearContainer(_ source: any RandomAccessBytes) -> SegmentContainer? {
        let prefix = (try? source.bytes(at: 0, length: 4 * 188)) ?? []
        let packets = prefix.count / 188
        if packets >= 4 || (packets >= 1 && packets * 188 == source.count),
            (0..<packets).allSatisfy({ prefix[$0 * 188] == 0x47 })
        {
            return .mpegTS
        }
        if prefix.count >= 8 {
            let size = prefix[0..<4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: prefix[4..<8], as: UTF8.self)
            if ["ftyp", "styp", "moof", "moov", "sidx", "emsg", "prft", "free"].contains(type),
                size == 1 || (size >= 8 && size <= source.count)
            {
                return .fragmentedMP4
            }
        }
        if prefix.count >= 10, prefix[0] == 0x49, prefix[1] == 0x44, prefix[2] == 0x33, [2, 3, 4].contains(prefix[3]),
            prefix[6..<10].allSatisfy({ $0 < 0x80 })
        {
            let size = prefix[6..<10].reduce(0) { $0 << 7 | Int($1) }
            let footer = prefix[5] & 0x10 != 0 ? 10 : 0
            if let sync = try? source.bytes(at: 10 + size + footer, length: 2), sync.count == 2, sync[0] == 0xFF,
                sync[1] & 0xE0 == 0xE0
            {
                return .adts
            }
        }
        return nil
    }

    /// The container as messages name it.
    static func name(of container: SegmentContainer) -> String {
        switch container {
        case .mpegTS: "MPEG-TS"
        case .fragmentedMP4: "fMP4 (ISO BMFF boxes)"
        default: "packed audio (an ID3 tag, then audio frames)"
        }
    }

    /// The fewest bytes whose spread says anything.
    static let minimumBytes = 1024
    /// The bytes whose spread is measured: the first 64 KiB.
    static let sampleBytes = 64 << 10

    /// Whether the bytes look like AES-128-CBC ciphertext: whole 16-byte blocks, no container
    /// structure (`clearContainer`), and the first 64 KiB spread over the 256 byte values as
    /// evenly as random bytes are. Pearson's chi-square over the 256 values has mean 255 and
    /// standard deviation about 22.6 for random bytes; compressed media, whose headers and
    /// entropy coding leave some values more frequent, scores in the thousands over 64 KiB.
    static func looksEncrypted(_ source: any RandomAccessBytes) -> Bool {
        guard source.count >= minimumBytes, source.count % 16 == 0, clearContainer(source) == nil,
            let sample = try? source.bytes(at: 0, length: min(source.count, sampleBytes)), sample.count >= minimumBytes
        else { return false }
        return chiSquare(sample) < 400
    }

    /// Pearson's chi-square of the byte values of `bytes` against a uniform spread.
    static func chiSquare(_ bytes: [UInt8]) -> Double {
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes { counts[Int(byte)] += 1 }
        let expected = Double(bytes.count) / 256
        return counts.reduce(0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
    }
}
