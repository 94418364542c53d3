/// The pixel size a JPEG or PNG declares in its header, read without decoding anything, so a
/// 142-byte PNG that claims 16000 × 16000 is refused before a decoder allocates a gigabyte.
package enum ImageHeader {
    /// 40 megapixels: an 8000 × 5000 photo. A poster is a few hundred pixels a side.
    package static let defaultMaximumPixels = 40_000_000

    /// Width and height from a PNG IHDR (ISO/IEC 15948 §11.2.2) or the first JPEG SOFn
    /// (ITU-T T.81 §B.2.2); nil when no header is found before the image data.
    package static func size(_ bytes: [UInt8]) -> PixelSize? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return pngSize(bytes) }
        if bytes.starts(with: [0xFF, 0xD8]) { return jpegSize(bytes) }
        return nil
    }

    /// nil when the image may be decoded; otherwise why not, naming the option that raises the limit.
    package static func refusal(_ bytes: [UInt8], maximumPixels: Int, limitHint: String = "--max-image-pixels")
        -> String?
    {
        guard let size = size(bytes) else {
            return "does not decode: no header with the picture size (PNG IHDR, JPEG SOF) was found"
        }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard overflow || pixels > maximumPixels else { return nil }
        return
            "declares \(size.width)x\(size.height) pixels, over the limit of \(maximumPixels) pixels; not decoded (raise the limit with \(limitHint))"
    }

    private static func pngSize(_ bytes: [UInt8]) -> PixelSize? {
        // Signature (8), then the first chunk must be IHDR: length (4), type (4), width (4), height (4).
        guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        return PixelSize(width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
    }

    /// The largest frame any SOFn marker in the file declares. The whole file is scanned, not
    /// only up to the first frame header: a decoder skips junk between markers and re-sizes its
    /// frame at every SOFn, so a small first header proves nothing. In entropy-coded data 0xFF is
    /// always followed by 0x00 or a restart marker (T.81 §B.1.1.5), so a match is a real marker;
    /// an EXIF thumbnail's header counts too, which only errs on the side of refusing.
    private static func jpegSize(_ bytes: [UInt8]) -> PixelSize? {
        var largest: PixelSize?
        var index = 2
        while index + 8 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == 0xFF else { continue }
            let marker = bytes[index + 1]
            let isFrameHeader = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            guard isFrameHeader else { continue }
            // Marker (2), length (2), precision (1), lines (2), samples per line (2).
            let size = PixelSize(width: bigEndian(bytes, index + 7, 2), height: bigEndian(bytes, index + 5, 2))
            if largest.map({ size.width * size.height > $0.width * $0.height }) ?? true { largest = size }
        }
        return largest
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
