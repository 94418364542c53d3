package import MediaFormats

/// The still image embedded in audio-only segments: an ID3v2 APIC frame (ID3v2.4 frames §4.14)
/// with picture type 3, "Cover (front)". Apple's players show it while they sit on an audio-only
/// variant; HLS authoring rules accept JPEG and PNG only.
package struct Poster: Sendable, Hashable {
    /// "image/jpeg" or "image/png", from the image's signature.
    package var mimeType: String
    /// The image bytes as given.
    package var data: [UInt8]
    /// The APIC description text (may be empty).
    package var description: String

    /// Sniffs the image format from its signature: JPEG (SOI marker FF D8 followed by a marker,
    /// ITU-T T.81 §B.1.1.3) or PNG (the 8-byte signature of ISO/IEC 15948 §5.2). Anything else
    /// is refused with an error that names what the bytes look like.
    package init(image: [UInt8], description: String = "") throws(PackagingError) {
        if image.starts(with: [0xFF, 0xD8, 0xFF]) {
            mimeType = "image/jpeg"
        } else if image.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            mimeType = "image/png"
        } else {
            throw PackagingError(
                .unsupportedImage,
                "the poster is \(Self.guessFormat(image)), not a JPEG or PNG image: HLS posters (ID3 APIC) must be JPEG or PNG; convert it first (e.g. ffmpeg -i poster.webp -q:v 4 poster.jpg)"
            )
        }
        // Posters are sent with every audio-only segment; one this large is a mistake, and it
        // would exceed what readers buffer for one timed-ID3 packet.
        guard image.count <= Self.maximumByteCount else {
            throw PackagingError(
                .unsupportedImage,
                "the poster is \(image.count) bytes; at most \(Self.maximumByteCount >> 20) MiB is accepted, and every byte counts against the audio-only bit-rate budget — scale it down (a 300×300 JPEG is usually 10–30 KB)"
            )
        }
        self.data = image
        self.description = description
    }

    /// Largest accepted image (the MediaFormats reader's cap for one timed-ID3 PES packet).
    package static let maximumByteCount = EmbeddedID3.maximumPESSize - 1024

    /// The APIC frame, picture type 3 (front cover).
    package var frame: ID3Frame {
        .attachedPicture(AttachedPicture(mimeType: mimeType, pictureType: 3, description: description, data: data))
    }

    /// A human name for what `bytes` start with, for the error message.
    static func guessFormat(_ bytes: [UInt8]) -> String {
        func ascii(_ range: Range<Int>) -> String? {
            guard bytes.count >= range.upperBound else { return nil }
            return String(decoding: bytes[range], as: UTF8.self)
        }
        if bytes.isEmpty { return "empty (0 bytes)" }
        if ascii(0..<4) == "GIF8" { return "a GIF image" }
        if ascii(0..<4) == "RIFF", ascii(8..<12) == "WEBP" { return "a WebP image" }
        if ascii(0..<2) == "BM" { return "a BMP image" }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return "a TIFF image"
        }
        if ascii(4..<8) == "ftyp" {
            let brand = ascii(8..<12) ?? ""
            if ["heic", "heix", "mif1", "msf1"].contains(brand) { return "a HEIF/HEIC image" }
            if brand == "avif" || brand == "avis" { return "an AVIF image" }
            return "an MP4/ISO BMFF file (brand \"\(brand)\")"
        }
        if bytes.starts(with: [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50]) || bytes.starts(with: [0xFF, 0x4F, 0xFF, 0x51]) {
            return "a JPEG 2000 image"
        }
        if ascii(0..<4) == "%PDF" { return "a PDF document" }
        if ascii(0..<3) == "ID3" { return "an ID3-tagged audio file" }
        if bytes[0] == 0x47, bytes.count >= 188 { return "an MPEG transport stream" }
        let head = String(decoding: bytes.prefix(256), as: UTF8.self).lowercased()
        if head.contains("<svg") { return "an SVG image" }
        if head.hasPrefix("<") || head.hasPrefix("\u{FEFF}<") { return "an XML/HTML document" }
        let digits = Array("0123456789ABCDEF")
        let hex = bytes.prefix(8).map { String([digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]]) }.joined(separator: " ")
        return "of an unknown format (starts with \(hex))"
    }
}
