internal import CFFmpeg
package import MediaInspection
import MediaFormats
import FileSystem

/// One picture of a video segment, encoded as JPEG: `hlscheck embed --poster-from-video`.
package struct VideoStill: Sendable, Hashable {
    /// A baseline JPEG (4:2:0, full range) at the best qscale (2); `--fit` shrinks it to the budget.
    package var jpeg: [UInt8]
    /// Width in pixels: the coded width, stretched by the sample aspect ratio so that the
    /// poster's pixels are square as a still's must be.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// Presentation time of the frame taken, in seconds of the segment's own timestamps.
    package var time: Double
}

/// Takes the frame of a video segment nearest a time, with libavcodec, and encodes it as JPEG.
///
/// A seek without libavformat's seeking: packets are read in order, those of the group of
/// pictures that starts at the last keyframe at or before the time are held (everything before
/// it is never decoded), and decoding starts at that keyframe once a later keyframe, or the end
/// of the segment, shows the group is complete; it goes forward until a frame at or after the
/// time comes out. Memory: one group of pictures of one segment, one decoder, two frames.
package enum VideoStillGrabber {
    /// The qscale of the JPEG handed on: the `mjpeg` encoder's best, so that `--fit` starts from
    /// the picture rather than from a copy already worn down.
    static let qscale = ImageFitter.qscaleRange.lowerBound

    /// The frame nearest `offset` seconds after `segmentStart` (the segment's first presentation
    /// time, in its own timestamps; nil: the first video packet's). `initSection` is read before
    /// the segment (fMP4); `range` and `initRange` are EXT-X-BYTERANGEs in their files, nil for
    /// the whole file. Pictures over `maximumPixels` are refused by the decoder.
    package static func still(
        segment path: String, range: (offset: Int, length: Int)? = nil, initSection: String?,
        initRange: (offset: Int, length: Int)? = nil, container: SegmentContainer,
        offset: Double, segmentStart: Double?, maximumPixels: Int = ImageHeader.defaultMaximumPixels
    ) throws(EncodingFailure) -> VideoStill {
        LibAV.silenceLogging()
        let bytes: any RandomAccessBytes
        do throws(RegularFileError) {
            let segment = FileRegionBytes(
                file: try RegularFile(path: path), offset: range?.offset ?? 0, length: range?.length)
            if let initSection {
                let file = try RegularFile(path: initSection)
                bytes = ConcatenatedBytes(
                    FileRegionBytes(file: file, offset: initRange?.offset ?? 0, length: initRange?.length), segment)
            } else {
                bytes = segment
            }
        } catch {
            throw EncodingFailure("\(error.path): cannot read it: \(error.reason)")
        }
        do {
            let demuxer = try Demuxer(source: bytes, container: container)
            try demuxer.findStreamInfo(maximumPixels: maximumPixels)
            guard let format = demuxer.format else { throw LibAV.nullResult("avformat_open_input") }
            let index = (0..<Int(format.pointee.nb_streams)).first { index in
                guard let stream = format.pointee.streams[index] else { return false }
                return stream.pointee.codecpar?.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                    && stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
            }
            guard let index, let stream = format.pointee.streams[index] else {
                throw EncodingFailure("\(path): has no video track to take a picture from")
            }
            let decoder = try StillDecoder(stream: stream, maximumPixels: maximumPixels)
            let picked = try decoder.nearest(
                format: format, streamIndex: index, offset: offset, segmentStart: segmentStart)
            guard let picked else {
                let reason = decoder.lastError.map { ": \($0)" } ?? ""
                throw EncodingFailure("\(path): no video frame decodes\(reason)")
            }
            let frame = picked.frame.pointer.pointee
            let size = squarePixelSize(
                width: Int(frame.width), height: Int(frame.height), aspect: frame.sample_aspect_ratio)
            let converted = try picked.frame.converted(to: AV_PIX_FMT_YUVJ420P, size: size)
            let jpeg = try JPEGEncoder(size: size, qscale: qscale).encode(converted)
            return VideoStill(jpeg: jpeg, width: size.width, height: size.height, time: picked.time)
        } catch let failure as EncodingFailure {
            throw failure
        } catch let error as LibAVError {
            throw EncodingFailure("\(path): \(error.description)")
        } catch {
            throw EncodingFailure("\(path): \(error)")
        }
    }

    /// The coded size stretched horizontally by the sample aspect ratio (an anamorphic 720x576
    /// at 16:15 is shown 768x576), even in both directions for 4:2:0.
    static func squarePixelSize(width: Int, height: Int, aspect: AVRational) -> PixelSize {
        var displayWidth = width
        if aspect.num > 0, aspect.den > 0, aspect.num != aspect.den {
            let stretched = Double(width) * Double(aspect.num) / Double(aspect.den)
            if stretched.isFinite, stretched >= 2, stretched <= Double(width) * 4 {
                displayWidth = Int(stretched.rounded())
            }
        }
        return PixelSize(width: max(2, displayWidth & ~1), height: max(2, height & ~1))
    }
}

/// The codec context of the one video track; freed with it. Lives inside one synchronous
/// ``VideoStillGrabber/still`` call.
private final class StillDecoder {
    private let context: CodecContext
    private let timeBase: AVRational
    /// libav's words for the last packet or frame that failed, for the message when none decodes.
    private(set) var lastError: String?

    init(stream: UnsafeMutablePointer<AVStream>, maximumPixels: Int) throws(LibAVError) {
        guard let parameters = stream.pointee.codecpar else { throw LibAV.nullResult("codecpar") }
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            let name = LibAV.string(avcodec_get_name(parameters.pointee.codec_id)) ?? "unknown"
            throw LibAVError(
                function: "avcodec_find_decoder", code: hls_averror(EINVAL),
                message: "this libavcodec has no \(name) decoder")
        }
        context = try CodecContext(codec)
        try LibAV.check("avcodec_parameters_to_context", avcodec_parameters_to_context(context.pointer, parameters))
        context.pointer.pointee.pkt_timebase = stream.pointee.time_base
        context.pointer.pointee.thread_count = 1
        context.pointer.pointee.max_pixels = Int64(maximumPixels)
        try LibAV.check("avcodec_open2", avcodec_open2(context.pointer, codec, nil))
        timeBase = stream.pointee.time_base
    }

    private func seconds(_ timestamp: Int64) -> Double? {
        guard timestamp != hls_av_nopts_value(), timeBase.den > 0 else { return nil }
        return Double(timestamp) * Double(timeBase.num) / Double(timeBase.den)
    }

    /// The decoded frame nearest the target, and its time; nil when no frame decoded.
    func nearest(
        format: UnsafeMutablePointer<AVFormatContext>, streamIndex: Int, offset: Double, segmentStart: Double?
    ) throws(LibAVError) -> (frame: OwnedFrame, time: Double)? {
        let packet = try OwnedPacket()
        var target = segmentStart.map { $0 + offset }
        // The group of pictures that holds the target so far: the last keyframe at or before it
        // and every packet after it. Packets before the first keyframe cannot be decoded alone.
        var held: [OwnedPacket] = []
        var decoding = false
        var best: (frame: OwnedFrame, time: Double)?
        var reached = false
        let frame = try OwnedFrame()

        func receive() throws(LibAVError) {
            guard let target else { return }
            while !reached {
                let received = avcodec_receive_frame(context.pointer, frame.pointer)
                if received == hls_averror(EAGAIN) || received == hls_averror_eof() { return }
                guard received >= 0 else {
                    lastError = "avcodec_receive_frame: \(LibAV.errorText(received))"
                    return
                }
                defer { av_frame_unref(frame.pointer) }
                let damaged =
                    frame.pointer.pointee.decode_error_flags != 0
                    || frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0
                guard !damaged, let time = seconds(frame.pointer.pointee.best_effort_timestamp) else {
                    if damaged { lastError = "a frame decoded damaged" }
                    continue
                }
                if best == nil || abs(time - target) < abs((best?.time ?? 0) - target) {
                    let kept = try OwnedFrame()
                    av_frame_move_ref(kept.pointer, frame.pointer)
                    best = (kept, time)
                }
                // Frames come out in presentation order: the next one is only further away.
                if time >= target { reached = true }
            }
        }
        func send(_ packet: UnsafeMutablePointer<AVPacket>?) throws(LibAVError) {
            let sent = avcodec_send_packet(context.pointer, packet)
            if sent < 0, sent != hls_averror(EAGAIN), sent != hls_averror_eof() {
                lastError = "avcodec_send_packet: \(LibAV.errorText(sent))"
            }
            try receive()
        }
        func decodeHeld() throws(LibAVError) {
            decoding = true
            for kept in held where !reached { try send(kept.pointer) }
            held = []
        }

        while !reached {
            let status = av_read_frame(format, packet.pointer)
            if status == hls_averror_eof() { break }
            if status < 0 {
                lastError = "av_read_frame: \(LibAV.errorText(status))"
                break
            }
            defer { av_packet_unref(packet.pointer) }
            guard Int(packet.pointer.pointee.stream_index) == streamIndex else { continue }
            let time = seconds(packet.pointer.pointee.pts) ?? seconds(packet.pointer.pointee.dts)
            if target == nil, let time { target = time + offset }
            if decoding {
                try send(packet.pointer)
                continue
            }
            let keyframe = packet.pointer.pointee.flags & AV_PKT_FLAG_KEY != 0
            if keyframe, let time, let target, time > target {
                // A keyframe after the target: the group before it is whole. Without one (the
                // target lies before the segment's first keyframe) decoding starts here.
                try decodeHeld()
                if !reached { try send(packet.pointer) }
                continue
            }
            guard keyframe || !held.isEmpty else { continue }
            let kept = try OwnedPacket()
            try LibAV.check("av_packet_ref", av_packet_ref(kept.pointer, packet.pointer))
            if keyframe { held = [kept] } else { held.append(kept) }
        }
        if !reached {
            if !decoding { try decodeHeld() }
            try send(nil)
        }
        return best
    }
}
