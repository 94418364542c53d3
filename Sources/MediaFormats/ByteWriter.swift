/// Appends big-endian integers and byte runs; the mirror of `ByteReader`.
package struct ByteWriter: Sendable {
    /// Everything written so far.
    package private(set) var bytes: [UInt8]

    /// An empty writer; `capacity` bytes are reserved up front.
    package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(max(0, capacity))
    }

    /// Number of bytes written so far.
    package var count: Int { bytes.count }

    /// Appends one byte.
    package mutating func writeUInt8(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends a 16-bit big-endian integer.
    package mutating func writeUInt16(_ value: UInt16) {
        writeInteger(UInt64(value), byteCount: 2)
    }

    /// Writes the low 24 bits of `value`.
    package mutating func writeUInt24(_ value: UInt32) {
        writeInteger(UInt64(value), byteCount: 3)
    }

    /// Appends a 32-bit big-endian integer.
    package mutating func writeUInt32(_ value: UInt32) {
        writeInteger(UInt64(value), byteCount: 4)
    }

    /// Appends a 64-bit big-endian integer.
    package mutating func writeUInt64(_ value: UInt64) {
        writeInteger(value, byteCount: 8)
    }

    /// Writes a 28-bit synchsafe integer (ID3v2.4 §6.2). Values above 0x0FFF_FFFF (256 MiB)
    /// cannot be represented; only the low 28 bits are written, so callers must cap sizes first.
    package mutating func writeSynchsafeUInt28(_ value: UInt32) {
        bytes.append(contentsOf: Self.synchsafeBytes(value))
    }

    /// Appends bytes as they are.
    package mutating func writeBytes<Bytes: Sequence>(_ other: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: other)
    }

    /// Appends an array's bytes in one copy. The generic form is not specialized in the modules
    /// that call it (the TS poster writer copies every packet of every segment through here) and
    /// appends byte by byte.
    package mutating func writeBytes(_ other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// Appends a slice's bytes in one copy (see `writeBytes(_: [UInt8])`).
    package mutating func writeBytes(_ other: ArraySlice<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Writes `string`'s UTF-8 bytes followed by a NUL.
    package mutating func writeNullTerminatedUTF8(_ string: String) {
        bytes.append(contentsOf: string.utf8)
        bytes.append(0)
    }

    /// Overwrites four bytes at `index` with `value` (for sizes known only after the body).
    package mutating func patchUInt32(_ value: UInt32, at index: Int) {
        precondition(index >= 0 && index + 4 <= bytes.count, "patchUInt32 outside written bytes")
        for shift in 0..<4 {
            bytes[index + shift] = UInt8(truncatingIfNeeded: value >> (24 - 8 * shift))
        }
    }

    /// Overwrites four bytes at `index` with a 28-bit synchsafe integer (ID3v2.4 §6.2), e.g. a tag
    /// size known only after its frames are written. Only the low 28 bits are kept.
    package mutating func patchSynchsafeUInt28(_ value: UInt32, at index: Int) {
        precondition(index >= 0 && index + 4 <= bytes.count, "patchSynchsafeUInt28 outside written bytes")
        bytes.replaceSubrange(index..<(index + 4), with: Self.synchsafeBytes(value))
    }

    static func synchsafeBytes(_ value: UInt32) -> [UInt8] {
        [
            UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F),
            UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F),
        ]
    }

    private mutating func writeInteger(_ value: UInt64, byteCount: Int) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
