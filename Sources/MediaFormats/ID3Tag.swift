/// An ID3v2.3 or ID3v2.4 tag: version and frames. Reading follows the ID3v2.4 "structure"
/// document (§3 header, extended header, footer; §4 frames; §6 unsynchronisation) and the
/// ID3v2.3 specification where it differs. Writing never unsynchronises and adds no padding.
package struct ID3Tag: Sendable, Hashable {
    /// 3 or 4. `serialized()` writes v2.3 for 3 and v2.4 for anything else.
    package var majorVersion: UInt8
    /// The frames in tag order.
    package var frames: [ID3Frame]

    /// Makes a tag; ID3v2.4 by default.
    package init(majorVersion: UInt8 = 4, frames: [ID3Frame] = []) {
        self.majorVersion = majorVersion
        self.frames = frames
    }

    /// The 10-byte tag header (§3.1) and its footer, if any (§3.4).
    package struct Header: Sendable, Hashable {
        /// The ID3v2 major version as written (any value: the header is read for every version).
        package var majorVersion: UInt8
        /// The revision byte (0 in practice).
        package var revision: UInt8
        /// The header flags byte (§3.1): unsynchronisation, extended header, experimental, footer.
        package var flags: UInt8
        /// Size of everything after the header, excluding the footer.
        package var bodySize: Int

        /// Unsynchronisation flag (§6) set.
        package var isUnsynchronised: Bool { flags & 0x80 != 0 }
        /// Extended header flag (§3.2) set.
        package var hasExtendedHeader: Bool { flags & 0x40 != 0 }
        /// Footer flag exists only in v2.4.
        package var hasFooter: Bool { majorVersion >= 4 && flags & 0x10 != 0 }
        /// Header + body + footer.
        package var tagByteCount: Int { 10 + bodySize + (hasFooter ? 10 : 0) }

        /// Reads the header at the start of `bytes`. Works for any version, so a scanner can
        /// skip a tag it cannot decode (e.g. ID3v2.2) by its declared size.
        package static func parse(_ bytes: ArraySlice<UInt8>) throws(ID3Error) -> Header {
            var reader = ByteReader(bytes)
            guard let magic = reader.readBytes(3), magic.elementsEqual([0x49, 0x44, 0x33]) else {
                throw .notAnID3Tag
            }
            guard let major = reader.readUInt8(), let revision = reader.readUInt8(),
                let flags = reader.readUInt8()
            else { throw .truncated(declared: 10, available: bytes.count) }
            guard reader.remainingCount >= 4 else { throw .truncated(declared: 10, available: bytes.count) }
            // §3.1: version and revision are never 0xFF.
            guard major != 0xFF, revision != 0xFF else { throw .notAnID3Tag }
            guard let size = reader.readSynchsafeUInt28() else { throw .invalidSynchsafeSize(field: "tag") }
            return Header(majorVersion: major, revision: revision, flags: flags, bodySize: Int(size))
        }
    }

    /// Parses the tag at the start of `bytes`. `byteCount` is the whole tag including header
    /// and footer, so the caller can continue right after it.
    package static func parse(_ bytes: ArraySlice<UInt8>) throws(ID3Error) -> (tag: ID3Tag, byteCount: Int) {
        let header = try Header.parse(bytes)
        guard header.majorVersion == 3 || header.majorVersion == 4 else {
            throw .unsupportedVersion(header.majorVersion)
        }
        // The size field cannot exceed 256 MiB, but we still never trust it beyond what is present.
        guard header.tagByteCount <= bytes.count else {
            throw .truncated(declared: header.tagByteCount, available: bytes.count)
        }
        let bodyStart = bytes.startIndex + 10
        var body = bytes[bodyStart..<(bodyStart + header.bodySize)]
        let isV4 = header.majorVersion == 4
        // v2.3 §5: unsynchronisation covers the whole tag after the header. In v2.4 (§6.1) it is
        // applied per frame and the frame sizes count the unsynchronised bytes, so it is undone below.
        if !isV4, header.isUnsynchronised {
            body = removingUnsynchronisation(body)[...]
        }
        var reader = ByteReader(body)
        if header.hasExtendedHeader {
            try skipExtendedHeader(&reader, isV4: isV4)
        }
        var frames: [ID3Frame] = []
        while reader.remainingCount >= 10, let first = reader.peekUInt8(), first != 0 {
            let frameOffset = 10 + reader.offset
            guard let idBytes = reader.readBytes(4),
                idBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) })
            else { throw .invalidFrameID(offset: frameOffset) }
            let id = String(decoding: idBytes, as: UTF8.self)
            let size: Int
            if isV4 {
                // ID3v2.4 §4.1: synchsafe. Some writers (early iTunes) wrote plain integers; accept those.
                if let synchsafe = reader.readSynchsafeUInt28() {
                    size = Int(synchsafe)
                } else {
                    size = Int(reader.readUInt32() ?? 0)
                }
            } else {
                size = Int(reader.readUInt32() ?? 0)
            }
            guard let flags = reader.readUInt16() else { throw .invalidFrameID(offset: frameOffset) }
            guard let raw = reader.readBytes(size) else {
                throw .frameOverrunsTag(id: id, declared: size, remaining: reader.remainingCount)
            }
            frames.append(
                decodeFrame(
                    id: id, flags: flags, raw: raw, isV4: isV4,
                    tagUnsynchronised: header.isUnsynchronised))
        }
        return (ID3Tag(majorVersion: header.majorVersion, frames: frames), header.tagByteCount)
    }

    /// Parses a tag at the start of `bytes`; returns it and its size in bytes (header, body and
    /// footer). Throws `ID3Error` when the bytes are not a readable ID3v2.3/2.4 tag.
    package static func parse(_ bytes: [UInt8]) throws(ID3Error) -> (tag: ID3Tag, byteCount: Int) {
        try parse(bytes[...])
    }

    /// The tag as bytes: ID3v2.3 when `majorVersion == 3`, otherwise ID3v2.4. No
    /// unsynchronisation, no extended header, no padding, no footer.
    package func serialized() -> [UInt8] {
        let version: UInt8 = majorVersion == 3 ? 3 : 4
        var writer = ByteWriter(capacity: 64)
        writer.writeBytes([0x49, 0x44, 0x33, version, 0, 0])
        writer.writeSynchsafeUInt28(0)
        for frame in frames {
            let (flags, body) = frame.encodedBody(majorVersion: version)
            writer.writeBytes(Self.frameIDBytes(frame.id))
            if version == 4 {
                writer.writeSynchsafeUInt28(UInt32(clamping: body.count))
            } else {
                writer.writeUInt32(UInt32(clamping: body.count))
            }
            writer.writeUInt16(flags)
            writer.writeBytes(body)
        }
        writer.patchSynchsafeUInt28(UInt32(clamping: writer.count - 10), at: 6)
        return writer.bytes
    }

    /// Frame IDs are four ASCII bytes; decoded tags always have valid ones, and a hand-made
    /// frame with a malformed ID is a programmer error.
    private static func frameIDBytes(_ id: String) -> [UInt8] {
        let bytes = Array(id.utf8)
        precondition(bytes.count == 4, "ID3 frame ID must be four ASCII characters, got \"\(id)\"")
        return bytes
    }

    private static func skipExtendedHeader(_ reader: inout ByteReader, isV4: Bool) throws(ID3Error) {
        if isV4 {
            // v2.4 §3.2: synchsafe size of the whole extended header, at least 6 bytes.
            guard let size = reader.readSynchsafeUInt28() else { throw .invalidSynchsafeSize(field: "extended header") }
            guard size >= 6, reader.skip(Int(size) - 4) else { throw .malformedExtendedHeader(size: Int(size)) }
        } else {
            // v2.3 §3.2: plain size excluding the size field itself: 6, or 10 with a CRC.
            guard let size = reader.readUInt32() else { throw .malformedExtendedHeader(size: 0) }
            guard size >= 6, size <= UInt32(reader.remainingCount), reader.skip(Int(size)) else {
                throw .malformedExtendedHeader(size: Int(size))
            }
        }
    }

    private static func decodeFrame(
        id: String, flags: UInt16, raw: ArraySlice<UInt8>, isV4: Bool, tagUnsynchronised: Bool
    ) -> ID3Frame {
        var body = raw
        var keptFlags = flags
        var hasDataLengthIndicator = false
        let isOpaque: Bool
        if isV4 {
            // v2.4 §4.1.2 format flags: 0x40 grouping, 0x08 compression, 0x04 encryption,
            // 0x02 unsynchronisation, 0x01 data length indicator.
            if tagUnsynchronised || flags & 0x0002 != 0 {
                body = removingUnsynchronisation(raw)[...]
                keptFlags &= ~0x0002
            }
            hasDataLengthIndicator = flags & 0x0001 != 0
            isOpaque = flags & 0x004C != 0
        } else {
            // v2.3 §3.3.1: 0x80 compression, 0x40 encryption, 0x20 grouping.
            isOpaque = flags & 0x00E0 != 0
        }
        if !isOpaque, ID3Frame.isDecoded(id: id) {
            var decodable = body
            if hasDataLengthIndicator {
                var reader = ByteReader(body)
                if reader.readSynchsafeUInt28() != nil { decodable = reader.remaining }
            }
            if let frame = ID3Frame.decode(id: id, body: decodable) { return frame }
        }
        return .unknown(id: id, flags: keptFlags, body: Array(body))
    }

    /// Undoes unsynchronisation (§6.1): every 0xFF 0x00 pair becomes 0xFF.
    static func removingUnsynchronisation(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var previousWasFF = false
        for byte in bytes {
            if previousWasFF, byte == 0 {
                previousWasFF = false
                continue
            }
            out.append(byte)
            previousWasFF = byte == 0xFF
        }
        return out
    }

    /// Applies unsynchronisation (§6.1): a 0x00 after every 0xFF that is followed by a byte
    /// ≥ 0xE0 or 0x00, and after a final 0xFF. Used by tests to build unsynchronised fixtures.
    static func applyingUnsynchronisation(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 16)
        for (index, byte) in bytes.enumerated() {
            out.append(byte)
            guard byte == 0xFF else { continue }
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            if next.map({ $0 >= 0xE0 || $0 == 0 }) ?? true { out.append(0) }
        }
        return out
    }
}
