internal import MediaFormats

/// One ISO BMFF box (ISO/IEC 14496-12 §4.2): where it lies in the file and where its payload
/// starts. 64-bit sizes (size == 1) and "to end of file" (size == 0) are understood.
struct ISOBox {
    var type: String
    /// The whole box, in indices of the bytes it was read from.
    var range: Range<Int>
    var headerLength: Int

    var payloadRange: Range<Int> { (range.lowerBound + headerLength)..<range.upperBound }

    /// The boxes laid end to end in `bytes`; nil when they do not tile it exactly (garbage,
    /// truncation, a size field that lies).
    static func boxes(in bytes: ArraySlice<UInt8>) -> [ISOBox]? {
        var result: [ISOBox] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            var reader = ByteReader(bytes[index...])
            guard let size32 = reader.readUInt32(), let typeBytes = reader.readBytes(4),
                typeBytes.allSatisfy({ (0x20...0x7E).contains($0) })
            else { return nil }
            var size = UInt64(size32)
            if size32 == 1 {
                guard let large = reader.readUInt64() else { return nil }
                size = large
            } else if size32 == 0 {
                size = UInt64(bytes.endIndex - index)
            }
            let headerLength = reader.offset
            guard size >= UInt64(headerLength), size <= UInt64(bytes.endIndex - index) else { return nil }
            result.append(
                ISOBox(
                    type: String(decoding: typeBytes, as: UTF8.self),
                    range: index..<(index + Int(size)), headerLength: headerLength))
            index += Int(size)
        }
        return result
    }

    /// The child boxes of a container box (moov, trak, mdia, moof, traf, …).
    func children(in bytes: ArraySlice<UInt8>) -> [ISOBox]? {
        ISOBox.boxes(in: bytes[payloadRange])
    }
}
