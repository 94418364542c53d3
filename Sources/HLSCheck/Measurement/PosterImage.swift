import MediaInspection

/// The bytes of one poster found in a stream, kept once per distinct image (by content hash)
/// so that a report can show it. Only a JPEG or PNG whose header was read (`ImageHeader`) is
/// ever built: the media type comes from the bytes' signature, never from the ID3 MIME field.
package struct PosterImage: Sendable, Hashable {
    package enum Format: String, Sendable, Hashable {
        case jpeg = "image/jpeg"
        case png = "image/png"
    }

    /// SHA-256 of `bytes`, lowercase hex (as `PictureFacts.contentHash`): the key the report
    /// finds the image by. The checker passes the hash `SegmentInspector.pictureBytes` verified.
    package let contentHash: String
    package let bytes: [UInt8]
    package let format: Format
    /// Pixel size from the image header.
    package let width: Int
    package let height: Int

    /// At most this many distinct posters are kept per stream; a stream with more shows their facts only.
    package static let maximumCount = 8
    /// Posters larger than this are not kept (their facts are still reported).
    package static let maximumBytes = 4 << 20

    /// Nil unless `bytes` are a JPEG or PNG with a readable size header, within `maximumBytes`.
    package init?(bytes: [UInt8], contentHash: String) {
        guard bytes.count <= Self.maximumBytes, let size = ImageHeader.size(bytes), size.width > 0, size.height > 0
        else { return nil }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            format = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = .jpeg
        } else {
            return nil
        }
        self.bytes = bytes
        self.contentHash = contentHash
        width = size.width
        height = size.height
    }
}
