/// A forward-only cursor over bytes. Every read returns nil when the input is too short, so a
/// parser built on it cannot trap on truncated or hostile data; callers decide what nil means.
/// All multi-byte integers are big-endian (network order), as in every format this module reads.
package struct ByteReader: Sendable {
    /// The bytes being read. Indices are those of the slice (not necessarily zero-based).
    package let bytes: ArraySlice<UInt8>
    /// Index into `bytes` of the next byte to read.
    package private(set) var position: Int

    /// A reader positioned at the first byte of `bytes`.
    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.position = bytes.startIndex
    }

    /// A reader positioned at the first byte of `bytes`.
    package init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// Number of bytes consumed since the start of `bytes`.
    package var offset: Int { position - bytes.startIndex }
    /// Number of bytes not read yet.
    package var remainingCount: Int { bytes.endIndex - position }
    /// Whether every byte has been read.
    package var isAtEnd: Bool { position >= bytes.endIndex }
    /// The unread bytes, without consuming them.
    package var remaining: ArraySlice<UInt8> { bytes[position...] }

    /// The byte `distance` bytes ahead of the position, without consuming it; nil past the end.
    package func peekUInt8(at distance: Int = 0) -> UInt8? {
        guard distance >= 0, distance < remainingCount else { return nil }
        return bytes[position + distance]
    }

    /// One byte; nil at the end.
    package mutating func readUInt8() -> UInt8? {
        guard position < bytes.endIndex else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// A 16-bit big-endian integer; nil (nothing consumed) with fewer than 2 bytes left.
    package mutating func readUInt16() -> UInt16? {
        readInteger(byteCount: 2).map { UInt16(truncatingIfNeeded: $0) }
    }

    /// A 24-bit big-endian integer (e.g. a full box's flags).
    package mutating func readUInt24() -> UInt32? {
        readInteger(byteCount: 3).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// A 32-bit big-endian integer; nil (nothing consumed) with fewer than 4 bytes left.
    package mutating func readUInt32() -> UInt32? {
        readInteger(byteCount: 4).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// A 64-bit big-endian integer; nil (nothing consumed) with fewer than 8 bytes left.
    package mutating func readUInt64() -> UInt64? {
        readInteger(byteCount: 8)
    }

    /// A 28-bit "synchsafe" integer (ID3v2.4 §6.2): four bytes whose top bit is always zero.
    /// Returns nil (without consuming) when a byte has its top bit set, which means the field is
    /// not synchsafe: either damaged data or a writer that used a plain 32-bit integer.
    package mutating func readSynchsafeUInt28() -> UInt32? {
        guard remainingCount >= 4 else { return nil }
        var value: UInt32 = 0
        for index in position..<(position + 4) {
            let byte = bytes[index]
            guard byte & 0x80 == 0 else { return nil }
            value = value << 7 | UInt32(byte)
        }
        position += 4
        return value
    }

    /// The next `count` bytes as a slice of the input (no copy), or nil if fewer remain.
    package mutating func readBytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remainingCount else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    /// Everything left.
    package mutating func readRemaining() -> ArraySlice<UInt8> {
        defer { position = bytes.endIndex }
        return bytes[position...]
    }

    /// Bytes up to (not including) the next NUL, consuming the NUL too. Without a NUL, returns
    /// the remainder: ID3 and ISO BMFF writers sometimes omit the last terminator.
    package mutating func readNullTerminated() -> ArraySlice<UInt8> {
        let rest = bytes[position...]
        if let nul = rest.firstIndex(of: 0) {
            position = nul + 1
            return bytes[rest.startIndex..<nul]
        }
        position = bytes.endIndex
        return rest
    }

    /// Skips `count` bytes; returns false (without moving) if fewer remain.
    @discardableResult
    package mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remainingCount else { return false }
        position += count
        return true
    }

    private mutating func readInteger(byteCount: Int) -> UInt64? {
        guard remainingCount >= byteCount else { return nil }
        var value: UInt64 = 0
        for index in position..<(position + byteCount) {
            value = value << 8 | UInt64(bytes[index])
        }
        position += byteCount
        return value
    }
}
