/// The name a rewritten segment gets: `seg0.ts` → `seg0.embed-1a2b3c4d.ts`, the 8 hex digits a
/// fingerprint of the new bytes (a marker already there is replaced, not stacked). A new name is
/// what lets the old playlist keep pointing at the old segments while the new ones are written,
/// so that a player (or a crash) sees either set whole; from the same bytes comes the same name,
/// so embedding the same poster again changes nothing.
enum SegmentName {
    static let marker = ".embed-"

    /// `uri` (a relative or absolute URI, possibly with a query) with its last path component renamed.
    static func renamed(_ uri: String, bytes: [UInt8]) -> String {
        renamed(uri, fingerprint: fingerprint(bytes))
    }

    /// `renamed(_:bytes:)` with the fingerprint computed already (a segment's name and its URI
    /// get the same one: the bytes are hashed once).
    static func renamed(_ uri: String, fingerprint: String) -> String {
        // Over the UTF-8 bytes: every delimiter here is ASCII, and a name is renamed once per
        // segment and once per URI line that names it.
        let bytes = uri.utf8
        let query = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let slash = bytes[..<query].lastIndex(of: UInt8(ascii: "/")).map(bytes.index(after:)) ?? bytes.startIndex
        let (base, ext) = parts(uri[slash..<query])
        var result = String(uri[..<slash])
        result.reserveCapacity(bytes.count + marker.utf8.count + 8)
        result += base
        result += marker
        result += fingerprint
        result += ext
        result += uri[query...]
        return result
    }

    /// The name without our marker, split before its extension: ("seg0", ".ts").
    static func parts(_ name: Substring) -> (base: Substring, ext: Substring) {
        let bytes = name.utf8
        var baseEnd = bytes.endIndex
        if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex { baseEnd = dot }
        var base = name[..<baseEnd]
        // Our marker and fingerprint end the name when it has them (no later marker can start
        // inside 8 hex digits): looked for at the end, not searched for.
        let baseBytes = base.utf8
        if baseBytes.count >= marker.utf8.count + 8 {
            let fingerprint = baseBytes.index(baseBytes.endIndex, offsetBy: -8)
            let markerStart = baseBytes.index(fingerprint, offsetBy: -marker.utf8.count)
            if isFingerprint(baseBytes[fingerprint...]), baseBytes[markerStart..<fingerprint].elementsEqual(marker.utf8)
            {
                base = base[..<markerStart]
            }
        }
        return (base, name[baseEnd...])
    }

    /// Whether `candidate` is a name this scheme gives to a rewrite of `name` (with any fingerprint).
    static func isRenaming(_ candidate: String, of name: String) -> Bool {
        let (base, ext) = parts(name[...])
        let prefix = base + marker
        let bytes = candidate.utf8
        guard bytes.starts(with: prefix.utf8), bytes.reversed().starts(with: ext.utf8.reversed()),
            bytes.count == prefix.utf8.count + 8 + ext.utf8.count
        else { return false }
        return isFingerprint(bytes.dropFirst(prefix.utf8.count).dropLast(ext.utf8.count))
    }

    /// Eight lowercase hex digits, as `fingerprint(_:)` writes them.
    private static func isFingerprint(_ text: Substring.UTF8View.SubSequence) -> Bool {
        text.count == 8
            && text.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    /// XXH64 (seed 0) folded to 32 bits: a name, not a security boundary — a name that exists
    /// with other bytes is refused rather than overwritten. XXH64 takes eight bytes a step in
    /// four independent lanes, where a byte-at-a-time hash spends a multiply on every byte of
    /// every segment.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        let hash = bytes.withUnsafeBytes { XXH64.hash($0) }
        let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
        let digits = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

/// XXH64 (xxHash, 64-bit, seed 0) as its specification defines it.
enum XXH64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var (v1, v2, v3, v4) = (prime1 &+ prime2, prime2, UInt64(0), UInt64(0) &- prime1)
            while offset + 32 <= count {
                v1 = round(v1, word(bytes, offset))
                v2 = round(v2, word(bytes, offset + 8))
                v3 = round(v3, word(bytes, offset + 16))
                v4 = round(v4, word(bytes, offset + 24))
                offset += 32
            }
            hash = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            hash = merge(merge(merge(merge(hash, v1), v2), v3), v4)
        } else {
            hash = prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash ^= round(0, word(bytes, offset))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            hash ^= UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) &* prime1
            hash = rotate(hash, 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash ^= UInt64(bytes[offset]) &* prime5
            hash = rotate(hash, 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    private static func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }
}
