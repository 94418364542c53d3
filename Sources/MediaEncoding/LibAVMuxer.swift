internal import CFFmpeg
import MediaInspection

/// Writes encoded AAC frames into MPEG-TS or fMP4 segments with libavformat: one muxer for the
/// whole variant, its output switched to a fresh memory buffer at each segment boundary (as
/// ffmpeg's own hls muxer does), so continuity counters and fragment sequence numbers run on
/// across segments (design.md §8).
enum LibAVMuxer {
    /// MPEG-TS: PAT and PMT at the start of every segment (`resend_headers`), none in between
    /// (`pat_period`/`sdt_period` longer than any segment), PES packets of up to ~0.7 s of audio
    /// (`max_delay`), timestamps as given (`mpegts_copyts`).
    static func mux(_ audio: EncodedAudio, format: String) throws(LibAVError) -> [[UInt8]] {
        let output = try OutputContext(format: format, audio: audio)
        guard let context = output.context, let priv = context.pointee.priv_data else {
            throw LibAV.nullResult("priv_data")
        }
        context.pointee.max_delay = 700_000
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "mpegts_copyts", "1", 0)
        av_dict_set(&options, "pat_period", "100000", 0)
        av_dict_set(&options, "sdt_period", "100000", 0)
        try output.openBuffer()
        try LibAV.check("avformat_write_header", avformat_write_header(context, &options))
        var segments: [[UInt8]] = []
        for (index, frames) in audio.packets.enumerated() {
            if index > 0 {
                try output.openBuffer()
                try LibAV.check("av_opt_set", av_opt_set(priv, "mpegts_flags", "+resend_headers", 0))
            }
            for frame in frames { try output.write(frame) }
            try LibAV.check("av_write_frame", av_write_frame(context, nil))
            if index == audio.packets.count - 1 { try LibAV.check("av_write_trailer", av_write_trailer(context)) }
            segments.append(try output.takeBuffer())
        }
        return segments
    }

    /// fMP4: the initialization section (ftyp + empty moov), then one `moof`+`mdat` per segment
    /// (`frag_custom`: a fragment ends where we flush), `tfdt` on the source timeline.
    static func muxFragmented(_ audio: EncodedAudio) throws(LibAVError) -> ([UInt8], [[UInt8]]) {
        let output = try OutputContext(format: "mp4", audio: audio)
        guard let context = output.context, let priv = context.pointee.priv_data else {
            throw LibAV.nullResult("priv_data")
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "movflags", "frag_custom+empty_moov+default_base_moof+skip_sidx+skip_trailer", 0)
        av_dict_set(&options, "use_editlist", "0", 0)
        // Without an edit list the mp4 muxer would otherwise shift the first frame to time 0
        // (avoid_negative_ts=make_zero): a source whose audio starts later, as ffmpeg's muxed
        // fMP4 does behind an empty edit, would come out early by that much.
        av_dict_set(&options, "avoid_negative_ts", "make_non_negative", 0)
        try output.openBuffer()
        try LibAV.check("avformat_write_header", avformat_write_header(context, &options))
        let initSection = try output.takeBuffer()
        var fragments: [[UInt8]] = []
        for frames in audio.packets {
            try output.openBuffer()
            // Each fragment's tfdt is its first frame's time, not the sum of the fragments before.
            try LibAV.check("av_opt_set", av_opt_set(priv, "movflags", "+frag_discont", 0))
            for frame in frames { try output.write(frame) }
            try LibAV.check("av_write_frame", av_write_frame(context, nil))
            fragments.append(try output.takeBuffer())
        }
        try output.openBuffer()
        try LibAV.check("av_write_trailer", av_write_trailer(context))
        _ = try output.takeBuffer()
        return (initSection, fragments)
    }
}

/// Owns one output `AVFormatContext` with a single AAC stream and its current memory buffer.
private final class OutputContext {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private let sampleRate: Int32
    private var packet: UnsafeMutablePointer<AVPacket>?

    init(format: String, audio: EncodedAudio) throws(LibAVError) {
        var created: UnsafeMutablePointer<AVFormatContext>?
        try LibAV.check("avformat_alloc_output_context2", avformat_alloc_output_context2(&created, nil, format, nil))
        guard let created else { throw LibAV.nullResult("avformat_alloc_output_context2") }
        context = created
        guard let stream = avformat_new_stream(created, nil), let parameters = stream.pointee.codecpar else {
            throw LibAV.nullResult("avformat_new_stream")
        }
        self.stream = stream
        sampleRate = Int32(audio.sampleRate)
        parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        parameters.pointee.codec_id = AV_CODEC_ID_AAC
        parameters.pointee.sample_rate = Int32(audio.sampleRate)
        parameters.pointee.frame_size = Int32(AudioTranscoder.frameSamples)
        parameters.pointee.bit_rate = Int64(audio.bitRate)
        parameters.pointee.profile = hls_profile_aac_low()
        av_channel_layout_default(&parameters.pointee.ch_layout, Int32(audio.channels))
        let extradata = audio.config.extradata
        if !extradata.isEmpty {
            guard let buffer = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                throw LibAV.nullResult("av_mallocz")
            }
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            bytes.update(from: extradata, count: extradata.count)
            parameters.pointee.extradata = bytes
            parameters.pointee.extradata_size = Int32(extradata.count)
        }
        stream.pointee.time_base = AVRational(num: 1, den: Int32(audio.sampleRate))
        packet = av_packet_alloc()
        guard packet != nil else { throw LibAV.nullResult("av_packet_alloc") }
    }

    deinit {
        av_packet_free(&packet)
        if let pb = context?.pointee.pb {
            var buffer: UnsafeMutablePointer<UInt8>?
            _ = avio_close_dyn_buf(pb, &buffer)
            av_free(buffer)
            context?.pointee.pb = nil
        }
        avformat_free_context(context)
    }

    func openBuffer() throws(LibAVError) {
        guard let context else { return }
        try LibAV.check("avio_open_dyn_buf", avio_open_dyn_buf(&context.pointee.pb))
    }

    /// The bytes written since `openBuffer`; closes the buffer.
    func takeBuffer() throws(LibAVError) -> [UInt8] {
        guard let context, let pb = context.pointee.pb else { throw LibAV.nullResult("pb") }
        avio_flush(pb)
        var buffer: UnsafeMutablePointer<UInt8>?
        let size = avio_close_dyn_buf(pb, &buffer)
        context.pointee.pb = nil
        defer { av_free(buffer) }
        guard let buffer, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    func write(_ frame: EncodedFrame) throws(LibAVError) {
        guard let context, let packet else { return }
        try LibAV.check("av_new_packet", av_new_packet(packet, Int32(frame.data.count)))
        defer { av_packet_unref(packet) }
        if let data = packet.pointee.data { data.update(from: frame.data, count: frame.data.count) }
        let source = AVRational(num: 1, den: sampleRate)
        packet.pointee.pts = av_rescale_q(frame.pts, source, stream.pointee.time_base)
        packet.pointee.dts = packet.pointee.pts
        packet.pointee.duration = av_rescale_q(Int64(AudioTranscoder.frameSamples), source, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        try LibAV.check("av_write_frame", av_write_frame(context, packet))
    }
}
