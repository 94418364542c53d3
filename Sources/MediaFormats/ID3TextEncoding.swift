/// ID3v2 text encodings (ID3v2.4 structure §4): the first byte of every text-bearing frame.
enum ID3TextEncoding: UInt8 {
    case latin1 = 0
    case utf16WithBOM = 1
    case utf16BigEndian = 2
    case utf8 = 3

    /// Bytes of the string terminator in this encoding.
    var terminatorLength: Int {
        switch self {
        case .latin1, .utf8: return 1
        case .utf16WithBOM, .utf16BigEndian: return 2
        }
    }

    /// Splits off one terminated string; without a terminator, takes everything.
    /// UTF-16 terminators are two NUL bytes at an even offset, so a NUL half of a code unit
    /// (e.g. "A" = 00 41) is not mistaken for the end.
    func readTerminated(_ reader: inout ByteReader) -> String {
        if terminatorLength == 1 {
            return decode(reader.readNullTerminated())
        }
        let rest = reader.remaining
        var index = rest.startIndex
        while index + 1 < rest.endIndex {
            if rest[index] == 0, rest[index + 1] == 0 {
                let text = rest[rest.startIndex..<index]
                reader.skip(index + 2 - rest.startIndex)
                return decode(text)
            }
            index += 2
        }
        return decode(reader.readRemaining())
    }

    /// Decodes text, dropping trailing terminators (v2.4 text frames may end with one).
    func decode(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .latin1:
            var scalars = String.UnicodeScalarView()
            for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
            return Self.trimmingNULs(String(scalars))
        case .utf8:
            return Self.trimmingNULs(String(decoding: bytes, as: UTF8.self))
        case .utf16BigEndian:
            return Self.trimmingNULs(Self.decodeUTF16(bytes, bigEndian: true))
        case .utf16WithBOM:
            // A missing BOM violates §4 but occurs; big-endian is then the spec's default for UTF-16.
            var body = bytes
            var bigEndian = true
            if body.count >= 2 {
                let first = body[body.startIndex], second = body[body.startIndex + 1]
                if first == 0xFF, second == 0xFE {
                    bigEndian = false; body = body.dropFirst(2)
                } else if first == 0xFE, second == 0xFF {
                    body = body.dropFirst(2)
                }
            }
            return Self.trimmingNULs(Self.decodeUTF16(body, bigEndian: bigEndian))
        }
    }

    /// Encodes text with a terminator if asked. UTF-16 is written big-endian after a BOM.
    func encode(_ string: String, terminated: Bool) -> [UInt8] {
        var out: [UInt8] = []
        switch self {
        case .latin1:
            for scalar in string.unicodeScalars {
                out.append(scalar.value <= 0xFF ? UInt8(scalar.value) : UInt8(ascii: "?"))
            }
        case .utf8:
            out.append(contentsOf: string.utf8)
        case .utf16WithBOM, .utf16BigEndian:
            if self == .utf16WithBOM { out.append(contentsOf: [0xFE, 0xFF]) }
            for unit in string.utf16 { out.append(UInt8(unit >> 8)); out.append(UInt8(unit & 0xFF)) }
        }
        if terminated { out.append(contentsOf: repeatElement(0, count: terminatorLength)) }
        return out
    }

    /// The encoding our writer uses: UTF-8 in v2.4; in v2.3 (which has no UTF-8) ISO-8859-1
    /// when it can hold the text, else UTF-16 with BOM.
    static func preferred(for string: String, majorVersion: UInt8) -> ID3TextEncoding {
        if majorVersion >= 4 { return .utf8 }
        return string.unicodeScalars.allSatisfy { $0.value <= 0xFF } ? .latin1 : .utf16WithBOM
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let high = UInt16(bytes[index]), low = UInt16(bytes[index + 1])
            units.append(bigEndian ? high << 8 | low : low << 8 | high)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    private static func trimmingNULs(_ string: String) -> String {
        var result = string
        while result.unicodeScalars.last == "\u{0}" { result.unicodeScalars.removeLast() }
        return result
    }
}
