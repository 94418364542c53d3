// How segments are stored compactly: a segment's rare fields, shared context and URI text live
// outside its value, so that a million-segment playlist costs a few words per segment.

/// Where a segment's URI text is.
enum URISource: Sendable {
    /// A numbered URI of a run.
    case template(URITemplate)
    /// Bytes in a buffer (one per playlist for the parser's URIs).
    case text(URIText)
}

/// URI bytes, one after the other: the parser keeps every URI that is no template's in one of
/// these per playlist, 16 bytes a segment instead of a `String` (and its allocation) each.
final class URIText: Sendable {
    let bytes: [UInt8]

    /// The payload for "every byte of the buffer".
    static let whole: UInt64 = 0xFF_FFFF

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The payload for `length` bytes from `offset`, nil when it does not fit.
    static func payload(offset: Int, length: Int) -> UInt64? {
        guard length < Int(whole), offset < 1 << 40 else { return nil }
        return UInt64(offset) << 24 | UInt64(length)
    }

    /// The text a payload names.
    func string(_ payload: UInt64) -> String {
        let length = Int(payload & Self.whole), offset = Int(payload >> 24)
        return bytes.withUnsafeBufferPointer { buffer in
            let end = length == Int(Self.whole) ? buffer.count : min(offset + length, buffer.count)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[min(offset, end)..<end]), as: UTF8.self)
        }
    }
}

/// A segment's context alone (most segments), or with its rare fields.
enum SegmentTail: Sendable {
    case shared(SegmentContext)
    case own(SegmentExtras)
}

/// What few segments have: a title, a byte range, partial segments, a date-time that is not
/// packed, a line that does not fit the compact fields.
struct SegmentRareFields: Sendable, Hashable {
    var title: String?
    var byteRange: ByteRange?
    var parts: [PartialSegment] = []
    var writtenDateTime: String?
    var uriLine: Int?
    var extinfLine: Int?
    var unreadableByteRangeLine: Int?

    var isEmpty: Bool {
        title == nil && byteRange == nil && parts.isEmpty && writtenDateTime == nil && uriLine == nil
            && extinfLine == nil
            && unreadableByteRangeLine == nil
    }
}

/// A segment's rare fields with its context.
final class SegmentExtras: Sendable {
    let fields: SegmentRareFields
    let context: SegmentContext

    init(_ fields: SegmentRareFields, context: SegmentContext) {
        self.fields = fields
        self.context = context
    }
}

/// A date-time as most playlists write it, `YYYY-MM-DDThh:mm:ss[.f[f[f]]]Z`, in one integer rather
/// than a 24-byte string per segment: its 14 to 17 digits and how many of them are fractional.
/// Nothing else is packed, so the text comes back exactly as written.
enum PackedDateTime {
    /// The packed value (never 0), nil when `bytes` is not of that form.
    static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        // "2022-06-10T03:31:00Z" is 20 bytes; with ".fff", 24.
        let count = bytes.count
        guard count >= 20, count <= 24, count != 21, bytes[count - 1] == UInt8(ascii: "Z"),
            bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        let fraction = count == 20 ? 0 : count - 21
        if fraction > 0, bytes[19] != UInt8(ascii: ".") { return nil }
        var digits: UInt64 = 0
        // Every byte but the separators (4, 7, 10, 13, 16, 19) and the final Z is a digit.
        var index = 0
        while index < count - 1 {
            switch index {
            case 4, 7, 10, 13, 16, 19: break
            default:
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                digits = digits &* 10 &+ UInt64(digit)
            }
            index += 1
        }
        return (digits << 2 | UInt64(fraction)) | (1 << 63)
    }

    /// The text `pack` read.
    static func text(_ packed: UInt64) -> String {
        let fraction = Int(packed & 3)
        var digits = (packed & ~(1 << 63)) >> 2
        let count = fraction == 0 ? 20 : 21 + fraction
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = count - 1
            buffer[index] = UInt8(ascii: "Z")
            while index > 0 {
                index -= 1
                switch index {
                case 4, 7: buffer[index] = UInt8(ascii: "-")
                case 10: buffer[index] = UInt8(ascii: "T")
                case 13, 16: buffer[index] = UInt8(ascii: ":")
                case 19: buffer[index] = UInt8(ascii: ".")
                default:
                    buffer[index] = UInt8(ascii: "0") + UInt8(digits % 10)
                    digits /= 10
                }
            }
            return count
        }
    }
}

/// A URI as `prefix`, a decimal number (no leading zero) and `suffix`: one string for a run of
/// numbered segments rather than one each.
final class URITemplate: Sendable {
    let prefix: [UInt8]
    let suffix: [UInt8]

    init(prefix: [UInt8], suffix: [UInt8]) {
        self.prefix = prefix
        self.suffix = suffix
    }

    /// Where the last number of `bytes` lies, when it is one this can hold (1 to 18 digits,
    /// no leading zero but "0" itself), and its value.
    static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int, number: UInt64)? {
        var end = bytes.count
        while end > 0, !(bytes[end - 1] >= UInt8(ascii: "0") && bytes[end - 1] <= UInt8(ascii: "9")) { end -= 1 }
        guard end > 0 else { return nil }
        var start = end
        while start > 0, bytes[start - 1] >= UInt8(ascii: "0"), bytes[start - 1] <= UInt8(ascii: "9") { start -= 1 }
        guard end - start <= 18, bytes[start] != UInt8(ascii: "0") || end - start == 1 else { return nil }
        var number: UInt64 = 0
        for index in start..<end { number = number * 10 + UInt64(bytes[index] - UInt8(ascii: "0")) }
        return (start, end, number)
    }

    /// Whether `bytes` is this template's prefix and suffix around `start..<end`.
    func matches(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Bool {
        guard start == prefix.count, bytes.count - end == suffix.count else { return false }
        for index in 0..<start where bytes[index] != prefix[index] { return false }
        for index in 0..<suffix.count where bytes[end + index] != suffix[index] { return false }
        return true
    }

    /// The URI with `number`.
    func uri(_ number: UInt64) -> String {
        var digits = 1, rest = number / 10
        while rest > 0 { digits += 1; rest /= 10 }
        let count = prefix.count + digits + suffix.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            for byte in prefix { buffer[index] = byte; index += 1 }
            var value = number
            for k in stride(from: index + digits - 1, through: index, by: -1) {
                buffer[k] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            index += digits
            for byte in suffix { buffer[index] = byte; index += 1 }
            return count
        }
    }
}

/// The key, map and bitrate in force for a run of segments, and the run's media sequence base:
/// one reference shared by the run.
final class SegmentContext: Sendable {
    let key: EncryptionKey?
    let map: MediaInitializationSection?
    let bitrate: Int?
    /// A segment's media sequence number is this plus its own 24-bit delta.
    let sequenceBase: Int

    init(key: EncryptionKey?, map: MediaInitializationSection?, bitrate: Int?, sequenceBase: Int) {
        self.key = key
        self.map = map
        self.bitrate = bitrate
        self.sequenceBase = sequenceBase
    }

    /// The same key, map and bitrate, another base.
    func with(sequenceBase: Int) -> SegmentContext {
        SegmentContext(key: key, map: map, bitrate: bitrate, sequenceBase: sequenceBase)
    }
}
