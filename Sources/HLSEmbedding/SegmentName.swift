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
        let query = uri.firstIndex { $0 == "?" || $0 == "#" } ?? uri.endIndex
        let path = uri[..<query]
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let (base, ext) = parts(String(path[slash...]))
        return String(path[..<slash]) + base + marker + fingerprint + ext + uri[query...]
    }

    /// The name without our marker, split before its extension: ("seg0", ".ts").
    static func parts(_ name: String) -> (base: String, ext: String) {
        var base = name
        var ext = ""
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            base = String(name[..<dot])
            ext = String(name[dot...])
        }
        // Our marker and fingerprint end the name when it has them (no later marker can start
        // inside 8 hex digits): looked for at the end, not searched for.
        let fingerprint = base.suffix(8)
        if isFingerprint(fingerprint), base[..<fingerprint.startIndex].hasSuffix(marker) {
            base = String(base.dropLast(8 + marker.count))
        }
        return (base, ext)
    }

    /// Whether `candidate` is a name this scheme gives to a rewrite of `name` (with any fingerprint).
    static func isRenaming(_ candidate: String, of name: String) -> Bool {
        let (base, ext) = parts(name)
        let prefix = base + marker
        guard candidate.hasPrefix(prefix), candidate.hasSuffix(ext),
            candidate.count == prefix.count + 8 + ext.count
        else { return false }
        return isFingerprint(candidate.dropFirst(prefix.count).dropLast(ext.count))
    }

    private static func isFingerprint(_ text: Substring) -> Bool {
        text.count == 8 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
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
