internal import CFFmpeg
import MediaInspection

/// A poster re-encoded by ``ImageFitter`` to fit a byte budget.
package struct FittedImage: Sendable, Hashable {
    /// A baseline JPEG (4:2:0, full range, JFIF).
    package var data: [UInt8]
    /// Always "image/jpeg".
    package var mimeType: String
    /// Width in pixels after scaling.
    package var width: Int
    /// Height in pixels after scaling.
    package var height: Int
    /// The MJPEG qscale used: 2 is the best quality, 31 the smallest file (it multiplies the
    /// quantisation tables, so it is not libjpeg's 1–100 "quality", and lower is better).
    package var quality: Int
    /// What was chosen, for the user: "JPEG 480x270 (75 % of 640x360) at qscale 4, 9 876 bytes".
    package var description: String

    /// Makes a fitted image; `quality` is the MJPEG qscale (2–31, lower is better).
    package init(data: [UInt8], mimeType: String, width: Int, height: Int, quality: Int, description: String) {
        self.data = data
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.quality = quality
        self.description = description
    }
}

/// Shrinks a poster until it fits a byte budget (`hlscheck embed --fit`).
///
/// Order of attempts: JPEG quality steps at full size, then smaller sizes (libswscale, aspect
/// ratio kept, even dimensions, smallest side at least 16 px). At every size a binary search over
/// the qscale finds the best quality that fits, so the result is the largest encoding of the
/// first size that fits at all. Above the smallest size the qscale stops at
/// ``acceptableQScale``: past it JPEG blocking makes a full-size picture look worse than a
/// sharper smaller one. Only the smallest size may go down to qscale 31.
///
/// A transparent PNG is laid over black before encoding (JPEG has no alpha).
package enum ImageFitter {
    /// Best and worst qscale the `mjpeg` encoder accepts.
    package static let qscaleRange = 2...31
    /// The worst qscale tried at any size except the smallest.
    package static let acceptableQScale = 12

    /// The largest re-encoding of `image` (JPEG or PNG input) that is at most `maxBytes`, or nil
    /// when even the smallest size at the lowest quality does not fit.
    /// Throws ``EncodingFailure`` when the input does not decode.
    /// Throws before decoding when the header declares more than `maximumPixels`.
    package static func fit(
        _ image: [UInt8], mimeType: String, maxBytes: Int, maximumPixels: Int = ImageHeader.defaultMaximumPixels
    ) throws -> FittedImage? {
        guard !image.isEmpty else { throw EncodingFailure("image is empty") }
        guard let kind = PosterDecoder.imageKind(image, mimeType: mimeType) else {
            throw EncodingFailure("unsupported image type \"\(mimeType)\" (expected JPEG or PNG)")
        }
        if let refusal = ImageHeader.refusal(image, maximumPixels: maximumPixels) {
            throw EncodingFailure("\(kind.rawValue.uppercased()) \(refusal)")
        }
        let reencoder: ImageReencoder
        do {
            reencoder = try ImageReencoder(decoding: image, kind: kind)
        } catch {
            throw EncodingFailure("\(kind.rawValue.uppercased()) does not decode: \(error.description)")
        }
        let original = reencoder.sourceSize
        let choice: FitChoice?
        do {
            choice = try search(sizes: candidateSizes(for: original), maxBytes: maxBytes) {
                size, qscale throws(LibAVError) in
                try reencoder.jpeg(size: size, qscale: qscale)
            }
        } catch {
            throw EncodingFailure("re-encoding as JPEG failed: \(error.description)")
        }
        guard let choice else { return nil }
        return FittedImage(
            data: choice.data, mimeType: "image/jpeg", width: choice.size.width, height: choice.size.height,
            quality: choice.qscale, description: describe(choice, original: original))
    }

    /// The floor of the search: the smallest size it tries (smallest side 16 px) at the worst
    /// qscale (31) — what `--fit` goes down to before it gives up, and names when it does.
    /// Throws ``EncodingFailure`` when the input does not decode.
    package static func floor(
        _ image: [UInt8], mimeType: String, maximumPixels: Int = ImageHeader.defaultMaximumPixels
    ) throws -> FittedImage {
        guard !image.isEmpty, let kind = PosterDecoder.imageKind(image, mimeType: mimeType) else {
            throw EncodingFailure("unsupported image type \"\(mimeType)\" (expected JPEG or PNG)")
        }
        if let refusal = ImageHeader.refusal(image, maximumPixels: maximumPixels) {
            throw EncodingFailure("\(kind.rawValue.uppercased()) \(refusal)")
        }
        do {
            let reencoder = try ImageReencoder(decoding: image, kind: kind)
            let original = reencoder.sourceSize
            let size = candidateSizes(for: original).last ?? original
            let choice = FitChoice(
                size: size, qscale: qscaleRange.upperBound,
                data: try reencoder.jpeg(size: size, qscale: qscaleRange.upperBound))
            return FittedImage(
                data: choice.data, mimeType: "image/jpeg", width: size.width, height: size.height,
                quality: choice.qscale,
                description: describe(choice, original: original))
        } catch {
            throw EncodingFailure("re-encoding as JPEG failed: \(error)")
        }
    }

    /// One encoding the search settled on.
    struct FitChoice: Equatable {
        var size: PixelSize
        var qscale: Int
        var data: [UInt8]
    }

    /// Walks `sizes` (largest first) and returns, for the first size where anything fits, the
    /// encoding with the lowest qscale that fits. Encoded size falls as qscale rises, so a binary
    /// search needs about five encodes per size. Because each size is only tried after the
    /// larger one failed even at its worst allowed qscale, a bigger budget never yields a
    /// smaller result.
    static func search<Failure: Error>(
        sizes: [PixelSize], maxBytes: Int, encode: (PixelSize, Int) throws(Failure) -> [UInt8]
    ) throws(Failure) -> FitChoice? {
        guard maxBytes > 0 else { return nil }
        for (index, size) in sizes.enumerated() {
            let worst = index == sizes.count - 1 ? qscaleRange.upperBound : acceptableQScale
            var best = FitChoice(size: size, qscale: worst, data: try encode(size, worst))
            guard best.data.count <= maxBytes else { continue }
            // Invariant: `best` fits at best.qscale; every qscale below `low` was too big.
            var low = qscaleRange.lowerBound
            while low < best.qscale {
                let middle = (low + best.qscale) / 2
                let data = try encode(size, middle)
                if data.count <= maxBytes {
                    best = FitChoice(size: size, qscale: middle, data: data)
                } else {
                    low = middle + 1
                }
            }
            return best
        }
        return nil
    }

    /// Full size, then 75 %, 50 %, 35 %, 25 %, 17.5 %, 12.5 %, … (each pair half the one
    /// before), ending at a smallest side of 16 px. Scaled sizes keep the aspect ratio and are
    /// even (4:2:0 chroma); the full size is kept as it is.
    static func candidateSizes(for original: PixelSize) -> [PixelSize] {
        let minimumSide = 16
        var sizes = [original]
        let shortSide = min(original.width, original.height)
        guard shortSide > minimumSide else { return sizes }
        func scaled(_ factor: Double) -> PixelSize {
            PixelSize(
                width: evenDimension(Double(original.width) * factor),
                height: evenDimension(Double(original.height) * factor))
        }
        func append(_ size: PixelSize) {
            if let last = sizes.last, size.width < last.width || size.height < last.height { sizes.append(size) }
        }
        var factors = [0.75]
        var pair = (0.5, 0.35)
        while Double(shortSide) * pair.0 >= Double(minimumSide) {
            factors += [pair.0, pair.1]
            pair = (pair.0 / 2, pair.1 / 2)
        }
        for factor in factors {
            let size = scaled(factor)
            guard min(size.width, size.height) >= minimumSide else { break }
            append(size)
        }
        append(scaled(Double(minimumSide) / Double(shortSide)))
        return sizes
    }

    private static func evenDimension(_ value: Double) -> Int {
        max(2, Int((value / 2).rounded()) * 2)
    }

    static func describe(_ choice: FitChoice, original: PixelSize) -> String {
        var text = "JPEG \(choice.size.width)x\(choice.size.height)"
        if choice.size != original {
            let percent = Double(choice.size.width) / Double(original.width) * 100
            let shown = percent >= 10 ? String(Int(percent.rounded())) : String(Double(Int(percent * 10)) / 10)
            text += " (\(shown) % of \(original.width)x\(original.height))"
        }
        return text + " at qscale \(choice.qscale), \(groupedDigits(choice.data.count)) bytes"
    }

    /// 7912 → "7 912", as in the CLI's other messages.
    static func groupedDigits(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(" ") }
            out.append(digit)
        }
        return out
    }
}
