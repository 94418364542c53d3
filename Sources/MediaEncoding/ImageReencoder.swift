internal import CFFmpeg
import MediaInspection

/// The C half of ``ImageFitter``: decodes a JPEG / PNG once, then re-encodes it as baseline JPEG
/// at any size and qscale. Every libav / libswscale object lives in one of the small owners below
/// and is freed in its `deinit`; nothing here is `Sendable` on purpose, so an instance stays in
/// the one synchronous call that made it (design.md §7, "keep each C pointer inside one task").
final class ImageReencoder {
    /// Size of the decoded picture.
    let sourceSize: PixelSize
    /// What the decoder produced, alpha already composited over black.
    private let source: OwnedFrame
    /// The last size scaled to, kept because the qscale search encodes one size several times.
    private var scaled: (size: PixelSize, frame: OwnedFrame)?

    init(decoding bytes: [UInt8], kind: PosterDecoder.ImageKind) throws(LibAVError) {
        LibAV.silenceLogging()
        let decoded = try OwnedFrame.decode(bytes, codec: kind == .jpeg ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_PNG)
        let size = PixelSize(width: Int(decoded.pointer.pointee.width), height: Int(decoded.pointer.pointee.height))
        sourceSize = size
        source = try decoded.hasAlpha ? decoded.compositedOverBlack() : decoded
    }

    /// Baseline JPEG (4:2:0, full range) of the picture scaled to `size` at `qscale` (2 best … 31).
    func jpeg(size: PixelSize, qscale: Int) throws(LibAVError) -> [UInt8] {
        let frame: OwnedFrame
        if let scaled, scaled.size == size {
            frame = scaled.frame
        } else {
            frame = try source.converted(to: AV_PIX_FMT_YUVJ420P, size: size)
            scaled = (size, frame)
        }
        // A fresh encoder per picture: MJPEG is intra-only, but a new context guarantees that
        // one attempt can never depend on the attempts made before it (deterministic output).
        return try JPEGEncoder(size: size, qscale: qscale).encode(frame)
    }
}

extension ImageReencoder {
    /// The decoded picture's luma (full range, row by row), for tests that check what the
    /// pixels became (alpha compositing) rather than only the file's size.
    func lumaSamples() throws(LibAVError) -> [UInt8] {
        let gray = try source.converted(to: AV_PIX_FMT_GRAY8, size: sourceSize)
        guard let plane = gray.pointer.pointee.data.0 else { throw LibAV.nullResult("av_frame_get_buffer") }
        let stride = Int(gray.pointer.pointee.linesize.0)
        var samples: [UInt8] = []
        samples.reserveCapacity(sourceSize.width * sourceSize.height)
        for row in 0..<sourceSize.height {
            samples += UnsafeBufferPointer(start: plane + row * stride, count: sourceSize.width)
        }
        return samples
    }
}

/// Owns one `AVFrame` (and the buffers it references); frees it in `deinit`.
final class OwnedFrame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(LibAVError) {
        guard let frame = av_frame_alloc() else { throw LibAV.nullResult("av_frame_alloc") }
        pointer = frame
    }

    /// A frame with its own writable buffers.
    convenience init(size: PixelSize, format: AVPixelFormat) throws(LibAVError) {
        try self.init()
        pointer.pointee.width = Int32(size.width)
        pointer.pointee.height = Int32(size.height)
        pointer.pointee.format = format.rawValue
        try LibAV.check("av_frame_get_buffer", av_frame_get_buffer(pointer, 0))
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }

    var format: AVPixelFormat { AVPixelFormat(rawValue: pointer.pointee.format) }

    var hasAlpha: Bool {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
        return descriptor.pointee.flags & UInt64(AV_PIX_FMT_FLAG_ALPHA) != 0
    }

    /// Decodes one still image. Strict, like ``PosterDecoder``: a damaged image fails.
    static func decode(_ bytes: [UInt8], codec id: AVCodecID) throws(LibAVError) -> OwnedFrame {
        guard let codec = avcodec_find_decoder(id) else { throw LibAV.nullResult("avcodec_find_decoder") }
        let context = try CodecContext(codec)
        context.pointer.pointee.thread_count = 1
        context.pointer.pointee.err_recognition |= AV_EF_EXPLODE
        try LibAV.check("avcodec_open2", avcodec_open2(context.pointer, codec, nil))
        let packet = try OwnedPacket()
        guard bytes.count < Int(Int32.max) - 64 else {
            throw LibAVError(function: "av_new_packet", code: hls_averror(EINVAL), message: "image too large")
        }
        try LibAV.check("av_new_packet", av_new_packet(packet.pointer, Int32(bytes.count)))
        bytes.withUnsafeBufferPointer { source in
            if let base = source.baseAddress, let data = packet.pointer.pointee.data {
                data.update(from: base, count: bytes.count)
            }
        }
        let frame = try OwnedFrame()
        try LibAV.check("avcodec_send_packet", avcodec_send_packet(context.pointer, packet.pointer))
        try LibAV.check("avcodec_send_packet", avcodec_send_packet(context.pointer, nil))
        try LibAV.check("avcodec_receive_frame", avcodec_receive_frame(context.pointer, frame.pointer))
        guard frame.pointer.pointee.width > 0, frame.pointer.pointee.height > 0 else {
            throw LibAVError(
                function: "avcodec_receive_frame", code: hls_averror_invaliddata(), message: "frame has no size")
        }
        return frame
    }

    /// This picture in `format` at `size`, through libswscale. Area averaging when shrinking
    /// (the only direction the fitter goes); bit-exact so the bytes do not depend on the CPU's
    /// SIMD paths. YUVJ formats tell libswscale the range is full, as JPEG wants.
    func converted(to format: AVPixelFormat, size: PixelSize) throws(LibAVError) -> OwnedFrame {
        let scaler = try Scaler(
            from: PixelSize(width: Int(pointer.pointee.width), height: Int(pointer.pointee.height)),
            self.format, to: size, format)
        let output = try OwnedFrame(size: size, format: format)
        try LibAV.check("sws_scale_frame", sws_scale_frame(scaler.pointer, output.pointer, pointer))
        return output
    }

    /// RGBA with every colour multiplied by its alpha, i.e. the picture laid over black;
    /// libswscale then drops the (now meaningless) alpha when converting to YUV. Black, not
    /// white: players show posters on dark backgrounds, and transparent pixels of PNG logos
    /// often hold black already, so this matches what most players display.
    func compositedOverBlack() throws(LibAVError) -> OwnedFrame {
        let size = PixelSize(width: Int(pointer.pointee.width), height: Int(pointer.pointee.height))
        let rgba = try converted(to: AV_PIX_FMT_RGBA, size: size)
        guard let plane = rgba.pointer.pointee.data.0 else { throw LibAV.nullResult("av_frame_get_buffer") }
        let stride = Int(rgba.pointer.pointee.linesize.0)
        for row in 0..<size.height {
            let line = plane + row * stride
            for column in 0..<size.width {
                let pixel = line + column * 4
                let alpha = UInt32(pixel[3])
                for channel in 0..<3 {
                    pixel[channel] = UInt8((UInt32(pixel[channel]) * alpha + 127) / 255)
                }
                pixel[3] = 255
            }
        }
        return rgba
    }
}

/// Owns an `AVCodecContext`.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(_ codec: UnsafePointer<AVCodec>) throws(LibAVError) {
        guard let context = avcodec_alloc_context3(codec) else { throw LibAV.nullResult("avcodec_alloc_context3") }
        pointer = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }
}

/// Owns an `AVPacket`.
final class OwnedPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(LibAVError) {
        guard let packet = av_packet_alloc() else { throw LibAV.nullResult("av_packet_alloc") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}

/// Owns a `SwsContext`.
final class Scaler {
    let pointer: OpaquePointer

    init(from sourceSize: PixelSize, _ sourceFormat: AVPixelFormat, to size: PixelSize, _ format: AVPixelFormat)
        throws(LibAVError)
    {
        let flags = SWS_AREA | SWS_ACCURATE_RND | SWS_BITEXACT
        guard
            let context = sws_getContext(
                Int32(sourceSize.width), Int32(sourceSize.height), sourceFormat,
                Int32(size.width), Int32(size.height), format, flags, nil, nil, nil)
        else { throw LibAV.nullResult("sws_getContext") }
        pointer = context
    }

    deinit {
        sws_freeContext(pointer)
    }
}

/// The `mjpeg` encoder set up for one picture at a fixed qscale.
struct JPEGEncoder {
    private let context: CodecContext
    private let lambda: Int32

    init(size: PixelSize, qscale: Int) throws(LibAVError) {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw LibAV.nullResult("avcodec_find_encoder")
        }
        context = try CodecContext(codec)
        lambda = FF_QP2LAMBDA * Int32(qscale)
        let settings = context.pointer
        settings.pointee.width = Int32(size.width)
        settings.pointee.height = Int32(size.height)
        settings.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        settings.pointee.color_range = AVCOL_RANGE_JPEG
        settings.pointee.time_base = AVRational(num: 1, den: 25)
        settings.pointee.thread_count = 1
        // Fixed quantiser instead of rate control; bit-exact drops the encoder-version comment.
        settings.pointee.flags |= AV_CODEC_FLAG_QSCALE | AV_CODEC_FLAG_BITEXACT
        settings.pointee.global_quality = lambda
        try LibAV.check("avcodec_open2", avcodec_open2(settings, codec, nil))
    }

    func encode(_ frame: OwnedFrame) throws(LibAVError) -> [UInt8] {
        frame.pointer.pointee.quality = lambda
        frame.pointer.pointee.pts = 0
        let packet = try OwnedPacket()
        try LibAV.check("avcodec_send_frame", avcodec_send_frame(context.pointer, frame.pointer))
        try LibAV.check("avcodec_send_frame", avcodec_send_frame(context.pointer, nil))
        try LibAV.check("avcodec_receive_packet", avcodec_receive_packet(context.pointer, packet.pointer))
        guard let data = packet.pointer.pointee.data, packet.pointer.pointee.size > 0 else {
            throw LibAVError(
                function: "avcodec_receive_packet", code: hls_averror_invaliddata(), message: "empty packet")
        }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointer.pointee.size)))
    }
}
