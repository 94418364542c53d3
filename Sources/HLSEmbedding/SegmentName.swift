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

    /// Eight lowercase hex digits, as `fingerprints(_:)` writes them.
    private static func isFingerprint(_ text: Substring.UTF8View.SubSequence) -> Bool {
        text.count == 8
            && text.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    /// FNV-1a (64 bit) folded to 32: a name, not a security boundary — a name that exists with
    /// other bytes is refused rather than overwritten.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        fingerprints([bytes])[0]
    }

    /// `fingerprint(_:)` of each of `arrays`. FNV-1a is one chain per array, each step (an xor
    /// and a multiply) waiting for the one before, so one array at a time leaves the multiplier
    /// idle most of each step; four arrays' chains interleaved keep it busy, for the same names.
    static func fingerprints(_ arrays: [[UInt8]]) -> [String] {
        var hashes = [UInt64](repeating: basis, count: arrays.count)
        var first = 0
        while first + 4 <= arrays.count {
            arrays[first].withUnsafeBufferPointer { a in
                arrays[first + 1].withUnsafeBufferPointer { b in
                    arrays[first + 2].withUnsafeBufferPointer { c in
                        arrays[first + 3].withUnsafeBufferPointer { d in
                            var (ha, hb, hc, hd) = (basis, basis, basis, basis)
                            let common = min(a.count, b.count, c.count, d.count)
                            for index in 0..<common {
                                ha = (ha ^ UInt64(a[index])) &* prime
                                hb = (hb ^ UInt64(b[index])) &* prime
                                hc = (hc ^ UInt64(c[index])) &* prime
                                hd = (hd ^ UInt64(d[index])) &* prime
                            }
                            hashes[first] = hash(a[common...], from: ha)
                            hashes[first + 1] = hash(b[common...], from: hb)
                            hashes[first + 2] = hash(c[common...], from: hc)
                            hashes[first + 3] = hash(d[common...], from: hd)
                        }
                    }
                }
            }
            first += 4
        }
        for index in first..<arrays.count {
            hashes[index] = arrays[index].withUnsafeBufferPointer { hash($0[...], from: basis) }
        }
        return hashes.map { hash in
            let folded = UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
            let digits = String(folded, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }
    }

    private static let basis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// FNV-1a over `bytes`, starting from `hash`.
    private static func hash(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, from hash: UInt64) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }
}
