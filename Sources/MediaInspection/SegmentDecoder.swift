internal import CFFmpeg
internal import MediaFormats

/// What decoding one audio or video track of a segment found (`hlscheck check --decode`).
package struct TrackDecodeFacts: Sendable, Hashable, Codable {
    /// Audio or video.
    package var kind: TrackKind
    /// libavcodec's codec name ("h264", "aac", …).
    package var codecName: String
    /// Frames (demuxed packets) handed to the decoder.
    package var frameCount: Int
    /// Frames the decoder refused or reported damage in, or that the demuxer flagged corrupt.
    package var failedFrameCount: Int
    /// libav's own words for what went wrong, distinct, in order, at most
    /// ``SegmentDecoder/maximumReasons``.
    package var reasons: [String]
    /// Why the track was not decoded at all (no decoder in this libavcodec), nil when it was.
    package var notDecoded: String?

    /// Makes the facts of one track; counts default to 0.
    package init(
        kind: TrackKind, codecName: String, frameCount: Int = 0, failedFrameCount: Int = 0, reasons: [String] = [],
        notDecoded: String? = nil
    ) {
        self.kind = kind
        self.codecName = codecName
        self.frameCount = frameCount
        self.failedFrameCount = failedFrameCount
        self.reasons = reasons
        self.notDecoded = notDecoded
    }
}

/// Decodes every audio and video frame of a segment with libavcodec, as a player joining at this
/// segment would, and records what failed: what ffmpeg prints for a dropped transport packet
/// ("Packet corrupt", "error while decoding MB …") or a damaged AAC frame.
///
/// A second demux pass over the same bytes, so the inspection's own scan stays unchanged. Memory
/// is bounded: one codec context and one frame per track, each frame released as soon as it is
/// received; pictures larger than `maximumPixels` are refused by the decoder.
enum SegmentDecoder {
    static let maximumReasons = 3

    static func decode(source: any RandomAccessBytes, container: SegmentContainer, maximumPixels: Int)
        -> [TrackDecodeFacts]
    {
        LibAV.silenceLogging()
        guard source.count > 0, let demuxer = try? Demuxer(source: source, container: container),
            let format = demuxer.format, let packet = av_packet_alloc()
        else { return [] }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }

        var decoders: [Int: TrackDecoder] = [:]
        var order: [Int] = []
        // A read error ends the pass; the inspection reports it as the segment's problem.
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            let index = Int(packet.pointee.stream_index)
            guard index >= 0, index < Int(format.pointee.nb_streams), let stream = format.pointee.streams[index] else {
                continue
            }
            if decoders[index] == nil {
                guard let decoder = TrackDecoder(stream: stream, maximumPixels: maximumPixels) else { continue }
                decoders[index] = decoder
                order.append(index)
            }
            decoders[index]?.decode(packet)
        }
        return order.compactMap { index in
            guard let decoder = decoders[index] else { return nil }
            decoder.drain()
            return decoder.facts
        }
    }
}

/// Collects the error-level messages libav logs for one codec context. The log callback finds
/// it through `AVCodecContext.opaque`; `magic` guards against an opaque pointer set by anyone else.
private struct DecodeLog {
    static let magic: UInt64 = 0x686C_7364_6563_6F64  // "hlsdecod"
    var magic = DecodeLog.magic
    var errorCount = 0
    var messages: [String] = []
}

/// Owns the codec context, frame and log of one track; frees them in `deinit`. Lives inside one
/// synchronous `SegmentDecoder.decode` call.
private final class TrackDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let log: UnsafeMutablePointer<DecodeLog>
    private(set) var facts: TrackDecodeFacts

    /// Nil for streams that are not audio or video (timed ID3, an attached cover picture).
    init?(stream: UnsafeMutablePointer<AVStream>, maximumPixels: Int) {
        guard let parameters = stream.pointee.codecpar,
            stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        else { return nil }
        let kind: TrackKind
        switch parameters.pointee.codec_type {
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_VIDEO: kind = .video
        default: return nil
        }
        log = .allocate(capacity: 1)
        log.initialize(to: DecodeLog())
        let codecName = LibAV.string(avcodec_get_name(parameters.pointee.codec_id)) ?? "unknown"
        facts = TrackDecodeFacts(kind: kind, codecName: codecName)
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            facts.notDecoded = "this libavcodec has no \(codecName) decoder"
            return
        }
        context = avcodec_alloc_context3(codec)
        frame = av_frame_alloc()
        guard let context, frame != nil else {
            facts.notDecoded = LibAV.nullResult("avcodec_alloc_context3").description
            return
        }
        do {
            try LibAV.check("avcodec_parameters_to_context", avcodec_parameters_to_context(context, parameters))
            context.pointee.pkt_timebase = stream.pointee.time_base
            // One thread: errors are logged while the packet that caused them is being decoded,
            // and segments are already decoded concurrently.
            context.pointee.thread_count = 1
            context.pointee.max_pixels = Int64(maximumPixels)
            // Deblocking finds no errors; skipping it makes the pass cheaper.
            context.pointee.skip_loop_filter = AVDISCARD_ALL
            context.pointee.opaque = UnsafeMutableRawPointer(log)
            try LibAV.check("avcodec_open2", avcodec_open2(context, codec, nil))
        } catch {
            facts.notDecoded = error.description
            avcodec_free_context(&self.context)
        }
    }

    deinit {
        av_frame_free(&frame)
        avcodec_free_context(&context)
        log.deinitialize(count: 1)
        log.deallocate()
    }

    func decode(_ packet: UnsafeMutablePointer<AVPacket>) {
        guard let context else { return }
        facts.frameCount += 1
        let errorsBefore = log.pointee.errorCount
        // What ffmpeg prints as "Packet corrupt": the demuxer lost part of this frame (a
        // transport packet missing from its PES).
        var failed = packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0
        let sent = avcodec_send_packet(context, packet)
        let refused = sent < 0 && sent != hls_averror(EAGAIN)
        failed = receiveFrames() || refused || failed
        let logged = log.pointee.errorCount > errorsBefore
        if failed || logged { facts.failedFrameCount += 1 }
        // libav's own words; the bare return code only when it logged nothing.
        takeLoggedMessages()
        if refused, !logged { note("avcodec_send_packet: \(LibAV.errorText(sent))") }
        if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
            note("the demuxer found a frame incomplete (packet corrupt)")
        }
    }

    /// Flushes the decoder; a failure while draining counts as one failed frame.
    func drain() {
        guard let context else { return }
        let errorsBefore = log.pointee.errorCount
        _ = avcodec_send_packet(context, nil)
        if receiveFrames() || log.pointee.errorCount > errorsBefore { facts.failedFrameCount += 1 }
        takeLoggedMessages()
    }

    private func takeLoggedMessages() {
        for message in log.pointee.messages { note(message) }
        log.pointee.messages.removeAll()
    }

    /// Receives every frame ready; true when one of them came out damaged.
    private func receiveFrames() -> Bool {
        guard let context, let frame else { return false }
        var damaged = false
        while true {
            let received = avcodec_receive_frame(context, frame)
            if received == hls_averror(EAGAIN) || received == hls_averror_eof() { break }
            if received < 0 {
                note("avcodec_receive_frame: \(LibAV.errorText(received))")
                damaged = true
                break
            }
            if frame.pointee.decode_error_flags != 0 || frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
                damaged = true
            }
            av_frame_unref(frame)
        }
        return damaged
    }

    private func note(_ reason: String) {
        guard facts.reasons.count < SegmentDecoder.maximumReasons, !facts.reasons.contains(reason) else { return }
        facts.reasons.append(reason)
    }
}

/// Installed by ``LibAV/silenceLogging()``: error-level messages from a codec context that
/// ``TrackDecoder`` opened go to its ``DecodeLog``; everything else is dropped, as libav's own
/// logging is switched off anyway. A plain function, not a closure (design.md §7).
func libAVLogCallback(
    _ object: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) {
    guard level <= AV_LOG_ERROR, let object, let format, let arguments,
        let objectClass = object.load(as: UnsafePointer<AVClass>?.self), objectClass == avcodec_get_class()
    else { return }
    let context = object.assumingMemoryBound(to: AVCodecContext.self)
    guard let opaque = context.pointee.opaque else { return }
    let log = opaque.assumingMemoryBound(to: DecodeLog.self)
    guard log.pointee.magic == DecodeLog.magic else { return }
    log.pointee.errorCount += 1
    guard log.pointee.messages.count < SegmentDecoder.maximumReasons else { return }
    var buffer = [CChar](repeating: 0, count: 256)
    var printPrefix: Int32 = 0
    _ = av_log_format_line2(object, level, format, arguments, &buffer, Int32(buffer.count), &printPrefix)
    var bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    while let last = bytes.last, last == 0x0A || last == 0x0D || last == 0x20 { bytes.removeLast() }
    let text = String(decoding: bytes, as: UTF8.self)
    if !text.isEmpty, !log.pointee.messages.contains(text) { log.pointee.messages.append(text) }
}
