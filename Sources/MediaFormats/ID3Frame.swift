/// One ID3v2 frame. The frames hlscheck reasons about are decoded; every other frame is kept
/// byte-for-byte as `.unknown` so that a tag read and written again loses nothing.
package enum ID3Frame: Sendable, Hashable {
    /// APIC (ID3v2.4 frames §4.14): the poster image.
    case attachedPicture(AttachedPicture)
    /// PRIV (§4.27), e.g. Apple's `com.apple.streaming.transportStreamTimestamp`.
    case privateData(owner: String, data: [UInt8])
    /// TXXX (§4.2.6): user-defined text.
    case userText(description: String, value: String)
    /// Any other text information frame T000–TZZZ (§4.2), e.g. TIT2.
    case text(id: String, value: String)
    /// A frame we do not decode, or one that is compressed, encrypted or grouped. `flags` are the
    /// frame's status and format flags as read (minus unsynchronisation, which was removed from
    /// `body`); they are in the layout of the tag's version (v2.3 and v2.4 differ, §4.1).
    case unknown(id: String, flags: UInt16, body: [UInt8])

    /// The four-character frame ID.
    package var id: String {
        switch self {
        case .attachedPicture: return "APIC"
        case .privateData: return "PRIV"
        case .userText: return "TXXX"
        case .text(let id, _): return id
        case .unknown(let id, _, _): return id
        }
    }

    /// Decodes a frame body (unsynchronisation and data length indicator already removed).
    /// Returns nil when the body does not follow the frame's layout; the caller keeps it as
    /// `.unknown` so the rest of the tag stays readable.
    static func decode(id: String, body: ArraySlice<UInt8>) -> ID3Frame? {
        var reader = ByteReader(body)
        switch id {
        case "APIC":
            guard let encoding = reader.readUInt8().flatMap(ID3TextEncoding.init(rawValue:)) else { return nil }
            let mimeType = ID3TextEncoding.latin1.decode(reader.readNullTerminated())
            guard let pictureType = reader.readUInt8() else { return nil }
            let description = encoding.readTerminated(&reader)
            return .attachedPicture(
                AttachedPicture(
                    mimeType: mimeType, pictureType: pictureType, description: description,
                    data: Array(reader.readRemaining())))
        case "PRIV":
            guard !body.isEmpty else { return nil }
            let owner = ID3TextEncoding.latin1.decode(reader.readNullTerminated())
            return .privateData(owner: owner, data: Array(reader.readRemaining()))
        case "TXXX":
            guard let encoding = reader.readUInt8().flatMap(ID3TextEncoding.init(rawValue:)) else { return nil }
            let description = encoding.readTerminated(&reader)
            return .userText(description: description, value: encoding.decode(reader.readRemaining()))
        default:
            guard id.hasPrefix("T"),
                let encoding = reader.readUInt8().flatMap(ID3TextEncoding.init(rawValue:))
            else { return nil }
            return .text(id: id, value: encoding.decode(reader.readRemaining()))
        }
    }

    /// Whether `decode` understands frames with this ID.
    static func isDecoded(id: String) -> Bool {
        id == "APIC" || id == "PRIV" || id.hasPrefix("T")
    }

    /// Bytes the frame takes in an ID3v2.4 tag as ``ID3Tag/serialized()`` writes it: the 10-byte
    /// frame header and the body. A picture's data is counted, not copied.
    package var serializedByteCount: Int {
        if case .attachedPicture(let picture) = self {
            let texts = Self.pictureTexts(picture, majorVersion: 4)
            // Text encoding, MIME type, picture type, description, data.
            return 10 + 1 + texts.mimeType.count + 1 + texts.description.count + picture.data.count
        }
        return 10 + encodedBody(majorVersion: 4).body.count
    }

    /// An APIC body's texts (§4.14) as written: the MIME type, and the description in the
    /// encoding chosen for it.
    private static func pictureTexts(_ picture: AttachedPicture, majorVersion: UInt8) -> (
        encoding: ID3TextEncoding, mimeType: [UInt8], description: [UInt8]
    ) {
        let encoding = ID3TextEncoding.preferred(for: picture.description, majorVersion: majorVersion)
        return (
            encoding, ID3TextEncoding.latin1.encode(picture.mimeType, terminated: true),
            encoding.encode(picture.description, terminated: true)
        )
    }

    /// The body as our writer emits it for the given tag version, and the flags to write.
    func encodedBody(majorVersion: UInt8) -> (flags: UInt16, body: [UInt8]) {
        switch self {
        case .attachedPicture(let picture):
            let texts = Self.pictureTexts(picture, majorVersion: majorVersion)
            var writer = ByteWriter(capacity: picture.data.count + 64)
            writer.writeUInt8(texts.encoding.rawValue)
            writer.writeBytes(texts.mimeType)
            writer.writeUInt8(picture.pictureType)
            writer.writeBytes(texts.description)
            writer.writeBytes(picture.data)
            return (0, writer.bytes)
        case .privateData(let owner, let data):
            return (0, ID3TextEncoding.latin1.encode(owner, terminated: true) + data)
        case .userText(let description, let value):
            let encoding = ID3TextEncoding.preferred(for: description + value, majorVersion: majorVersion)
            return (
                0,
                [encoding.rawValue] + encoding.encode(description, terminated: true)
                    + encoding.encode(value, terminated: false)
            )
        case .text(_, let value):
            let encoding = ID3TextEncoding.preferred(for: value, majorVersion: majorVersion)
            return (0, [encoding.rawValue] + encoding.encode(value, terminated: false))
        case .unknown(_, let flags, let body):
            return (flags, body)
        }
    }
}

/// The body of an APIC frame (ID3v2.4 frames §4.14).
package struct AttachedPicture: Sendable, Hashable {
    /// e.g. "image/jpeg" or "image/png"; "-->" means `data` is a URL.
    package var mimeType: String
    /// 3 = front cover, the type HLS posters use.
    package var pictureType: UInt8
    /// The picture's description (text, may be empty).
    package var description: String
    /// The image bytes (or a URL when `mimeType` is "-->").
    package var data: [UInt8]

    /// Makes a picture; `pictureType` defaults to 3, front cover.
    package init(mimeType: String, pictureType: UInt8 = 3, description: String = "", data: [UInt8]) {
        self.mimeType = mimeType
        self.pictureType = pictureType
        self.description = description
        self.data = data
    }
}
