/// Why bytes could not be read as an ID3v2 tag. Each description says what was wrong and where,
/// so a user can tell a truncated download from a writer bug.
package enum ID3Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes do not start with "ID3" followed by a plausible version and size.
    case notAnID3Tag
    /// ID3v2.2 (three-letter frame IDs) or an unknown future version.
    case unsupportedVersion(UInt8)
    /// A size field has a byte with its top bit set where ID3v2 requires a synchsafe integer.
    case invalidSynchsafeSize(field: String)
    /// The header declares more bytes than are present.
    case truncated(declared: Int, available: Int)
    /// The extended header's size is impossible (smaller than its fixed part or beyond the tag).
    case malformedExtendedHeader(size: Int)
    /// A frame ID that is not four characters from A–Z, 0–9.
    case invalidFrameID(offset: Int)
    /// A frame whose declared size runs past the end of the tag.
    case frameOverrunsTag(id: String, declared: Int, remaining: Int)

    /// What was wrong and where, for a person to read.
    package var description: String {
        switch self {
        case .notAnID3Tag:
            return "not an ID3v2 tag: the bytes do not start with an \"ID3\" header"
        case .unsupportedVersion(let version):
            return "ID3v2.\(version) tag is not supported (only ID3v2.3 and ID3v2.4 are); re-tag the segment as ID3v2.4"
        case .invalidSynchsafeSize(let field):
            return
                "ID3 \(field) size is not a synchsafe integer (a byte has its top bit set): the tag is damaged or was written by a non-conforming tool"
        case .truncated(let declared, let available):
            return
                "ID3 tag declares \(declared) bytes but only \(available) are present: the segment is truncated or the size field is wrong"
        case .malformedExtendedHeader(let size):
            return "ID3 extended header declares an impossible size of \(size) bytes"
        case .invalidFrameID(let offset):
            return "ID3 frame at byte \(offset) of the tag has an invalid frame ID (expected four characters A–Z, 0–9)"
        case .frameOverrunsTag(let id, let declared, let remaining):
            return "ID3 frame \(id) declares \(declared) bytes but only \(remaining) remain in the tag"
        }
    }
}
