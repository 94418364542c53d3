internal import CFFmpeg

/// Pixel dimensions of a decoded poster.
package struct PixelSize: Sendable, Hashable, Codable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int

    /// Makes a size in pixels.
    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// Why a poster did not decode; `description` names the image kind and libav's reason.
package struct PosterDecodeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The image kind and libav's reason, for a person to read.
    package var description: String

    /// Makes a failure with its message.
    package init(_ description: String) {
        self.description = description
    }
}

/// Decodes JPEG / PNG posters with libavcodec (mjpeg / png decoders) to learn their real size:
/// an APIC whose bytes do not decode is a poster no player will show.
package enum PosterDecoder {
    /// The image formats a poster may be in.
    package enum ImageKind: String, Sendable {
        case jpeg, png
    }

    /// The kind from the magic bytes, falling back to the declared MIME type.
    package static func imageKind(_ bytes: [UInt8], mimeType: String) -> ImageKind? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        switch mimeType.lowercased() {
        case "image/jpeg", "image/jpg", "jpg", "jpeg": return .jpeg
        case "image/png", "png": return .png
        default: return nil
        }
    }

    /// Decodes the image to prove it shows, after its header's pixel count is checked against
    /// `maximumPixels`: a decoder allocates width × height whatever the file's size.
    package static func decode(
        _ bytes: [UInt8], mimeType: String, maximumPixels: Int = ImageHeader.defaultMaximumPixels
    ) -> Result<PixelSize, PosterDecodeFailure> {
        guard !bytes.isEmpty else { return .failure(PosterDecodeFailure("image is empty")) }
        guard let kind = imageKind(bytes, mimeType: mimeType) else {
            return .failure(PosterDecodeFailure("unsupported image type \"\(mimeType)\" (expected JPEG or PNG)"))
        }
        if let refusal = ImageHeader.refusal(bytes, maximumPixels: maximumPixels) {
            return .failure(PosterDecodeFailure("\(kind.rawValue.uppercased()) \(refusal)"))
        }
        LibAV.silenceLogging()
        do {
            let decoder = try ImageDecoder(
                codec: kind == .jpeg ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_PNG, maximumPixels: maximumPixels)
            return .success(try decoder.decode(bytes))
        } catch {
            return .failure(PosterDecodeFailure("\(kind.rawValue.uppercased()) does not decode: \(error.description)"))
        }
    }
}

/// Owns an `AVCodecContext`, a packet and a frame for one image decode; frees them in `deinit`.
private final class ImageDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?

    init(codec id: AVCodecID, maximumPixels: Int) throws(LibAVError) {
        guard let codec = avcodec_find_decoder(id) else { throw LibAV.nullResult("avcodec_find_decoder") }
        context = avcodec_alloc_context3(codec)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let context, packet != nil, frame != nil else { throw LibAV.nullResult("avcodec_alloc_context3") }
        context.pointee.thread_count = 1
        // The header was checked already; this also holds for whatever the decoder finds later.
        context.pointee.max_pixels = Int64(maximumPixels)
        // Strict: a truncated or damaged image must fail, not decode into grey blocks.
        context.pointee.err_recognition |= AV_EF_EXPLODE
        try LibAV.check("avcodec_open2", avcodec_open2(context, codec, nil))
    }

    deinit {
        av_frame_free(&frame)
        av_packet_free(&packet)
        avcodec_free_context(&context)
    }

    func decode(_ bytes: [UInt8]) throws(LibAVError) -> PixelSize {
        guard let context, let packet, let frame else { throw LibAV.nullResult("ImageDecoder") }
        guard bytes.count < Int(Int32.max) - 64 else {
            throw LibAVError(function: "av_new_packet", code: hls_averror(EINVAL), message: "image too large")
        }
        try LibAV.check("av_new_packet", av_new_packet(packet, Int32(bytes.count)))
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, let data = packet.pointee.data {
                data.update(from: base, count: bytes.count)
            }
        }
        try LibAV.check("avcodec_send_packet", avcodec_send_packet(context, packet))
        try LibAV.check("avcodec_send_packet", avcodec_send_packet(context, nil))
        try LibAV.check("avcodec_receive_frame", avcodec_receive_frame(context, frame))
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard width > 0, height > 0 else {
            throw LibAVError(
                function: "avcodec_receive_frame", code: hls_averror_invaliddata(), message: "frame has no size")
        }
        return PixelSize(width: width, height: height)
    }
}
